// A rate card is a carrier like any other (#10 item 2): in POST /v1/rates and GET /v1/carriers once imported,
// from the desk or from another process (the admin CLI's store), gone once removed, filtered by its code, and
// answering from its rows in sandbox and live mode alike.
import { afterEach, describe, expect, it } from 'vitest';
import { runStore } from '../../../core/operations';
import { openDataFolder } from '../../../core/store/data-folder';
import { FIRST_TWO_CARRIERS, SHIPMENT, startTestService, type TestService } from '../../helpers/service';

const CARD = [
  'from;to;max_weight_grams;price_rub;days_min;days_max;delivery_type;service_code;service_name',
  'Москва;Казань;1000;250;1;2;door;exp;Экспресс',
  'Москва;Казань;5000;"1 234,50";1;2;door;exp;Экспресс',
  'Москва;*;5000;900;2;4;door;exp;Экспресс',
  '*;*;30000;3000;3;6;pickup_point;;',
].join('\n');

const clock = { now: () => new Date() };
let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface WireRate {
  carrier: string;
  carrier_name: string;
  service_code: string;
  price_kopecks: number;
}
const cardRates = (json: { rates: WireRate[] }): WireRate[] =>
  json.rates.filter((r) => r.carrier === 'courier');

describe('a rate card imported through the desk', () => {
  it('answers POST /v1/rates beside the built-in carriers and is listed by GET /v1/carriers', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS });
    const imported = await t.service.desk.dispatch('ratecards:import', {
      code: 'courier',
      name: 'Курьер Плюс',
      csv: CARD,
    });
    expect(imported.ok).toBe(true);

    // SHIPMENT: Москва → Казань, 1,2 kg in 30×20×10 (1,2 kg volumetric at 5000): the 5 kg band of the city row.
    const r = await t.postRates(SHIPMENT);
    expect(r.status).toBe(200);
    expect(cardRates(r.json)).toEqual([
      expect.objectContaining({
        carrier: 'courier',
        carrier_name: 'Курьер Плюс',
        service_code: 'courier:exp',
        service_name: 'Экспресс',
        delivery_type: 'door',
        price_kopecks: 123450,
        days_min: 1,
        days_max: 2,
      }),
      expect.objectContaining({ service_code: 'courier:pickup_point', price_kopecks: 300000 }),
    ]);
    // The built-in carriers still answer (sandbox simulators), so the card joined them rather than replaced.
    expect(r.json.rates.some((x: WireRate) => x.carrier === 'cdek')).toBe(true);
    expect(r.json.rates.some((x: WireRate) => x.carrier === 'russian-post')).toBe(true);

    const carriers = await t.get('/v1/carriers');
    expect(carriers.status).toBe(200);
    expect(carriers.json.carriers).toEqual([
      { code: 'cdek', name: 'СДЭК', status: 'available' },
      { code: 'russian-post', name: 'Почта России', status: 'available' },
      { code: 'courier', name: 'Курьер Плюс', status: 'available' },
    ]);
  });

  it('is asked for by its code (any case), alone; a route it does not serve is no_service', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS });
    await t.service.desk.dispatch('ratecards:import', { code: 'courier', name: 'Курьер', csv: CARD });
    const only = await t.postRates({ ...SHIPMENT, carriers: ['COURIER'] });
    expect(only.status).toBe(200);
    expect(only.json.rates.map((x: WireRate) => x.carrier)).toEqual(['courier', 'courier']);
    const heavy = await t.postRates({
      ...SHIPMENT,
      parcel: { ...SHIPMENT.parcel, weight_grams: 40_000 },
      carriers: ['courier'],
    });
    // Nothing answered: the /v1 error for "every carrier asked gave no rate", naming why.
    expect(heavy.status).toBe(503);
    expect(heavy.json.unavailable).toEqual([
      { carrier: 'courier', reason: expect.stringMatching(/^no service/) },
    ]);
  });
});

