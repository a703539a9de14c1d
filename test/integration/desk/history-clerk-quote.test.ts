// History and export of the clerk's quote (#21): history:search/get show COD, places and the ship date,
// quote:export and history:export write them with each rate's fees, dates, options not priced, customer
// price and the pickup point chosen in the desk; history:curl sends such a quote to /ext/v1/rates. Rows
// stored before #21 (a /v1 shipment, rates with the /v1 fields only) read and export as they did.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PickupPoint } from '../../../core/contract/points';
import { QuoteResponse, type QuoteRate } from '../../../core/contract/quote-ext';
import type { DeskQuoteResult } from '../../../core/desk/contract';
import { roublesText } from '../../../core/contract/spreadsheet';
import { FIRST_TWO_CARRIERS, rawRequest } from '../../helpers/service';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';

const run = promisify(execFile);

const CLERK = {
  from: SHIPMENT.from,
  to: SHIPMENT.to,
  places: [
    { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 2 },
    { weight_grams: 500, length_cm: 20, width_cm: 15, height_cm: 10 },
  ],
  declared_value_kopecks: 300_000,
  cod_kopecks: 250_000,
  ship_date: '2031-03-05',
};

const POINT: PickupPoint = {
  carrier: 'cdek',
  code: 'KZN77',
  kind: 'pvz',
  name: 'На Баумана',
  address: 'Казань, ул. Баумана, 7',
  hours: 'Пн-Вс 10:00-21:00',
  lat: 55.79,
  lon: 49.12,
  distance_km: 0.4,
  max_weight_grams: 30_000,
  max_dimensions_cm: [120, 60, 60],
  cod: true,
  card: true,
};

/** A rate as stored before #21: the /v1 fields only. */
const OLD_RATE = {
  carrier: 'cdek',
  carrier_name: 'СДЭК',
  service_code: '136',
  service_name: 'Посылка склад-склад',
  delivery_type: 'pickup_point',
  price_kopecks: 38_500,
  currency: 'RUB',
  days_min: 2,
  days_max: 3,
  price_type: 'public',
} as const;

const OLD_HEADER = [
  'Дата',
  'Откуда',
  'Куда',
  'Вес, г',
  'Перевозчик',
  'Услуга',
  'Доставка',
  'Цена, ₽',
  'Срок, дн.',
  'Цены',
  'Склад',
  'Автор',
];

let desk: DeskHarness;
let clerk: DeskQuoteResult;
let oldDeskId: number;
let oldApiId: number;

async function insertOld(source: 'desk' | 'api', requestId: string): Promise<number> {
  const shipment = {
    ...SHIPMENT,
    from: { country: 'RU', ...SHIPMENT.from },
    to: { country: 'RU', ...SHIPMENT.to },
  };
  const result =
    source === 'api'
      ? { request_id: requestId, rates: [OLD_RATE], unavailable: [], balance_remaining: 99 }
      : { rates: [OLD_RATE], failures: [] };
  return desk.service.store.quotes.insert({
    request_id: requestId,
    source,
    created_at: '2026-01-10T09:00:00.000Z',
    from_city: 'Москва',
    to_city: 'Казань',
    weight_grams: 1200,
    cheapest_kopecks: OLD_RATE.price_kopecks,
    carriers: 'cdek',
    sandbox: 1,
    shipment_json: JSON.stringify({ ...shipment, declared_value_kopecks: 0 }),
    result_json: JSON.stringify(result),
    author: null,
    warehouse: null,
  });
}

/** The CSV's records, each field unquoted (none of these holds a '";"'). */
function csvRecords(base64: string): string[][] {
  return Buffer.from(base64, 'base64')
    .toString('utf8')
    .slice(1)
    .split('\r\n')
    .slice(0, -1)
    .map((line) => line.split('";"').map((f) => f.replace(/^"|"$/g, '').replace(/""/g, '"')));
}

const money = (k: number | null): string => (k === null ? '' : roublesText(k));

beforeAll(async () => {
  desk = await startDesk(FIRST_TWO_CARRIERS);
  clerk = await desk.ok('quote:run', { quoteKey: 'clerk-1', shipment: CLERK });
  oldDeskId = await insertOld('desk', 'req_olddesk00000000000');
  oldApiId = await insertOld('api', 'req_oldapi000000000000');
});
afterAll(() => desk.close());

