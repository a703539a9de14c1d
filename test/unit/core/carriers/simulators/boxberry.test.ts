// The Boxberry simulator refuses what Boxberry refuses, in Boxberry's own forms (errors inside HTTP 200), and
// writes its answers as Boxberry does: Cyrillic \u-escaped, the city list at a real row size and count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyBoxberryError } from '../../../../../core/carriers/boxberry/errors';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../../../core/carriers/http';
import { boxberryCities } from '../../../../../core/carriers/simulators/boxberry-cities';
import {
  startBoxberrySimulator,
  type BoxberrySimulatorHandle,
} from '../../../../../core/carriers/simulators/boxberry';

let sim: BoxberrySimulatorHandle;
beforeAll(async () => {
  sim = await startBoxberrySimulator({ token: 'T' });
});
afterAll(() => sim.close());

const moscow = '68';
const kazan = () => boxberryCities().find((c) => c.city.name === 'Казань')!.code;

function body(over: Record<string, unknown> = {}) {
  return {
    token: 'T',
    method: 'DeliveryCalculation',
    SenderCityId: moscow,
    RecipientCityId: kazan(),
    OrderSum: 1000,
    BoxSizes: [{ Width: 20, Height: 10, Depth: 30, Weight: 1200 }],
    ...over,
  };
}