describe('a rate card written by another process (the admin CLI)', () => {
  it('appears on the next request, is replaced whole, and is gone after removal', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS });
    const cli = openDataFolder(t.dir, { clock });
    try {
      expect((await t.get('/v1/carriers')).json.carriers.map((c: { code: string }) => c.code)).toEqual([
        'cdek',
        'russian-post',
      ]);
      await runStore({ store: cli, clock }, 'ratecards:import', {
        code: 'courier',
        name: 'Курьер',
        csv: CARD,
      });
      expect((await t.get('/v1/carriers')).json.carriers).toContainEqual({
        code: 'courier',
        name: 'Курьер',
        status: 'unknown',
      });
      expect(cardRates((await t.postRates(SHIPMENT)).json).map((x) => x.price_kopecks)).toEqual([
        123450, 300000,
      ]);

      await runStore({ store: cli, clock }, 'ratecards:import', {
        code: 'courier',
        name: 'Курьер 2025',
        csv: 'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type\n*,*,10000,199,1,1,door\n',
      });
      // The same shipment as before the re-import: the rate cache (on by default) must not answer with the
      // old card's price, since the new version is a new adapter.
      const replaced = cardRates((await t.postRates(SHIPMENT)).json);
      expect(replaced.map((x) => [x.carrier_name, x.service_code, x.price_kopecks])).toEqual([
        ['Курьер 2025', 'courier:door', 19900],
      ]);

      await runStore({ store: cli, clock }, 'ratecards:remove', { code: 'courier' });
      expect(cardRates((await t.postRates(SHIPMENT)).json)).toEqual([]);
      const named = await t.postRates({ ...SHIPMENT, carriers: ['courier', 'cdek'] });
      expect(named.json.unavailable).toContainEqual({ carrier: 'courier', reason: 'unknown carrier' });
      expect((await t.get('/v1/carriers')).json.carriers.map((c: { code: string }) => c.code)).toEqual([
        'cdek',
        'russian-post',
      ]);
    } finally {
      await cli.close();
    }
  });
});

describe('sandbox and live mode', () => {
  it('live mode: the card answers from its rows and the answer is not marked sandbox', async () => {
    t = await startTestService({
      settings: {
        ...FIRST_TWO_CARRIERS,
        ...FIRST_TWO_CARRIERS,
        sandbox: 'off',
        'carriers.cdek.enabled': 'off',
        'carriers.russian-post.enabled': 'off',
      },
    });
    await t.service.desk.dispatch('ratecards:import', { code: 'courier', name: 'Курьер', csv: CARD });
    const r = await t.postRates(SHIPMENT);
    expect(r.status).toBe(200);
    expect(r.json.rates.map((x: WireRate) => x.price_kopecks)).toEqual([123450, 300000]);
    expect(r.headers['x-ratedesk-sandbox']).toBeUndefined();
  });

  it('sandbox mode: the same prices (a card is never faked); the answer as a whole is marked sandbox', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS });
    await t.service.desk.dispatch('ratecards:import', { code: 'courier', name: 'Курьер', csv: CARD });
    const r = await t.postRates({ ...SHIPMENT, carriers: ['courier'] });
    expect(r.json.rates.map((x: WireRate) => x.price_kopecks)).toEqual([123450, 300000]);
    expect(r.headers['x-ratedesk-sandbox']).toBe('true');
  });
});

describe('desk operations', () => {
  it('quote:run includes the card; a refused import lists its lines; list and remove', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS });
    const desk = t.service.desk;
    const refused = await desk.dispatch('ratecards:import', {
      code: 'courier',
      name: 'Курьер',
      csv: 'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type\n*,*,0,1,1,1,door\n',
    });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'invalid',
        message:
          'The rate card was refused and nothing was imported: 1 bad line.\n' +
          'line 2: max_weight_grams: "0" is not a whole number of grams from 1 to 1000000',
      },
    });
    expect(
      await desk.dispatch('ratecards:import', { code: 'courier', name: 'Курьер', csv: CARD }),
    ).toMatchObject({
      ok: true,
    });
    const quote = await desk.dispatch('quote:run', { quoteKey: 'q', shipment: SHIPMENT });
    expect(quote.ok).toBe(true);
    const rates = (quote as { value: { rates: WireRate[] } }).value.rates;
    expect(rates.filter((x) => x.carrier === 'courier').map((x) => x.price_kopecks)).toEqual([
      123450, 300000,
    ]);
    expect(await desk.dispatch('ratecards:list', undefined)).toMatchObject({
      ok: true,
      value: [{ code: 'courier', rows: 4, status: 'available' }],
    });
    expect(await desk.dispatch('ratecards:remove', { code: 'courier' })).toEqual({
      ok: true,
      value: { code: 'courier', name: 'Курьер' },
    });
  });
});
