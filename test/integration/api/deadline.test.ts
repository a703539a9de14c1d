import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_TRIGGERS, SANDBOX_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import { FIRST_TWO_CARRIERS, SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('carrier deadlines', () => {
  it('a hung carrier costs exactly its timeout; the other carrier still answers', async () => {
    t = await startTestService({
      settings: { ...FIRST_TWO_CARRIERS, 'rating.carrier_timeout_ms': '600', 'rating.deadline_ms': '2000' },
    });
    const started = performance.now();
    const r = await t.postRates({
      ...SHIPMENT,
      to: { city: 'Казань', postal_code: CARRIER_TRIGGERS.cdek.timeout },
    });
    const took = performance.now() - started;
    expect(r.status).toBe(200);
    expect(r.json.unavailable).toEqual([{ carrier: 'cdek', reason: 'timeout' }]);
    expect(r.json.rates.every((x: { carrier: string }) => x.carrier === 'russian-post')).toBe(true);
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(1500);
  });

  it('all carriers hung: 503 after the overall deadline, nothing deducted', async () => {
    t = await startTestService({
      settings: { ...FIRST_TWO_CARRIERS, 'rating.carrier_timeout_ms': '5000', 'rating.deadline_ms': '700' },
    });
    const before = (await t.get('/v1/balance')).json.balance;
    const started = performance.now();
    const r = await t.postRates({
      ...SHIPMENT,
      to: { city: 'Казань', postal_code: SANDBOX_TRIGGERS.allTimeout },
    });
    const took = performance.now() - started;
    expect(r.status).toBe(503);
    expect(r.json.unavailable).toEqual([
      { carrier: 'cdek', reason: 'timeout' },
      { carrier: 'russian-post', reason: 'timeout' },
    ]);
    expect(took).toBeGreaterThanOrEqual(690);
    expect(took).toBeLessThan(1700);
    expect((await t.get('/v1/balance')).json.balance).toBe(before);
  });

  it('the 999990 trigger takes the per-carrier timeout when it is shorter than the deadline (#8 defect 9)', async () => {
    t = await startTestService({
      settings: { ...FIRST_TWO_CARRIERS, 'rating.carrier_timeout_ms': '600', 'rating.deadline_ms': '3000' },
    });
    const started = performance.now();
    const r = await t.postRates({
      ...SHIPMENT,
      to: { city: 'Казань', postal_code: SANDBOX_TRIGGERS.allTimeout },
    });
    const took = performance.now() - started;
    expect(r.status).toBe(503);
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(2_000);
  });

  it('carrier errors become unavailable reasons, never a 500; repeated failures mark the carrier unavailable', async () => {
    t = await startTestService({ settings: { ...FIRST_TWO_CARRIERS, 'rating.breaker_cooldown_ms': '1000' } });
    const ship = { ...SHIPMENT, to: { city: 'Казань', postal_code: CARRIER_TRIGGERS.cdek.error } };
    for (let i = 0; i < 3; i++) {
      const r = await t.postRates(ship);
      expect(r.status).toBe(200);
      expect(r.json.unavailable[0].carrier).toBe('cdek');
      expect(r.json.unavailable[0].reason).toMatch(/^carrier error: /);
    }
    const carriers = await t.get('/v1/carriers');
    expect(carriers.json.carriers).toEqual([
      { code: 'cdek', name: 'СДЭК', status: 'unavailable' },
      { code: 'russian-post', name: 'Почта России', status: 'available' },
    ]);
    // Its circuit breaker is open (docs/carriers.md): skipped without a call until the cool-down ends, then
    // the next answer makes it available again.
    const skipped = await t.postRates(SHIPMENT);
    expect(skipped.json.unavailable).toEqual([
      { carrier: 'cdek', reason: 'temporarily skipped after repeated failures' },
    ]);
    expect((await t.get('/v1/carriers')).json.carriers[0].status).toBe('unavailable');
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await t.postRates(SHIPMENT)).json.unavailable).toEqual([]);
    expect((await t.get('/v1/carriers')).json.carriers[0].status).toBe('available');
  });

  it('carriers start unknown', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS });
    const r = await t.get('/v1/carriers');
    expect(r.json.carriers.map((c: { status: string }) => c.status)).toEqual(['unknown', 'unknown']);
  });
});

describe('live mode credentials', () => {
  it('a secret encrypted by the desktop app counts as not configured where it cannot be decrypted', async () => {
    t = await startTestService({
      settings: {
        ...FIRST_TWO_CARRIERS,
        ...FIRST_TWO_CARRIERS,
        sandbox: 'off',
        'carriers.russian-post.enabled': 'off',
        'carriers.cdek.client_id': 'account',
        'carriers.cdek.client_secret': 'enc:AAECAwQ=',
      },
    });
    const r = await t.postRates(SHIPMENT);
    expect(r.status).toBe(503);
    expect(r.json.unavailable).toEqual([
      { carrier: 'cdek', reason: expect.stringMatching(/^not configured/) },
    ]);
    expect(r.headers['x-ratedesk-sandbox']).toBeUndefined();
  });
});
