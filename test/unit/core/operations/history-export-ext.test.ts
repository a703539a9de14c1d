// The clerk's columns of the exports (#21): how a rate's fees, dates, options not priced, customer price and
// chosen point are written, in both languages; and that a file of older rows keeps the twelve columns.
import { describe, expect, it } from 'vitest';
import type { PickupPoint } from '../../../../core/contract/points';
import type { QuoteRate } from '../../../../core/contract/quote-ext';
import type { Rate } from '../../../../core/contract/v1';
import { exportRows, historyCsv, historyXlsx } from '../../../../core/operations/history-export';
import { clerkCells, isClerkQuote } from '../../../../core/operations/history-export-ext';
import type { QuoteRow } from '../../../../core/store/port';
import ExcelJS from 'exceljs';

const V1_RATE: Rate = {
  carrier: 'cdek',
  carrier_name: 'СДЭК',
  service_code: '136',
  service_name: 'Посылка склад-склад',
  delivery_type: 'pickup_point',
  price_kopecks: 108_250,
  currency: 'RUB',
  days_min: 2,
  days_max: 4,
  price_type: 'public',
};

const RATE: QuoteRate = {
  ...V1_RATE,
  breakdown: { base_kopecks: 52_000, insurance_kopecks: 11_250, cod_fee_kopecks: 45_000 },
  options_not_priced: [
    { option: 'cod', reason: 'not_quoted', detail: 'COD fee added at the counter' },
    { option: 'insurance', reason: 'not_offered' },
  ],
  insured_value_kopecks: 1_500_000,
  places: 3,
  days_kind: 'working',
  ship_date: '2026-12-04',
  delivery_date_min: '2026-12-08',
  delivery_date_max: '2026-12-10',
  customer_price_kopecks: 125_000,
};

const SHIPMENT = {
  from: { country: 'RU' as const, city: 'Москва' },
  to: { country: 'RU' as const, city: 'Казань' },
  places: [
    { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 2 },
    { weight_grams: 4000, length_cm: 40, width_cm: 30, height_cm: 30, count: 1 },
  ],
  declared_value_kopecks: 1_500_000,
  cod_kopecks: 1_500_000,
  ship_date: '2026-12-03',
};

const POINT: PickupPoint = {
  carrier: 'cdek',
  code: 'KZN1',
  kind: 'postamat',
  name: 'Постамат',
  address: 'Казань, ул. Пушкина, 1',
  hours: 'круглосуточно',
  lat: null,
  lon: null,
  distance_km: null,
  max_weight_grams: null,
  max_dimensions_cm: null,
  cod: false,
  card: true,
};

function row(id: number, shipment: object, rates: Array<Rate | QuoteRate>): QuoteRow {
  return {
    id,
    request_id: `req_${id}`,
    source: 'desk',
    created_at: '2026-12-03T05:06:07.000Z',
    from_city: 'Москва',
    to_city: 'Казань',
    weight_grams: 6400,
    cheapest_kopecks: rates[0]?.price_kopecks ?? null,
    carriers: 'cdek',
    sandbox: 0,
    shipment_json: JSON.stringify(shipment),
    result_json: JSON.stringify({ rates, failures: [] }),
    author: null,
    warehouse: null,
  };
}

const V1_SHIPMENT = {
  from: SHIPMENT.from,
  to: SHIPMENT.to,
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declared_value_kopecks: 0,
  cod_kopecks: 0,
};

