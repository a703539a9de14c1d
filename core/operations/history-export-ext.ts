// The clerk's quote in the history and quote exports (#21): cash on delivery, places, the ship date, and per
// rate its fees, delivery dates, the options its price leaves out, the customer's price and the pickup point
// the clerk chose. These columns come after the twelve the files have had since #20 (files and macros read
// those by position), and only in a file that holds a clerk's quote: a file of older rows (/v1 shipments,
// rates with the /v1 fields only) is written exactly as before.
import type { PickupPoint } from '../contract/points';
import { isV1Shaped, placesOf, type QuoteRate, type QuoteShipment } from '../contract/quote-ext';
import type { Rate } from '../contract/v1';
import type { Language } from './export-basics';
import type { XlsxCell } from './xlsx';
import { roublesText } from '../contract/spreadsheet';

/** A pickup point the clerk chose for one rate (quote:export's `points`). */
export interface ChosenPoint {
  carrier: string;
  service_code: string;
  point: PickupPoint;
}

export interface ClerkCells {
  codKopecks: number;
  places: number;
  shipDate: string;
  baseKopecks: number | null;
  insuranceKopecks: number | null;
  codFeeKopecks: number | null;
  deliveryFrom: string;
  deliveryTo: string;
  notPriced: string;
  customerKopecks: number | null;
  point: string;
}

export const CLERK_HEADERS: Record<Language, readonly string[]> = {
  ru: [
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
  ],
  en: [
    'Cash on delivery, ₽',
    'Places',
    'Ship date',
    'Base, ₽',
    'Insurance, ₽',
    'COD fee, ₽',
    'Delivery from',
    'Delivery to',
    'Not in the price',
    'Customer price, ₽',
    'Pickup point',
  ],
};
export const CLERK_WIDTHS = [14, 7, 13, 12, 12, 14, 13, 13, 34, 14, 48];

const OPTION: Record<Language, Record<QuoteRate['options_not_priced'][number]['option'], string>> = {
  ru: { cod: 'наложенный платёж', insurance: 'страховка' },
  en: { cod: 'cash on delivery', insurance: 'insurance' },
};
const REASON: Record<Language, Record<QuoteRate['options_not_priced'][number]['reason'], string>> = {
  ru: { not_offered: 'услуга не принимает', not_quoted: 'перевозчик не считает, добавит при оформлении' },
  en: { not_offered: 'not offered on this service', not_quoted: 'not quoted; the carrier adds its fee' },
};

export function isQuoteRate(rate: Rate | QuoteRate): rate is QuoteRate {
  return 'breakdown' in rate;
}

/** True when the quote carries anything the twelve older columns cannot show. */
export function isClerkQuote(
  shipment: QuoteShipment | null,
  rates: ReadonlyArray<Rate | QuoteRate>,
): boolean {
  return (shipment !== null && !isV1Shaped(shipment)) || rates.some(isQuoteRate);
}

/** "Пункт выдачи" as the clerk will read it to the customer: name, address, the carrier's code. */
function pointText(point: PickupPoint | undefined): string {
  if (!point) return '';
  const name = point.name && !point.address.includes(point.name) ? `${point.name}, ` : '';
  return `${name}${point.address} (${point.code})`;
}

export function pointFor(
  points: readonly ChosenPoint[],
  rate: Pick<Rate, 'carrier' | 'service_code'>,
): PickupPoint | undefined {
  return points.find((p) => p.carrier === rate.carrier && p.service_code === rate.service_code)?.point;
}

export function clerkCells(
  shipment: QuoteShipment | null,
  rate: Rate | QuoteRate | null,
  lang: Language,
  point: PickupPoint | undefined,
): ClerkCells {
  const q = rate && isQuoteRate(rate) ? rate : null;
  return {
    codKopecks: shipment?.cod_kopecks ?? 0,
    places: q?.places ?? (shipment ? Math.max(1, placesOf(shipment).length) : 1),
    // The carrier's own day (moved past its cut-off and days off) where the rate has it.
    shipDate: q?.ship_date ?? shipment?.ship_date ?? '',
    baseKopecks: q?.breakdown.base_kopecks ?? null,
    insuranceKopecks: q?.breakdown.insurance_kopecks ?? null,
    codFeeKopecks: q?.breakdown.cod_fee_kopecks ?? null,
    deliveryFrom: q?.delivery_date_min ?? '',
    deliveryTo: q?.delivery_date_max ?? '',
    notPriced: (q?.options_not_priced ?? [])
      .map((n) => {
        const detail = lang === 'en' && n.detail ? ` (${n.detail})` : '';
        return `${OPTION[lang][n.option]}: ${REASON[lang][n.reason]}${detail}`;
      })
      .join('; '),
    customerKopecks: q?.customer_price_kopecks ?? null,
    point: pointText(point),
  };
}

const money = (k: number | null): string => (k === null ? '' : roublesText(k));

export function clerkCsv(c: ClerkCells): string[] {
  return [
    roublesText(c.codKopecks),
    String(c.places),
    c.shipDate,
    money(c.baseKopecks),
    money(c.insuranceKopecks),
    money(c.codFeeKopecks),
    c.deliveryFrom,
    c.deliveryTo,
    c.notPriced,
    money(c.customerKopecks),
    c.point,
  ];
}

export function clerkXlsx(c: ClerkCells): XlsxCell[] {
  // Integer kopecks / 100 is the exact decimal's nearest double; Excel shows it with two decimals.
  const cell = (k: number | null): XlsxCell => (k === null ? null : { money: k / 100 });
  return [
    cell(c.codKopecks),
    c.places,
    c.shipDate,
    cell(c.baseKopecks),
    cell(c.insuranceKopecks),
    cell(c.codFeeKopecks),
    c.deliveryFrom,
    c.deliveryTo,
    c.notPriced,
    cell(c.customerKopecks),
    c.point,
  ];
}
