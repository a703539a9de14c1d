// Resale prices end to end (#21): a /v1 account's rules price its /ext/v1 quotes, the desk's own rules its
// desk quotes, /v1 never carries a customer price, and a rule changed by another process (the admin CLI on
// the same data file) holds from the next quote on, cached carrier answers included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteResponse, type QuoteRate } from '../../../core/contract/quote-ext';
import { Rate } from '../../../core/contract/v1';
import type { DeskQuoteResult } from '../../../core/contract/operations';
import { createAccount, runStore } from '../../../core/operations';
import { openDataFolder } from '../../../core/store/data-folder';
import {
  FIRST_TWO_CARRIERS,
  rawRequest,
  SHIPMENT,
  startTestService,
  type TestService,
} from '../../helpers/service';

const clock = { now: () => new Date() };

/** ⌈n / step⌉ · step, written out here rather than taken from the code under test. */
const up = (n: number, step: number): number => Math.ceil(n / step) * step;

let t: TestService;
let shopKey: string;

beforeAll(async () => {
  t = await startTestService({ settings: FIRST_TWO_CARRIERS });
  await createAccount(t.service.store, clock, { name: 'shop-1', balance: 100 });
  shopKey = await t.newKey('shop-1');
  const ctx = { store: t.service.store, clock };
  // shop-1: CDEK +10 % rounded up to 10 ₽; every other carrier +100 ₽ and 25,50 ₽ of packaging.
  await runStore(ctx, 'pricing:set', {
    account: 'shop-1',
    carrier: 'cdek',
    markup_percent: 10,
    rounding: '10',
  });
  await runStore(ctx, 'pricing:set', {
    account: 'shop-1',
    carrier: null,
    markup_kopecks: 10_000,
    packaging_kopecks: 2_550,
  });
  // The desk's own quotes: never below 5 000 ₽.
  await runStore(ctx, 'pricing:set', { account: null, carrier: null, min_kopecks: 500_000 });
}, 60_000);
afterAll(() => t.close());

function ext(key: string, body: unknown = SHIPMENT) {
  return rawRequest(t.port, {
    method: 'POST',
    path: '/ext/v1/rates',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function extRates(key: string): Promise<QuoteRate[]> {
  const r = await ext(key);
  expect(r.status, r.text).toBe(200);
  const rates = QuoteResponse.parse(r.json).rates;
  expect(new Set(rates.map((x) => x.carrier))).toEqual(new Set(['cdek', 'russian-post']));
  return rates;
}

describe('resale prices on every quote path', () => {
  it('/ext/v1 prices an account’s quote by its rule for the carrier, else its rule for every carrier', async () => {
    for (const rate of await extRates(shopKey)) {
      const expected =
        rate.carrier === 'cdek'
          ? up(rate.price_kopecks + Math.ceil(rate.price_kopecks / 10), 1_000)
          : rate.price_kopecks + 10_000 + 2_550;
      expect([rate.carrier, rate.service_code, rate.customer_price_kopecks]).toEqual([
        rate.carrier,
        rate.service_code,
        expected,
      ]);
    }
  });

  it('an account without rules gets no customer price: the desk’s rules are not its', async () => {
    for (const rate of await extRates(t.key)) expect(rate.customer_price_kopecks).toBeNull();
  });

  it('/v1/rates never carries a customer price, for an account with rules either', async () => {
    const r = await t.postRates(SHIPMENT, {}, shopKey);
    expect(r.status, r.text).toBe(200);
    expect(r.json.rates.length).toBeGreaterThan(0);
    for (const rate of r.json.rates as Array<Record<string, unknown>>) {
      expect(rate).not.toHaveProperty('customer_price_kopecks');
      expect(Object.keys(rate).every((k) => k in Rate.shape)).toBe(true);
    }
    expect(r.text).not.toContain('customer_price');
  });

  it('the desk’s quote (quote:run) is priced by the desk’s own rules', async () => {
    const run = await t.service.desk.dispatch('quote:run', { quoteKey: 'resale-1', shipment: SHIPMENT });
    expect(run.ok).toBe(true);
    const { rates } = (run as { value: DeskQuoteResult }).value;
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) expect(rate.customer_price_kopecks).toBe(Math.max(rate.price_kopecks, 500_000));
  });

  it('a rule changed by another process holds from the next quote on, over the cached carrier answer', async () => {
    const before = await extRates(shopKey);
    // As the admin CLI does it: its own connection to the data file, while the service serves.
    const folder = openDataFolder(t.dir);
    try {
      const ctx = { store: folder, clock };
      await runStore(ctx, 'pricing:set', { account: 'shop-1', carrier: 'cdek', max_kopecks: 100 });
      await runStore(ctx, 'pricing:remove', { account: 'shop-1', carrier: null });
    } finally {
      await folder.close();
    }
    const after = await extRates(shopKey);
    // The same carrier prices (the rate cache answered), new customer prices.
    expect(after.map((r) => r.price_kopecks).sort()).toEqual(before.map((r) => r.price_kopecks).sort());
    for (const rate of after)
      expect([rate.carrier, rate.customer_price_kopecks]).toEqual(
        rate.carrier === 'cdek' ? ['cdek', Math.min(rate.price_kopecks, 100)] : [rate.carrier, null],
      );
  });
});
