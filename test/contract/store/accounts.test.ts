// Accounts through the store port: the opening balance and its ledger row, taken names, top-ups, limits and
// thresholds, the ledger invariant after many operations, and the one-time seed of a fresh store.
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD } from '../../../core/contract/low-balance';
import { StoreConflictError } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { chargeInput, NOW, unique, useStore } from './harness';

describe.each(STORE_IMPLEMENTATIONS)('accounts ($name)', (impl) => {
  const fx = useStore(impl);

  it('creates an account with its opening balance and a ledger that sums to it', async () => {
    const { store } = fx;
    const name = unique('acme');
    const row = await store.accounts.create(name, 50, NOW);
    expect(row).toMatchObject({
      name,
      tier: 'free',
      balance: 50,
      last_package: null,
      threshold: DEFAULT_THRESHOLD,
      created_at: NOW,
      override_rps: null,
      override_burst: null,
    });
    expect(typeof row.id).toBe('number');
    expect(await store.accounts.byId(row.id)).toEqual(row);
    expect(await store.accounts.byName(name)).toEqual(row);
    expect(await store.accounts.balance(row.id)).toBe(50);
    expect((await store.accounts.list()).map((a) => a.name)).toEqual([name]);
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it('keeps the threshold given at creation, and zero as an opening balance', async () => {
    const { store } = fx;
    const row = await store.accounts.create(unique('zero'), 0, NOW, '500');
    expect(row.threshold).toBe('500');
    expect(row.balance).toBe(0);
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it('answers undefined for an account that does not exist', async () => {
    const { store } = fx;
    expect(await store.accounts.byId(987_654)).toBeUndefined();
    expect(await store.accounts.byName('nobody')).toBeUndefined();
    expect(await store.accounts.balance(987_654)).toBeUndefined();
    expect(await store.accounts.topup(987_654, 10, NOW)).toBeUndefined();
    expect(await store.accounts.setLimits(987_654, 5, 10, NOW)).toBeUndefined();
  });

  it('refuses a taken name with StoreConflictError and changes nothing', async () => {
    const { store } = fx;
    const name = unique('taken');
    const first = await store.accounts.create(name, 10, NOW);
    await expect(store.accounts.create(name, 99, NOW)).rejects.toBeInstanceOf(StoreConflictError);
    expect(await store.accounts.list()).toEqual([first]);
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it('tops up: the row after it, paid tier, the package remembered, the ledger in step', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('buyer'), 3, NOW);
    const after = await store.accounts.topup(acc.id, 1000, NOW, 'invoice 17');
    expect(after).toMatchObject({ id: acc.id, balance: 1003, tier: 'paid', last_package: 1000 });
    expect(await store.accounts.byId(acc.id)).toEqual(after);
    const again = await store.accounts.topup(acc.id, 500, NOW);
    expect(again).toMatchObject({ balance: 1503, tier: 'paid', last_package: 500 });
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it('sets, replaces and clears the limits override, and sets the threshold', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('limited'), 10, NOW);
    expect(await store.accounts.setLimits(acc.id, 5, 10, NOW)).toMatchObject({
      id: acc.id,
      override_rps: 5,
      override_burst: 10,
    });
    expect(await store.accounts.setLimits(acc.id, 0.5, 3, NOW)).toMatchObject({
      override_rps: 0.5,
      override_burst: 3,
    });
    expect(await store.accounts.byId(acc.id)).toMatchObject({ override_rps: 0.5, override_burst: 3 });
    expect(await store.accounts.clearLimits(acc.id)).toMatchObject({
      override_rps: null,
      override_burst: null,
    });
    expect(await store.accounts.byId(acc.id)).toMatchObject({ override_rps: null, override_burst: null });

    expect(await store.accounts.setThreshold(acc.id, '1000')).toMatchObject({
      id: acc.id,
      threshold: '1000',
    });
    expect(await store.accounts.setThreshold(acc.id, 'off')).toMatchObject({ threshold: 'off' });
    expect((await store.accounts.byId(acc.id))?.threshold).toBe('off');
    // Limits and thresholds are not money: the balance and the ledger are untouched.
    expect(await store.accounts.balance(acc.id)).toBe(10);
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it('keeps every balance equal to the sum of its ledger after many operations', async () => {
    const { store } = fx;
    const accounts = await Promise.all([
      store.accounts.create(unique('m1'), 5, NOW),
      store.accounts.create(unique('m2'), 0, NOW),
      store.accounts.create(unique('m3'), 40, NOW),
    ]);
    const ops: Array<Promise<unknown>> = [];
    for (let round = 0; round < 6; round++) {
      for (const acc of accounts) {
        ops.push(store.accounts.topup(acc.id, 1 + round, NOW));
        for (let i = 0; i < 4; i++) ops.push(store.charge(chargeInput(acc.id)));
        ops.push(store.accounts.setLimits(acc.id, 1 + round, 2 + round, NOW));
      }
    }
    await Promise.all(ops);
    expect(await store.accounts.invariantViolations()).toEqual([]);
    for (const acc of accounts) {
      const balance = await store.accounts.balance(acc.id);
      expect(balance).toBeGreaterThanOrEqual(0);
    }
  });

  it('seeds a fresh store once, and never a store that has an account', async () => {
    const { store } = fx;
    expect(await store.accounts.seedIfEmpty('default', 100, NOW)).toBe(true);
    expect(await store.accounts.seedIfEmpty('default', 100, NOW)).toBe(false);
    expect(await store.accounts.seedIfEmpty('other', 7, NOW)).toBe(false);
    const list = await store.accounts.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'default', balance: 100 });
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it('does not seed a store where an account was created first', async () => {
    const { store } = fx;
    await store.accounts.create(unique('first'), 1, NOW);
    expect(await store.accounts.seedIfEmpty('default', 100, NOW)).toBe(false);
    expect(await store.accounts.byName('default')).toBeUndefined();
  });

  it('seeds once when several seeds race', async () => {
    const { store } = fx;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => store.accounts.seedIfEmpty('default', 100, NOW)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.accounts.list()).toHaveLength(1);
  });
});