describe('clerkCells', () => {
  it('writes the fees, dates, options not priced (in the file’s language) and the customer price', () => {
    const ru = clerkCells(SHIPMENT, RATE, 'ru', POINT);
    expect(ru).toEqual({
      codKopecks: 1_500_000,
      places: 3,
      // The rate's own day, moved past the carrier's cut-off: not the one asked.
      shipDate: '2026-12-04',
      baseKopecks: 52_000,
      insuranceKopecks: 11_250,
      codFeeKopecks: 45_000,
      deliveryFrom: '2026-12-08',
      deliveryTo: '2026-12-10',
      notPriced:
        'наложенный платёж: перевозчик не считает, добавит при оформлении; страховка: услуга не принимает',
      customerKopecks: 125_000,
      point: 'Постамат, Казань, ул. Пушкина, 1 (KZN1)',
    });
    expect(clerkCells(SHIPMENT, RATE, 'en', undefined).notPriced).toBe(
      'cash on delivery: not quoted; the carrier adds its fee (COD fee added at the counter); ' +
        'insurance: not offered on this service',
    );
  });

  it('a /v1 rate of a /v1 shipment: no COD, one place, the rest empty', () => {
    expect(clerkCells(V1_SHIPMENT, V1_RATE, 'ru', undefined)).toMatchObject({
      codKopecks: 0,
      places: 1,
      shipDate: '',
      baseKopecks: null,
      deliveryFrom: '',
      notPriced: '',
      customerKopecks: null,
      point: '',
    });
    expect(isClerkQuote(V1_SHIPMENT, [V1_RATE])).toBe(false);
    expect(isClerkQuote(null, [V1_RATE])).toBe(false);
    expect(isClerkQuote(V1_SHIPMENT, [RATE])).toBe(true);
    expect(isClerkQuote({ ...V1_SHIPMENT, cod_kopecks: 1 }, [V1_RATE])).toBe(true);
  });
});

describe('the exports with the clerk’s columns', () => {
  it('CSV: a clerk’s quote adds eleven columns after the twelve; the point goes in its rate’s row only', () => {
    const other = { ...RATE, service_code: '137', price_kopecks: 120_000 };
    const rows = exportRows([row(1, SHIPMENT, [RATE, other])], 'ru', [
      { carrier: 'cdek', service_code: '136', point: POINT },
    ]);
    const lines = historyCsv(rows, 'ru').slice(1).split('\r\n');
    expect(lines[0]).toMatch(/;"Автор";"Наложенный платёж, ₽";"Мест";.*;"Цена клиенту, ₽";"Пункт выдачи"$/);
    expect(lines[1]).toMatch(
      /;"1082,50";"2–4";"";"";"";"15000,00";"3";"2026-12-04";"520,00";"112,50";"450,00";"2026-12-08";"2026-12-10";"[^"]+";"1250,00";"Постамат, Казань, ул\. Пушкина, 1 \(KZN1\)"$/,
    );
    expect(lines[2]).toMatch(/;"1250,00";""$/);
  });

  it('a file of older rows only keeps exactly the twelve columns', () => {
    const csv = historyCsv(exportRows([row(1, V1_SHIPMENT, [V1_RATE])], 'en'), 'en');
    expect(csv.split('\r\n')[0]).toBe(
      '\uFEFF"Date";"From";"To";"Weight, g";"Carrier";"Service";"Delivery";"Price, ₽";"Days";"Prices";"Warehouse";"Author"',
    );
    expect(csv.split('\r\n')[1]!.split(';')).toHaveLength(12);
  });

  it('XLSX: money cells as numbers, English headers', async () => {
    const rows = exportRows([row(1, SHIPMENT, [RATE]), row(2, V1_SHIPMENT, [V1_RATE])], 'en');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(historyXlsx(rows, 'en', new Date(), 'Quotes') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(13).value).toBe('Cash on delivery, ₽');
    expect(ws.getRow(1).getCell(23).value).toBe('Pickup point');
    expect(ws.getRow(2).getCell(13).value).toBe(15_000);
    expect(ws.getRow(2).getCell(14).value).toBe(3);
    expect(ws.getRow(2).getCell(16).value).toBe(520);
    expect(ws.getRow(2).getCell(22).value).toBe(1250);
    // The older row beside it: no COD, one place, empty cells.
    expect(ws.getRow(3).getCell(13).value).toBe(0);
    expect(ws.getRow(3).getCell(14).value).toBe(1);
    expect(ws.getRow(3).getCell(16).value).toBeNull();
  });
});
