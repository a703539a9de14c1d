// #8 defect 6: a request that cannot succeed (nothing could be queried) is a 4xx without Retry-After, so a
// client obeying Retry-After does not retry forever; it used to be a 503. Carrier codes match
// case-insensitively («CDEK» is cdek).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARRIER_CODES } from '../../../core/carriers/types';
import {
  FIRST_TWO_CARRIERS,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../../helpers/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ settings: { ...FIRST_TWO_CARRIERS, 'carriers.russian-post.enabled': 'off' } });
});
afterAll(async () => {
  await t.close();
});

const balance = async (): Promise<number> => (await t.get('/v1/balance')).json.balance;

function expectUnqueryable(r: HttpResult, unavailable: Array<{ carrier: string; reason: string }>): void {
  expect(r.status).toBe(422);
  expect(r.json.error.code).toBe('no_queryable_carrier');
  expect(r.headers['retry-after']).toBeUndefined();
  expect(r.json.unavailable).toEqual(unavailable);
}

describe('422 no_queryable_carrier, nothing deducted', () => {
  it('carriers: []', async () => {
    const before = await balance();
    expectUnqueryable(await t.postRates({ ...SHIPMENT, carriers: [] }), []);
    expect(await balance()).toBe(before);
  });
  it('only unknown codes, each listed once with its reason', async () => {
    const before = await balance();
    expectUnqueryable(await t.postRates({ ...SHIPMENT, carriers: ['dhl', 'ups', 'dhl'] }), [
      { carrier: 'dhl', reason: 'unknown carrier' },
      { carrier: 'ups', reason: 'unknown carrier' },
    ]);
    expect(await balance()).toBe(before);
  });
  it('only a carrier switched off in settings (in any case)', async () => {
    expectUnqueryable(await t.postRates({ ...SHIPMENT, carriers: ['Russian-Post'] }), [
      { carrier: 'russian-post', reason: 'disabled in settings' },
    ]);
  });
  it('unknown and disabled together', async () => {
    expectUnqueryable(await t.postRates({ ...SHIPMENT, carriers: ['russian-post', 'dhl'] }), [
      { carrier: 'dhl', reason: 'unknown carrier' },
      { carrier: 'russian-post', reason: 'disabled in settings' },
    ]);
  });
  it('every carrier switched off and no filter: each one named', async () => {
    await t.service.store.settings.write(
      [{ name: 'carriers.cdek.enabled', value: 'off' }],
      new Date().toISOString(),
    );
    try {
      // Every built-in carrier is named (eight since #11), in code order like every unavailable[].
      expectUnqueryable(
        await t.postRates(SHIPMENT),
        [...CARRIER_CODES].sort().map((carrier) => ({ carrier, reason: 'disabled in settings' })),
      );
    } finally {
      await t.service.store.settings.write(
        [{ name: 'carriers.cdek.enabled', value: 'on' }],
        new Date().toISOString(),
      );
    }
  });
  it('an idempotent retry of it is not stored: it gives the same 422 again', async () => {
    const headers = { 'Idempotency-Key': 'unqueryable-1' };
    expect((await t.postRates({ ...SHIPMENT, carriers: [] }, headers)).status).toBe(422);
    const again = await t.postRates({ ...SHIPMENT, carriers: [] }, headers);
    expect(again.status).toBe(422);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('carrier codes are case-insensitive', () => {
  it('«CDEK» is cdek, once, and is charged like any 200', async () => {
    const before = await balance();
    const r = await t.postRates({ ...SHIPMENT, carriers: ['CDEK', 'cdek', 'Cdek'] });
    expect(r.status).toBe(200);
    expect(r.json.unavailable).toEqual([]);
    expect(r.json.rates.length).toBeGreaterThan(0);
    expect(r.json.rates.every((x: { carrier: string }) => x.carrier === 'cdek')).toBe(true);
    expect(await balance()).toBe(before - 1);
  });
  it('a known code next to an unknown one still answers 200 with the unknown one listed', async () => {
    const r = await t.postRates({ ...SHIPMENT, carriers: ['CDEK', 'DHL'] });
    expect(r.status).toBe(200);
    expect(r.json.unavailable).toEqual([{ carrier: 'DHL', reason: 'unknown carrier' }]);
  });
});
