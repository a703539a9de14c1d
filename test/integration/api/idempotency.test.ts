import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../../core/operations';
import type { SqliteStore } from '../../../core/store';
import { SANDBOX_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import { movableClock, SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const ledgerCount = (s: TestService): number =>
  (
    (s.service.store as SqliteStore).db
      .prepare("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'rates'")
      .get() as { n: number }
  ).n;

describe('Idempotency-Key on POST /v1/rates', () => {
  it('replays byte for byte, with the original request_id and Idempotent-Replayed, without a second deduction', async () => {
    t = await startTestService();
    const first = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'order-1' });
    expect(first.status).toBe(200);
    const second = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'order-1' });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['x-request-id']).toBe(first.json.request_id);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(ledgerCount(t)).toBe(1);
    // The same shipment written differently (key order, explicit defaults) is the same request.
    const reordered = {
      parcel: SHIPMENT.parcel,
      to: { ...SHIPMENT.to, country: 'RU' },
      from: SHIPMENT.from,
      declared_value_kopecks: 0,
    };
    const third = await t.postRates(reordered, { 'Idempotency-Key': '"order-1"' });
    expect(third.text).toBe(first.text);
    // `carriers: null` means what leaving it out means.
    const fourth = await t.postRates({ ...SHIPMENT, carriers: null }, { 'Idempotency-Key': 'order-1' });
    expect(fourth.text).toBe(first.text);
    expect(ledgerCount(t)).toBe(1);
  });

  it('the same carriers in another order, case or repeated are the same request; a full list is not "no list"', async () => {
    t = await startTestService();
    const key = { 'Idempotency-Key': 'order-2' };
    const first = await t.postRates({ ...SHIPMENT, carriers: ['cdek', 'russian-post'] }, key);
    expect(first.status).toBe(200);
    const same = await t.postRates({ ...SHIPMENT, carriers: ['Russian-Post', 'CDEK', 'cdek'] }, key);
    expect(same.text).toBe(first.text);
    expect(same.headers['idempotent-replayed']).toBe('true');
    const noList = await t.postRates(SHIPMENT, key);
    expect(noList.status).toBe(422);
    expect(ledgerCount(t)).toBe(1);
  });

  it('422 idempotency_key_reused for a different body, with no side effects', async () => {
    t = await startTestService();
    await t.postRates(SHIPMENT, { 'Idempotency-Key': 'k' });
    const r = await t.postRates({ ...SHIPMENT, declared_value_kopecks: 100 }, { 'Idempotency-Key': 'k' });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('idempotency_key_reused');
    expect(ledgerCount(t)).toBe(1);
  });

  it('parallel requests with one key execute once: one 200 (and replays) or 409 in flight, one deduction', async () => {
    t = await startTestService({ simulatorLatencyMs: 150 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t!.postRates(SHIPMENT, { 'Idempotency-Key': 'race' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const conflicts = results.filter((r) => r.status === 409);
    for (const c of conflicts) {
      expect(c.json.error.code).toBe('idempotency_key_in_use');
      expect(c.headers['retry-after']).toBe('1');
    }
    expect(ledgerCount(t)).toBe(1);
    const after = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'race' });
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(ledgerCount(t)).toBe(1);
  });

  it('many keys racing: each executes exactly once', async () => {
    t = await startTestService({ simulatorLatencyMs: 50 });
    const keys = Array.from({ length: 20 }, (_, i) => `key-${i}`);
    const all = await Promise.all(
      keys.flatMap((k) => Array.from({ length: 5 }, () => t!.postRates(SHIPMENT, { 'Idempotency-Key': k }))),
    );
    expect(all.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(ledgerCount(t)).toBe(20);
  });

  it('is scoped per account: the same key on two accounts executes twice', async () => {
    t = await startTestService();
    await createAccount(t.service.store, { now: () => new Date() }, { name: 'other', balance: 10 });
    const other = await t.newKey('other');
    const a = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'shared' });
    const b = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'shared' }, other);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json.request_id).not.toBe(a.json.request_id);
    expect(ledgerCount(t)).toBe(2);
  });

  it('errors before execution are not stored: 401 then 200 under the same key', async () => {
    t = await startTestService();
    const bad = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'pre' }, 'rdk_wrong');
    expect(bad.status).toBe(401);
    const good = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'pre' });
    expect(good.status).toBe(200);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a 503 is not stored: the retry executes again', async () => {
    t = await startTestService();
    const dead = { ...SHIPMENT, to: { city: 'Казань', postal_code: SANDBOX_TRIGGERS.allNoService } };
    const r1 = await t.postRates(dead, { 'Idempotency-Key': 'x503' });
    const r2 = await t.postRates(dead, { 'Idempotency-Key': 'x503' });
    expect(r1.status).toBe(503);
    expect(r2.status).toBe(503);
    expect(r2.json.error.request_id).not.toBe(r1.json.error.request_id);
    expect(ledgerCount(t)).toBe(0);
  });

  it('records survive a restart and expire after 24 h', async () => {
    const clock = movableClock();
    t = await startTestService({ clock });
    const first = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'durable' });
    await t.stop();
    const t2 = await startTestService({ dir: t.dir, clock });
    t = t2;
    const replay = await t2.postRates(SHIPMENT, { 'Idempotency-Key': 'durable' });
    expect(replay.text).toBe(first.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(ledgerCount(t2)).toBe(1);
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const fresh = await t2.postRates(SHIPMENT, { 'Idempotency-Key': 'durable' });
    expect(fresh.status).toBe(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(ledgerCount(t2)).toBe(2);
  });
});
