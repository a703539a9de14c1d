// What every contract test file shares: a fresh store per test (closed and removed after it), a fixed clock
// for the timestamps the store only keeps, and builders for the rows the tests write.
import { afterEach, beforeEach } from 'vitest';
import type { SecretStore } from '../../../core/settings/secrets';
import type { RateCardRow } from '../../../core/ratecards/parse';
import type { ChargeInput, NewKey, NewQuote, Store } from '../../../core/store/port';
import type { OpenedStore, StoreImplementation, StoreOpenOptions } from './implementations';

export const NOW = '2025-03-01T10:00:00.000Z';
export const NOW_MS = Date.parse(NOW);
export const DAY_MS = 24 * 60 * 60 * 1000;

export interface StoreFixture {
  /** The store of the running test (after a reopen(), the reopened one). */
  readonly store: Store;
  readonly opened: OpenedStore;
}

/** A fresh store of `impl` before each test, cleaned up after it. */
export function useStore(impl: StoreImplementation, options?: StoreOpenOptions): StoreFixture {
  let opened: OpenedStore | undefined;
  beforeEach(async () => {
    opened = await impl.open(options);
  });
  afterEach(async () => {
    const o = opened;
    opened = undefined;
    await o?.cleanup();
  });
  return {
    get store() {
      if (!opened) throw new Error('no store outside a test');
      return opened.store;
    },
    get opened() {
      if (!opened) throw new Error('no store outside a test');
      return opened;
    },
  };
}

let seq = 0;
/** A name no other call of this run returns (for accounts, keys, request ids, idempotency keys). */
export function unique(prefix: string): string {
  seq += 1;
  return `${prefix}-${seq}`;
}

export function newKey(accountId: number, overrides: Partial<NewKey> = {}): NewKey {
  const id = overrides.id ?? unique('key');
  return {
    id,
    account_id: accountId,
    name: unique('name'),
    digest: `digest-${id}-${'x'.repeat(16)}`,
    prefix: 'rdk_AbCd',
    last_four: 'wXyZ',
    origin: 'created',
    created_at: NOW,
    last_used_at: null,
    revoked_at: null,
    ...overrides,
  };
}

/** A /v1 history row whose from_city carries `marker`, so quotes.search finds exactly the rows of one test. */
export function historyRow(marker: string, requestId: string, body: string): NewQuote {
  return {
    request_id: requestId,
    source: 'api',
    created_at: NOW,
    from_city: marker,
    to_city: 'Санкт-Петербург',
    weight_grams: 1200,
    cheapest_kopecks: 45_000,
    carriers: 'cdek,pek',
    sandbox: 1,
    shipment_json: '{"from":{"city":"Москва"},"to":{"city":"Санкт-Петербург"},"weight_grams":1200}',
    result_json: body,
    author: null,
    warehouse: null,
  };
}

/** The reply /v1 would store: the new balance inside, and text that must come back byte for byte. */
export function replyBody(balanceRemaining: number): string {
  return `{"balance_remaining":${balanceRemaining},"note":"Привет, мир ✓ \\u0000 \\"q\\"","pad":"  "}`;
}

export function chargeInput(accountId: number, overrides: Partial<ChargeInput> = {}): ChargeInput {
  return {
    accountId,
    requestId: unique('req'),
    now: new Date(NOW),
    body: replyBody,
    ...overrides,
  };
}

/** Seals by prefix and base64, like a keychain would (opaque at rest, `enc:` as settings/secrets.ts says). */
export const testSecrets: SecretStore = {
  encrypting: true,
  seal: (plain) => `enc:${Buffer.from(plain, 'utf8').toString('base64')}`,
  open: (stored) =>
    stored.startsWith('enc:') ? Buffer.from(stored.slice(4), 'base64').toString('utf8') : stored,
};

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function rateCardRows(): RateCardRow[] {
  return [
    {
      line: 2,
      from: { kind: 'any' },
      to: { kind: 'prefix', prefix: '101' },
      maxWeightGrams: 1000,
      priceKopecks: 25_000,
      daysMin: 1,
      daysMax: 2,
      deliveryType: 'door',
      serviceCode: 'express',
      serviceName: 'Экспресс',
      declaredValueBp: 150,
    },
    {
      line: 3,
      from: { kind: 'city', name: 'Москва' },
      to: { kind: 'city', name: 'Санкт-Петербург' },
      maxWeightGrams: 5000,
      priceKopecks: 41_050,
      daysMin: 2,
      daysMax: 4,
      deliveryType: 'pickup_point',
      serviceCode: 'economy',
      serviceName: null,
      declaredValueBp: 0,
    },
    {
      line: 5,
      from: { kind: 'prefix', prefix: '19' },
      to: { kind: 'any' },
      maxWeightGrams: 30_000,
      priceKopecks: 0,
      daysMin: 0,
      daysMax: 0,
      deliveryType: 'terminal',
      serviceCode: 'express',
      serviceName: 'Экспресс',
      declaredValueBp: 10_000,
    },
  ];
}

export function rateCard(code: string, name = 'Почта «Быстро»') {
  return { code, name, volumetric_divisor: 5000, created_at: NOW };
}