describe('history:search and history:get', () => {
  it('a row shows the places (counts expanded), the total weight, COD and the ship date', async () => {
    const rows = await desk.ok('history:search', { limit: 50 });
    const row = rows.find((r) => r.id === clerk.quote_id)!;
    expect(row).toMatchObject({
      places: 3,
      weight_grams: 2900,
      cod_kopecks: 250_000,
      ship_date: '2031-03-05',
    });
    for (const id of [oldDeskId, oldApiId]) {
      expect(rows.find((r) => r.id === id)).toMatchObject({
        places: 1,
        weight_grams: 1200,
        cod_kopecks: 0,
        ship_date: null,
        cheapest_kopecks: 38_500,
      });
    }
  });

  it('history:get returns the QuoteRequest and every rate’s fees, dates and customer price', async () => {
    const q = await desk.ok('history:get', { id: clerk.quote_id });
    expect(q.shipment).toMatchObject({ cod_kopecks: 250_000, ship_date: '2031-03-05' });
    expect(q.shipment.places?.map((p) => p.count)).toEqual([2, 1]);
    expect(q.rates).toEqual(clerk.rates);
    for (const r of q.rates as QuoteRate[]) {
      expect(r.places).toBe(3);
      expect(r).toHaveProperty('breakdown');
      expect(r).toHaveProperty('delivery_date_max');
      expect(r).toHaveProperty('customer_price_kopecks');
    }
  });

  it('an older row reads unchanged: the /v1 shipment, rates with the /v1 fields only', async () => {
    for (const id of [oldDeskId, oldApiId]) {
      const q = await desk.ok('history:get', { id });
      expect(q.shipment.parcel).toEqual(SHIPMENT.parcel);
      expect(q.shipment.places).toBeUndefined();
      expect(q.rates).toEqual([OLD_RATE]);
    }
  });
});