async function post(payload: unknown, contentType = 'application/json') {
  const res = await fetch(sim.url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

async function get(query: Record<string, string>) {
  const res = await fetch(`${sim.url}?${new URLSearchParams(query).toString()}`);
  return { status: res.status, json: (await res.json()) as unknown };
}

describe('Boxberry simulator', () => {
  it('prices both variants when DeliveryType is left out, pickup cheaper, decimals in roubles', async () => {
    const { status, json } = await post(body());
    expect(status).toBe(200);
    const costs = (
      json as {
        result: {
          DeliveryCosts: Array<{
            DeliveryTypeId: number;
            TotalPrice: number;
            PriceBase: number;
            PriceService: number;
            DeliveryPeriod: number;
          }>;
        };
      }
    ).result.DeliveryCosts;
    expect(costs.map((c) => c.DeliveryTypeId)).toEqual([1, 2]);
    expect(costs[0]!.TotalPrice).toBeLessThan(costs[1]!.TotalPrice);
    expect(costs[0]!.PriceService).toBe(5); // 0.5 % of 1000 ₽
    expect(costs[0]!.TotalPrice).toBeCloseTo(costs[0]!.PriceBase + 5, 6);
    for (const c of costs) expect(c.DeliveryPeriod).toBeGreaterThanOrEqual(2);
  });

  it('answers only the asked variant, and is deterministic', async () => {
    const a = await post(body({ DeliveryType: 2 }));
    const b = await post(body({ DeliveryType: 2 }));
    expect(a.json).toEqual(b.json);
    expect((a.json as { result: { DeliveryCosts: unknown[] } }).result.DeliveryCosts).toHaveLength(1);
  });

  it.each([
    ['a wrong token', body({ token: 'nope' }), { err: 'Неверный токен (token)' }],
    ['a form-encoded body', 'token=T&method=DeliveryCalculation', { err: 'Не передан токен (token)' }],
    [
      'no recipient city',
      body({ RecipientCityId: undefined }),
      { error: true, message: 'Не указан город получателя (RecipientCityId)' },
    ],
    [
      'an unknown recipient city',
      body({ RecipientCityId: '99999999' }),
      { error: true, message: 'Не найден город получателя' },
    ],
    [
      'an unknown sender city',
      body({ SenderCityId: '99999999' }),
      { error: true, message: 'Не найден город отправителя' },
    ],
    [
      'fractional sizes',
      body({ BoxSizes: [{ Width: 6.6, Height: 6, Depth: 6, Weight: 3700 }] }),
      {
        error: true,
        message: 'Длина, Ширина, Высота и Вес каждого места в заказе должны быть целыми числами',
      },
    ],
    [
      'no boxes',
      body({ BoxSizes: [] }),
      { error: true, message: 'Не указаны вес и габариты мест (BoxSizes)' },
    ],
    [
      'a bad delivery type',
      body({ DeliveryType: 3 }),
      { error: true, message: 'Неверно указан тип доставки (DeliveryType)' },
    ],
    ['another method', body({ method: 'ParselCreate' }), { err: 'Метод ParselCreate не найден' }],
  ])('refuses %s inside HTTP 200', async (_name, payload, answer) => {
    const contentType =
      typeof payload === 'string' ? 'application/x-www-form-urlencoded' : 'application/json';
    expect(await post(payload, contentType)).toEqual({ status: 200, json: answer });
  });

  it('prices nothing over 31 kg or 250 cm of sides, and nothing where it has no points', async () => {
    const heavy = await post(body({ BoxSizes: [{ Width: 20, Height: 10, Depth: 30, Weight: 32_000 }] }));
    expect(heavy.json).toEqual({ error: false, result: { DeliveryCosts: [] } });
    const big = await post(body({ BoxSizes: [{ Width: 100, Height: 100, Depth: 60, Weight: 1000 }] }));
    expect(big.json).toEqual({ error: false, result: { DeliveryCosts: [] } });
    const small = boxberryCities().find((c) => !c.pickupPoint)!;
    const none = await post(body({ RecipientCityId: small.code }));
    expect(none.json).toEqual({ error: false, result: { DeliveryCosts: [] } });
  });

  it('its own triggers, on Zip: error inside 200 and PriceBase 0; other carriers’ triggers are ordinary', async () => {
    expect((await post(body({ Zip: '999922' }))).json).toMatchObject({ error: true });
    const none = (await post(body({ Zip: '999923' }))).json as {
      result: { DeliveryCosts: Array<{ PriceBase: number }> };
    };
    expect(none.result.DeliveryCosts.every((c) => c.PriceBase === 0)).toBe(true);
    const other = (await post(body({ Zip: '999912' }))).json as {
      result: { DeliveryCosts: Array<{ PriceBase: number }> };
    };
    expect(other.result.DeliveryCosts.every((c) => c.PriceBase > 0)).toBe(true);
  });

  it('serves directories as GET with list-shaped errors', async () => {
    const list = (await get({ token: 'T', method: 'ListCitiesFull', CountryCode: '643' })).json as Array<
      Record<string, string>
    >;
    expect(list.find((c) => c.Name === 'Москва')).toMatchObject({
      Code: '68',
      Kladr: '7700000000000',
      CountryCode: '643',
    });
    expect((await get({ token: 'x', method: 'ListCitiesFull' })).json).toEqual([
      { err: 'Неверный токен (token)' },
    ]);
    expect((await get({ token: 'T', method: 'ZipCheck', Zip: '420000' })).json).toEqual([
      { ExpressDelivery: 1, ZoneExpressDelivery: '1', Remoteness: 0 },
    ]);
    expect((await get({ token: 'T', method: 'ZipCheck', Zip: '999000' })).json).toMatchObject([
      { ExpressDelivery: 0 },
    ]);
    expect((await get({ token: 'T', method: 'ZipCheck', Zip: '42' })).json).toMatchObject([
      { err: expect.any(String) },
    ]);
    expect((await get({ token: 'T', method: 'DeliveryCalculation' })).json).toMatchObject({
      err: expect.any(String),
    });
  });

  it('writes ListCitiesFull as Boxberry does: \\u-escaped rows of ~700 bytes, thousands, over the 1 MiB cap', async () => {
    const res = await fetch(`${sim.url}?token=T&method=ListCitiesFull&CountryCode=643`);
    const text = await res.text();
    expect(text).not.toMatch(/[а-яё]/i);
    expect(text).toContain('"Name":"\\u041c\\u043e\\u0441\\u043a\\u0432\\u0430"');
    const rows = JSON.parse(text) as Array<Record<string, string>>;
    expect(rows.length).toBeGreaterThan(2_500);
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_CARRIER_RESPONSE_BYTES);
    expect(Buffer.byteLength(text) / rows.length).toBeGreaterThan(650);
    // The gwinn fixture's 16 fields, in its order.
    expect(Object.keys(rows[0]!)).toEqual([
      'Code',
      'Name',
      'ReceptionLaP',
      'DeliveryLaP',
      'Reception',
      'PickupPoint',
      'CourierDelivery',
      'ForeignReceptionReturns',
      'Terminal',
      'Kladr',
      'Region',
      'CountryCode',
      'UniqName',
      'District',
      'Prefix',
      'CourierReception',
    ]);
    expect(rows.some((r) => r.District !== '' && r.Prefix !== 'г')).toBe(true);
  });

  it('ListCities: the pickup-point towns only, without PickupPoint, well under the cap', async () => {
    const res = await fetch(`${sim.url}?token=T&method=ListCities&CountryCode=643`);
    const text = await res.text();
    const rows = JSON.parse(text) as Array<Record<string, string>>;
    expect(rows.length).toBe(boxberryCities().filter((c) => c.pickupPoint).length);
    expect(rows.every((r) => !('PickupPoint' in r))).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 2);
  });

  it('refuses a sender town without a reception point, in words the adapter reads as no service', async () => {
    const sender = boxberryCities().find((c) => c.pickupPoint && !c.reception)!;
    const answer = { error: true, message: 'Прием отправлений в городе отправителя не осуществляется' };
    expect((await post(body({ SenderCityId: sender.code }))).json).toEqual(answer);
    expect(classifyBoxberryError(answer.message).failure.kind).toBe('no_service');
    // As a recipient it is an ordinary town.
    const asRecipient = (await post(body({ RecipientCityId: sender.code, DeliveryType: 1 }))).json as {
      result: { DeliveryCosts: unknown[] };
    };
    expect(asRecipient.result.DeliveryCosts).toHaveLength(1);
  });

  it("ZipCheck serves a courier town's own indexes, not every index sharing its first three digits", async () => {
    const zip = async (z: string) =>
      ((await get({ token: 'T', method: 'ZipCheck', Zip: z })).json as Array<{ ExpressDelivery: number }>)[0]!
        .ExpressDelivery;
    expect(await zip('420000')).toBe(1); // Казань's main index
    expect(await zip('420050')).toBe(1); // …and its block
    expect(await zip('420900')).toBe(0); // same first three digits, not Казань's
    expect(await zip('125009')).toBe(1); // Москва's range
    expect(await zip('999961')).toBe(1); // a trigger index reaches the calculator
  });

  it('has one path', async () => {
    const res = await fetch(sim.url.replace('/json.php', '/api.php'));
    expect(res.status).toBe(404);
  });
});
