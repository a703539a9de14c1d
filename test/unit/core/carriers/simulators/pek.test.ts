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
      address: 'Россия, 420000, Республика Татарстан, Казань',
    });
    expect(kazan.json.mainWarehouseId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect((await post('/branches/findzonebyaddress/', { address: 'Россия, Нигдевск' })).json).toEqual({});
    expect((await post('/branches/findzonebyaddress/', {})).status).toBe(400);
  });

  it('refuses the 2023 protocol (transportingTypes without types) and missing fields with 400 and fields', async () => {
    const from = await warehouse('Россия, 101000, Москва');
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
    const from = await warehouse('Россия, 101000, Москва');
    const to = await warehouse('Россия, 630000, Новосибирская область, Новосибирск');
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
    const from = await warehouse('Россия, 101000, Москва');
    const to = await warehouse('Россия, 420000, Казань');
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

describe('PEK simulator: what PEK documents, not what is convenient (audit, "simulators accept")', () => {
  it('findzonebyaddress wants PEK’s order: a country first, no postal code first (P5)', async () => {
    for (const address of [
      '420000, Республика Татарстан, Казань',
      'Казань',
      'Россия, Татарстан, 420000, Казань',
    ]) {
      const r = await post('/branches/findzonebyaddress/', { address });
      expect(r.status, address).toBe(400);
      expect(r.json.error.title).toBe('Ошибка валидации');
      expect(r.json.error.fields[0].key).toBe('address');
    }
    // Well-formed, in a region that is not the town's: found nowhere, PEK's empty answer.
    expect(
      (await post('/branches/findzonebyaddress/', { address: 'Россия, Калужская область, Казань' })).json,
    ).toEqual({});
  });

  it('a door address outside the zones is a root hasError with a route message (P9)', async () => {
    const from = await warehouse('Россия, 101000, Москва');
    const r = await post('/calculator/calculateprice/', {
      types: [3],
      senderWarehouseId: from,
      isPickUp: false,
      isDelivery: true,
      delivery: { address: 'Россия, Владимирская область, Кольчугино' },
      cargos: [CARGO],
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      hasError: true,
      errorMessage: expect.stringContaining('зоны обслуживания'),
    });
    expect(r.json.transfers).toEqual([]);
  });

  it('a malformed door address is PEK’s 400 on delivery.address', async () => {
    const from = await warehouse('Россия, 101000, Москва');
    const r = await post('/calculator/calculateprice/', {
      types: [3],
      senderWarehouseId: from,
      isDelivery: true,
      delivery: { address: '420000, Казань' },
      cargos: [CARGO],
    });
    expect([r.status, r.json.error.fields[0].key]).toEqual([400, 'delivery.address']);
  });

  it('GET /typesOfDelivery/all/ lists the products, behind Basic auth; other methods stay POST', async () => {
    const res = await fetch(`${sim.url}/typesOfDelivery/all/`, { headers: { authorization: AUTH } });
    expect(res.status).toBe(200);
    const types = (await res.json()) as Array<{ type: number; name: string; contractIsRequired: boolean }>;
    expect(types.map((t) => t.type).sort((a, b) => a - b)).toEqual([1, 3, 5, 12]);
    expect(
      (await fetch(`${sim.url}/typesOfDelivery/all/`, { headers: { authorization: 'Basic eDp5' } })).status,
    ).toBe(401);
    expect((await post('/typesOfDelivery/all/', {})).status).toBe(405);
  });
});

describe('PEK simulator: modelled options', () => {
  it('streetRequired: a town-only door address is refused on delivery.address; one with a street is priced', async () => {
    const strict = await startPekSimulator({ streetRequired: true });
    try {
      const call = (address: string) =>
        fetch(`${strict.url}/calculator/calculateprice/`, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({
            types: [3],
            senderWarehouseId: '',
            isPickUp: true,
            pickup: { address: 'Россия, Москва, ул. Складочная, 1' },
            isDelivery: true,
            delivery: { address },
            cargos: [CARGO],
          }),
        }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, never> }));
      const town = await call('Россия, 420000, Республика Татарстан, Казань');
      expect(town.status).toBe(400);
      expect(JSON.stringify(town.json)).toContain('delivery.address');
      expect((await call('Россия, Республика Татарстан, Казань, ул. Баумана, 1')).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('requestsPerMinute: over it, 429 in PEK’s error envelope; other accounts are not counted', async () => {
    const limited = await startPekSimulator({ requestsPerMinute: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${limited.url}/typesOfDelivery/all/`, { headers: { authorization: AUTH } });
        statuses.push(r.status);
        if (r.status === 429)
          expect(((await r.json()) as { error: { status: number } }).error.status).toBe(429);
        else await r.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