describe('quote:export of a clerk’s quote', () => {
  it('CSV: the twelve columns, then COD, places, ship date, fees, dates, not priced, customer price, the point', async () => {
    const chosen = clerk.rates.find((r) => r.carrier === 'cdek')!;
    const file = await desk.ok('quote:export', {
      id: clerk.quote_id,
      format: 'csv',
      points: [{ carrier: chosen.carrier, service_code: chosen.service_code, point: POINT }],
    });
    const [header, ...rows] = csvRecords(file.base64);
    expect(header!.slice(0, 12)).toEqual(OLD_HEADER);
    expect(header!.slice(12)).toEqual([
      'Наложенный платёж, ₽',
      'Мест',
      'Дата отгрузки',
      'Тариф, ₽',
      'Страховка, ₽',
      'Комиссия за НП, ₽',
      'Доставка с',
      'Доставка по',
      'Не входит в цену',
      'Цена клиенту, ₽',
      'Пункт выдачи',
    ]);
    expect(rows).toHaveLength(clerk.rates.length);
    clerk.rates.forEach((rate, i) => {
      const row = rows[i]!;
      expect(row).toHaveLength(23);
      expect(row[3]).toBe('2900');
      expect(row[7]).toBe(money(rate.price_kopecks));
      expect(row.slice(12, 18)).toEqual([
        '2500,00',
        '3',
        rate.ship_date,
        money(rate.breakdown.base_kopecks),
        money(rate.breakdown.insurance_kopecks),
        money(rate.breakdown.cod_fee_kopecks),
      ]);
      expect(rate.ship_date >= CLERK.ship_date).toBe(true);
      expect(row.slice(18, 20)).toEqual([rate.delivery_date_min ?? '', rate.delivery_date_max ?? '']);
      expect(row[20]).toEqual(
        rate.options_not_priced.length === 0 ? '' : expect.stringMatching(/наложенный платёж|страховка/),
      );
      expect(row[21]).toBe(money(rate.customer_price_kopecks));
      const isChosen = rate.carrier === chosen.carrier && rate.service_code === chosen.service_code;
      expect(row[22]).toBe(isChosen ? 'На Баумана, Казань, ул. Баумана, 7 (KZN77)' : '');
    });
  });

  it('XLSX: the same cells, money as numbers', async () => {
    const chosen = clerk.rates[0]!;
    const file = await desk.ok('quote:export', {
      id: clerk.quote_id,
      format: 'xlsx',
      points: [{ carrier: chosen.carrier, service_code: chosen.service_code, point: POINT }],
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(13).value).toBe('Наложенный платёж, ₽');
    expect(ws.getRow(1).getCell(23).value).toBe('Пункт выдачи');
    const row = ws.getRow(2);
    expect(row.getCell(13).value).toBe(2500);
    expect(row.getCell(13).numFmt).toBe('#,##0.00');
    expect(row.getCell(14).value).toBe(3);
    expect(row.getCell(15).value).toBe(chosen.ship_date);
    expect(row.getCell(23).value).toBe('На Баумана, Казань, ул. Баумана, 7 (KZN77)');
    const customer = row.getCell(22).value;
    expect(customer).toBe(
      chosen.customer_price_kopecks === null ? null : chosen.customer_price_kopecks / 100,
    );
  });

  it('refuses a malformed chosen point (the contract’s PickupPoint)', async () => {
    const e = await desk.fail('quote:export', {
      id: clerk.quote_id,
      format: 'csv',
      points: [{ carrier: 'cdek', service_code: '136', point: { ...POINT, kind: 'shop' } }],
    });
    expect(e.code).toBe('invalid');
  });
});

describe('older rows export unchanged', () => {
  it('a quote stored before #21 is written in the twelve columns, as before', async () => {
    for (const id of [oldDeskId, oldApiId]) {
      const file = await desk.ok('quote:export', { id, format: 'csv' });
      const [header, row] = csvRecords(file.base64);
      expect(header).toEqual(OLD_HEADER);
      expect(row!.slice(1)).toEqual([
        'Москва',
        'Казань',
        '1200',
        'СДЭК',
        'Посылка склад-склад',
        'пункт выдачи',
        '385,00',
        '2–3',
        'ПЕСОЧНИЦА: цены не настоящие',
        '',
        '',
      ]);
    }
  });

  it('beside a clerk’s quote in one file, an older row has no COD, one place and empty clerk cells', async () => {
    const file = await desk.ok('history:export', { format: 'csv', text: 'Казань' });
    const [header, ...rows] = csvRecords(file.base64);
    expect(header).toHaveLength(23);
    const old = rows.filter((r) => r[7] === '385,00');
    expect(old).toHaveLength(2);
    for (const r of old) expect(r.slice(12)).toEqual(['0,00', '1', '', '', '', '', '', '', '', '', '']);
  });
});

describe('history:curl', () => {
  it('sends a clerk’s quote to /ext/v1/rates, and the pasted command works (then replays)', async () => {
    const cmd = await desk.ok('history:curl', { id: clerk.quote_id });
    expect(cmd).toContain(`${desk.service.listener!.url}/ext/v1/rates`);
    expect(cmd).toContain('"cod_kopecks":250000');
    expect(cmd).toContain('Authorization: Bearer $RATEDESK_API_KEY');
    const key = (await desk.ok('keys:create', { account: 'default', name: 'curl ext' })).secret;
    const env = { ...process.env, RATEDESK_API_KEY: key };
    const body = QuoteResponse.parse(JSON.parse((await run('bash', ['-c', cmd], { env })).stdout));
    expect(body.rates.length).toBeGreaterThan(0);
    for (const r of body.rates) expect(r.places).toBe(3);
    const again = QuoteResponse.parse(JSON.parse((await run('bash', ['-c', cmd], { env })).stdout));
    expect(again.request_id).toBe(body.request_id);
    expect(again.balance_remaining).toBe(body.balance_remaining);
  });

  it('a /v1-shaped quote (old or new) still goes to /v1/rates', async () => {
    const cmd = await desk.ok('history:curl', { id: oldDeskId });
    expect(cmd).toContain(`${desk.service.listener!.url}/v1/rates`);
    expect(cmd).not.toContain('cod_kopecks');
  });

  it('an /ext/v1/rates call is in history with its places and COD, and its curl goes back there', async () => {
    const key = (await desk.ok('keys:create', { account: 'default', name: 'ext call' })).secret;
    const r = await rawRequest(desk.port(), {
      method: 'POST',
      path: '/ext/v1/rates',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(CLERK),
    });
    expect(r.status, r.text).toBe(200);
    const row = (await desk.ok('history:search', { limit: 50 })).find(
      (x) => x.source === 'api' && x.places === 3,
    )!;
    expect(row).toMatchObject({ cod_kopecks: 250_000, ship_date: '2031-03-05', weight_grams: 2900 });
    const q = await desk.ok('history:get', { id: row.id });
    expect(q.request_id).toBe(r.json.request_id);
    expect((q.rates[0] as QuoteRate).breakdown).toBeDefined();
    expect(await desk.ok('history:curl', { id: row.id })).toContain('/ext/v1/rates');
  });
});
