// A desk's data folder with something of everything migrate-to moves, made the way a desk makes it: the real
// service answering /v1/rates over HTTP (charges, history, idempotency records, carrier health, a low-balance
// notification), the operations (accounts, top-ups, keys, a revoked one, limits, thresholds, settings) and
// the store's own slices for what only carriers write (location cache, 5Post catalogue) or what the desk's
// windows write (rate cards, a desk quote).
import { createAccount, revokeKey, setLimits, setThreshold, topup } from '../../core/operations';
import { createKey } from '../../core/operations';
import { openDataFolder } from '../../core/store/data-folder';
import { PricingRule } from '../../core/contract/pricing';
import type { RateCardRow } from '../../core/ratecards/parse';
import { storedPoint } from './fivepost-points';
import { FIRST_TWO_CARRIERS, movableClock, SHIPMENT, startTestService } from './service';

const HOUR = 3_600_000;
const DESK_CODE_DIGEST = 'c'.repeat(64);
/** The SHA-256 digest of the enrolled device's token: after a move, the device still authenticates with it. */
export const DESK_DEVICE_TOKEN_DIGEST = 'd'.repeat(64);
const wall = { now: () => new Date() };

export interface BuiltDesk {
  dir: string;
  /** Secrets of active keys by account, and of the revoked one. */
  keys: { default: string; acme: string; low: string; revoked: string };
  /** Idempotency keys answered within retention (acme's), with their replies; and the one past retention. */
  replies: Map<string, string>;
  expiredIdempotencyKey: string;
}

export function cardRows(count: number, from = 2): RateCardRow[] {
  return Array.from({ length: count }, (_, i) => ({
    line: from + i,
    from: { kind: 'city', name: 'Москва' },
    to: i % 3 === 0 ? { kind: 'any' } : { kind: 'prefix', prefix: String(100 + (i % 900)) },
    maxWeightGrams: 1000 + (i % 50) * 1000,
    priceKopecks: 25_000 + i,
    daysMin: 1 + (i % 3),
    daysMax: 3 + (i % 3),
    deliveryType: i % 2 === 0 ? 'door' : 'pickup_point',
    serviceCode: i % 4 === 0 ? null : `svc-${i % 4}`,
    serviceName: i % 4 === 0 ? null : `Тариф ${i % 4}`,
    declaredValueBp: i % 200,
  }));
}

