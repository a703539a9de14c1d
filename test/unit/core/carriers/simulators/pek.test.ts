// The PEK simulator refuses what PEK refuses: wrong Basic auth, the old protocol without `types`, missing
// fields (400 "Ошибка валидации" with fields), unknown warehouses (error inside HTTP 200), cargo over a
// department's limits (the product's hasError), GET and unknown paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PEK_SIM_API_KEY,
  PEK_SIM_LOGIN,
  startPekSimulator,
} from '../../../../../core/carriers/simulators/pek';
import type { SimulatorHandle } from '../../../../../core/carriers/simulators/handle';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startPekSimulator();
});
afterAll(() => sim.close());

const AUTH = `Basic ${Buffer.from(`${PEK_SIM_LOGIN}:${PEK_SIM_API_KEY}`).toString('base64')}`;

async function post(path: string, body: unknown, auth = AUTH) {
  const res = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json; charset=utf-8' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON shapes
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

async function warehouse(address: string): Promise<string> {
  return (await post('/branches/findzonebyaddress/', { address })).json.mainWarehouseId as string;
}

const CARGO = { length: 0.3, width: 0.2, height: 0.15, volume: 0.01, weight: 1.2 };

describe('PEK simulator', () => {
  it('checks Basic auth and the method and path', async () => {
    expect((await post('/branches/findzonebyaddress/', { address: 'Москва' }, 'Basic eDp5')).status).toBe(
      401,
    );
    expect((await fetch(`${sim.url}/calculator/calculateprice/`)).status).toBe(405);
    expect((await post('/calculator/calculateprice', {})).status).toBe(404); // no trailing slash
  });

  it('findzonebyaddress: a warehouse GUID for a served town, an empty answer outside the zone', async () => {
    const kazan = await post('/branches/findzonebyaddress/', {
      address: '420000, Республика Татарстан, Казань',
    });
    expect(kazan.json.mainWarehouseId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect((await post('/branches/findzonebyaddress/', { address: 'Нигдевск' })).json).toEqual({});
    expect((await post('/branches/findzonebyaddress/', {})).status).toBe(400);
  });

  it('refuses the 2023 protocol (transportingTypes without types) and missing fields with 400 and fields', async () => {
    const from = await warehouse('101000, Москва');
    const old = await post('/calculator/calculateprice/', {
      transportingTypes: [1],
      senderWarehouseId: from,
      receiverWarehouseId: from,
      cargos: [CARGO],
    });
    expect(old.status).toBe(400);
    expect(old.json.error.title).toBe('Ошибка валидации');
    expect(old.json.error.fields[0].key).toBe('types');
    const noWeight = await post('/calculator/calculateprice/', {
      types: [3],
      senderWarehouseId: from,
      receiverWarehouseId: from,
      cargos: [{ length: 1 }],
    });
    expect(noWeight.status).toBe(400);
    expect((await post('/calculator/calculateprice/', '{oops')).status).toBe(400);
  });

  it('an unknown warehouse is an error inside HTTP 200', async () => {
    const r = await post('/calculator/calculateprice/', {
      types: [3],
      senderWarehouseId: '00000000-0000-0000-0000-000000000000',
      receiverWarehouseId: '00000000-0000-0000-0000-000000000000',
      cargos: [CARGO],
    });
    expect(r.status).toBe(200);
    expect(r.json.error.message).toBe('Не найден склад отправителя');
  });

  it('prices per product; refuses per product what is over its limits; Express Авто cannot be calculated', async () => {
    const from = await warehouse('101000, Москва');
    const to = await warehouse('630000, Новосибирская область, Новосибирск');
    const pallet = { length: 3, width: 3, height: 3, volume: 27, weight: 900 };
    const r = await post('/calculator/calculateprice/', {
      types: [3, 1, 12, 5],
      senderWarehouseId: from,
      receiverWarehouseId: to,
      cargos: [pallet],
    });
    expect(r.status).toBe(200);
    const byType = Object.fromEntries(r.json.transfers.map((t: { type: number }) => [t.type, t]));
    expect(byType[3].hasError).toBe(false);
    expect(byType[3].costTotal).toBeGreaterThan(0);
    expect(byType[1].hasError).toBe(true);
    expect(byType[12].hasError).toBe(true);
    expect(byType[5].errorMessage).toContain('Express Авто');
    const heavier = await post('/calculator/calculateprice/', {
      types: [3],
      senderWarehouseId: from,
      receiverWarehouseId: to,
      cargos: [{ ...pallet, weight: 6000 }],
    });
    expect(heavier.json.transfers[0].hasError).toBe(true);
  });

  it('is deterministic and heavy cargo is cheap per kg', async () => {
    const from = await warehouse('101000, Москва');
    const to = await warehouse('420000, Казань');
    const body = (weight: number) => ({
      types: [3],
      senderWarehouseId: from,
      receiverWarehouseId: to,
      cargos: [{ ...CARGO, weight }],
    });
    const a = (await post('/calculator/calculateprice/', body(1.2))).json.transfers[0].costTotal;
    expect((await post('/calculator/calculateprice/', body(1.2))).json.transfers[0].costTotal).toBe(a);
    const heavy = (await post('/calculator/calculateprice/', body(500))).json.transfers[0].costTotal;
    expect(heavy / 500).toBeLessThan(a / 1.2);
  });
});
