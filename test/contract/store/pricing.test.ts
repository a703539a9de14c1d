// Resale rules (port: PricingStore, #21): one rule per owner (an account or the desk) and carrier (or every
// carrier), replaced in place, listed in one order, kept exactly (a percentage's decimals, null limits), and
// seen by another instance on the next read.
import { describe, expect, it } from 'vitest';
import { PricingRule, type PricingRuleInput } from '../../../core/contract/pricing';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { NOW, unique, useStore } from './harness';

const rule = (fields: Partial<PricingRuleInput> & Pick<PricingRuleInput, 'account_id' | 'carrier'>) =>
  PricingRule.parse(fields);

describe.each(STORE_IMPLEMENTATIONS)('pricing rules ($name)', (impl) => {
  const fx = useStore(impl);

  it('keeps a rule exactly as given, and replaces it in place for the same owner and carrier', async () => {
    const { store } = fx;
    const a = await store.accounts.create(unique('shop'), 10, NOW);
    const full = rule({
      account_id: a.id,
      carrier: 'cdek',
      markup_percent: 12.35,
      markup_kopecks: 5_000,
      packaging_kopecks: 3_050,
      min_kopecks: 30_000,
      max_kopecks: 1_000_000_000,
      rounding: '10',
    });
    expect(await store.pricing.upsert(full)).toEqual(full);
    const bare = rule({ account_id: a.id, carrier: 'cdek', markup_percent: 0.01 });
    expect(await store.pricing.upsert(bare)).toEqual(bare);
    expect(await store.pricing.forAccount(a.id)).toEqual([bare]);
  });

  it('holds one rule per owner and carrier, the desk (null) and "every carrier" (null) included', async () => {
    const { store } = fx;
    const a = await store.accounts.create(unique('a'), 10, NOW);
    const b = await store.accounts.create(unique('b'), 10, NOW);
    const rules = [
      rule({ account_id: b.id, carrier: 'pek', markup_percent: 1 }),
      rule({ account_id: a.id, carrier: 'pek', markup_percent: 2 }),
      rule({ account_id: null, carrier: 'cdek', markup_percent: 3 }),
      rule({ account_id: a.id, carrier: null, markup_percent: 4 }),
      rule({ account_id: null, carrier: null, markup_percent: 5 }),
      rule({ account_id: a.id, carrier: 'cdek', markup_percent: 6 }),
    ];
    for (const r of rules) await store.pricing.upsert(r);
    // Twice: the nulls of the desk and of "every carrier" are one owner and one carrier, not new ones each time.
    for (const r of rules) await store.pricing.upsert({ ...r, markup_percent: r.markup_percent + 10 });
    const pct = (list: PricingRule[]) => list.map((r) => r.markup_percent);
    // The desk first, then by account; within an owner "every carrier" first, then by code.
    expect(pct(await store.pricing.list())).toEqual([15, 13, 14, 16, 12, 11]);
    expect(pct(await store.pricing.forAccount(null))).toEqual([15, 13]);
    expect(pct(await store.pricing.forAccount(a.id))).toEqual([14, 16, 12]);
    expect(pct(await store.pricing.forAccount(b.id))).toEqual([11]);
    expect(await store.pricing.forAccount(987_654)).toEqual([]);
  });

  it('removes one rule, says whether there was one, and leaves the others', async () => {
    const { store } = fx;
    const a = await store.accounts.create(unique('a'), 10, NOW);
    await store.pricing.upsert(rule({ account_id: null, carrier: null, markup_percent: 1 }));
    await store.pricing.upsert(rule({ account_id: a.id, carrier: null, markup_percent: 2 }));
    await store.pricing.upsert(rule({ account_id: a.id, carrier: 'cdek', markup_percent: 3 }));
    expect(await store.pricing.remove(a.id, null)).toBe(true);
    expect(await store.pricing.remove(a.id, null)).toBe(false);
    expect(await store.pricing.remove(null, 'cdek')).toBe(false);
    expect((await store.pricing.list()).map((r) => [r.account_id, r.carrier])).toEqual([
      [null, null],
      [a.id, 'cdek'],
    ]);
    expect(await store.pricing.remove(null, null)).toBe(true);
    expect(await store.pricing.forAccount(null)).toEqual([]);
  });

  it('refuses a rule for an account that does not exist, and a rule the bounds forbid', async () => {
    const { store } = fx;
    await expect(store.pricing.upsert(rule({ account_id: 987_654, carrier: null }))).rejects.toThrow();
    const bad = { ...rule({ account_id: null, carrier: null }), min_kopecks: 200, max_kopecks: 100 };
    await expect(store.pricing.upsert(bad)).rejects.toThrow();
    await expect(
      store.pricing.upsert({ ...bad, min_kopecks: null, rounding: 'half' as never }),
    ).rejects.toThrow();
    expect(await store.pricing.list()).toEqual([]);
  });

  it('keeps rules across a reopen', async () => {
    const a = await fx.store.accounts.create(unique('a'), 10, NOW);
    const kept = rule({ account_id: a.id, carrier: 'boxberry', packaging_kopecks: 4_990, rounding: '1' });
    await fx.store.pricing.upsert(kept);
    const store = await fx.opened.reopen();
    expect(await store.pricing.list()).toEqual([kept]);
  });

  it('shows another instance’s change on the next read: nothing is cached to go stale', async () => {
    const { store } = fx;
    const second = await fx.opened.openSecond();
    const a = await store.accounts.create(unique('a'), 10, NOW);
    expect(await second.pricing.forAccount(a.id)).toEqual([]);
    await store.pricing.upsert(rule({ account_id: a.id, carrier: null, markup_percent: 5 }));
    expect(await second.pricing.forAccount(a.id)).toEqual([
      rule({ account_id: a.id, carrier: null, markup_percent: 5 }),
    ]);
    await second.pricing.upsert(rule({ account_id: a.id, carrier: null, markup_percent: 7 }));
    expect((await store.pricing.forAccount(a.id)).map((r) => r.markup_percent)).toEqual([7]);
    await second.pricing.remove(a.id, null);
    expect(await store.pricing.forAccount(a.id)).toEqual([]);
  });
});