export async function buildDesk(dir: string): Promise<BuiltDesk> {
  const clock = movableClock();
  const t = await startTestService({ dir, clock, warmUp: false, settings: { ...FIRST_TWO_CARRIERS } });
  const store = t.service.store;
  const replies = new Map<string, string>();
  const expiredIdempotencyKey = 'order-expired';
  let keys: BuiltDesk['keys'];
  try {
    await createAccount(store, wall, { name: 'acme', balance: 50 });
    await topup(store, wall, { account: 'acme', requests: 1000 });
    await setLimits(store, wall, { account: 'acme', rps: 7.5, burst: 12 });
    await setThreshold(store, wall, { account: 'acme', threshold: 'off' });
    await createAccount(store, wall, { name: 'low', balance: 102 });
    await setThreshold(store, wall, { account: 'low', threshold: '100' });
    await createAccount(store, wall, { name: 'empty', balance: 0 });
    const acme = (await createKey(store, wall, { account: 'acme', name: 'shop' })).secret;
    const low = (await createKey(store, wall, { account: 'low', name: 'warehouse' })).secret;
    const gone = await createKey(store, wall, { account: 'acme', name: 'old integration' });
    await revokeKey(store, wall, { id: gone.id });
    keys = { default: t.key, acme, low, revoked: gone.secret };

    // A reply past retention by the time of the move (a day and a bit ago), then fresh ones.
    clock.advance(-30 * HOUR);
    expectOk(await t.postRates(SHIPMENT, { 'Idempotency-Key': expiredIdempotencyKey }, acme));
    clock.advance(30 * HOUR);
    for (let i = 0; i < 4; i++) {
      const key = `order-${i}`;
      const r = await t.postRates(
        { ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 500 + i * 100 } },
        { 'Idempotency-Key': key },
        acme,
      );
      expectOk(r);
      replies.set(key, r.text);
    }
    for (let i = 0; i < 3; i++) expectOk(await t.postRates(SHIPMENT, {}, low));
    expectOk(await t.postRates(SHIPMENT));

    const now = Date.now();
    await store.locationCache.put({
      namespace: 'cdek@sim',
      want: 'cdek_city_code',
      key: 'тест-город',
      value: '4242',
      nowMs: now,
      ttlMs: 30 * 24 * HOUR,
    });
    await store.locationCache.put({
      namespace: 'cdek@sim',
      want: 'cdek_city_code',
      key: 'неизвестно',
      value: null,
      nowMs: now,
      ttlMs: 24 * HOUR,
    });
    await store.locationCache.put({
      namespace: 'cdek@sim',
      want: 'cdek_city_code',
      key: 'давно',
      value: '1',
      nowMs: now - 10 * 24 * HOUR,
      ttlMs: HOUR,
    });
    await store.pickupCatalogue.replace(
      'fivepost@sim',
      [
        storedPoint('p-1'),
        storedPoint('p-2', { zip: '101000', cityKey: 'москва', region: 'Москва' }),
        storedPoint('p-3', { point: null, problem: 'no rates in the entry' }),
      ],
      now,
    );

    const created = new Date(now).toISOString();
    await store.rateCards.replace(
      { code: 'local-courier', name: 'Городской курьер', volumetric_divisor: 5000, created_at: created },
      cardRows(300),
    );
    await store.rateCards.replace(
      { code: 'freight', name: 'Грузовой', volumetric_divisor: 6000, created_at: created },
      cardRows(40),
    );
    // A card removed again: its id is never given out anew, on the desk or after the move.
    await store.rateCards.replace(
      { code: 'gone', name: 'Удалённый', volumetric_divisor: 4000, created_at: created },
      cardRows(5),
    );
    await store.rateCards.remove('gone');

    await store.settings.write(
      [
        { name: 'rating.deadline_ms', value: '9000' },
        { name: 'ui.language', value: 'en' },
        { name: 'carriers.cdek.client_id', value: 'acme-cdek' },
        // The admin CLI on a desk without a keychain keeps a secret as plain text; the desktop app's
        // keychain seals it (enc:), which no other process can open.
        { name: 'carriers.cdek.client_secret', value: 'plain-cdek-secret' },
        { name: 'carriers.dpd.client_key', value: 'enc:c2VhbGVkIGJ5IGEga2V5Y2hhaW4=' },
        { name: 'server_key.check', value: 'check1:of-the-desk-key' },
      ],
      created,
    );
  } finally {
    await t.stop();
  }

  // The desk's own window writes history rows of its own (source 'desk').
  const folder = openDataFolder(dir);
  try {
    await folder.quotes.insert({
      request_id: 'desk-quote-1',
      source: 'desk',
      created_at: new Date().toISOString(),
      from_city: 'Москва',
      to_city: 'Тула',
      weight_grams: 800,
      cheapest_kopecks: 31_000,
      carriers: 'cdek',
      sandbox: 1,
      shipment_json: JSON.stringify(SHIPMENT),
      result_json: '{"quotes":[]}',
      author: null,
      warehouse: 'Склад Подольск',
    });
    // Company desks (#20): a warehouse, a user with an enrolled device, and an audit entry.
    const now = new Date().toISOString();
    await folder.warehouses.create(
      {
        name: 'Склад Подольск',
        city: 'Подольск',
        postal_code: '142100',
        address: 'ул. Складская, 1',
        default_carriers_json: '["cdek"]',
        box_presets_json: '[]',
      },
      now,
    );
    const user = await folder.users.create('Мария', 'clerk', now);
    if (user === 'taken') throw new Error('desk-builder: user taken');
    await folder.users.putEnrolmentCode(
      user.id,
      DESK_CODE_DIGEST,
      new Date(Date.now() + HOUR).toISOString(),
      now,
    );
    const redeemed = await folder.users.redeemEnrolmentCode(DESK_CODE_DIGEST, now, {
      id: 'dev-desk-1',
      token_digest: DESK_DEVICE_TOKEN_DIGEST,
      name: 'касса 1',
    });
    if (!redeemed.ok) throw new Error(`desk-builder: enrolment ${redeemed.reason}`);
    await folder.audit.append({
      at: now,
      actor_kind: 'cli',
      actor: 'admin',
      action: 'users:add',
      target: 'Мария',
      detail_json: '{"role":"clerk"}',
    });
    // Resale rules (#21): the desk's own for every carrier, and an account's for one carrier.
    const acme = await folder.accounts.byName('acme');
    if (!acme) throw new Error('desk-builder: no account acme');
    await folder.pricing.upsert(PricingRule.parse({ account_id: null, carrier: null, markup_percent: 12.5 }));
    await folder.pricing.upsert(
      PricingRule.parse({
        account_id: acme.id,
        carrier: 'cdek',
        markup_kopecks: 5_000,
        packaging_kopecks: 3_050,
        min_kopecks: 30_000,
        max_kopecks: 200_000,
        rounding: '10',
      }),
    );
  } finally {
    await folder.close();
  }
  return { dir, keys, replies, expiredIdempotencyKey };
}

function expectOk(r: { status: number; text: string }): void {
  if (r.status !== 200) throw new Error(`rates answered ${r.status}: ${r.text}`);
}
