// History as a spreadsheet: one row per rate (a quote without any rate keeps one row, so no route silently
// disappears from the file), in the UI's language. The clerk's quote (#21) adds its columns after these
// (history-export-ext.ts).
import type { ExportedFile } from '../contract/operations';
import type { DeliveryType } from '../contract/v1';
import { CARRIER_NAMES_EN } from '../carriers/types';
import type { QuoteRow } from '../store/port';
import { daysText, roublesText } from '../contract/spreadsheet';
import { csvText } from './csv';
import {
  CLERK_HEADERS,
  CLERK_WIDTHS,
  clerkCells,
  clerkCsv,
  clerkXlsx,
  isClerkQuote,
  pointFor,
  type ChosenPoint,
  type ClerkCells,
} from './history-export-ext';
import { parseStoredShipment, storedResult } from './stored-quote';
import { exportLanguage, localDateTime, stamp, type Language } from './export-basics';
import { writeXlsx, type XlsxCell } from './xlsx';

export { exportLanguage, localDateTime, stamp, type Language };

interface ExportRow {
  /** The prices are the simulators' (sandbox mode): marked in every row, so none is passed on as real. */
  sandbox: boolean;
  date: string;
  from: string;
  to: string;
  weightGrams: number;
  carrier: string;
  service: string;
  deliveryType: string;
  priceKopecks: number | null;
  days: string;
  /** Who asked and from which warehouse (#20); empty for this computer's desk and /v1. */
  warehouse: string;
  author: string;
  /** COD, places, ship date, fees, dates, customer price, the chosen point (#21). */
  clerk: ClerkCells;
  /** The quote has something of the clerk's (a file with none is written in the twelve older columns). */
  clerkQuote: boolean;
}

const HEADERS: Record<Language, readonly string[]> = {
  ru: [
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
  ],
  en: [
    'Date',
    'From',
    'To',
    'Weight, g',
    'Carrier',
    'Service',
    'Delivery',
    'Price, ₽',
    'Days',
    'Prices',
    'Warehouse',
    'Author',
  ],
};
// Warehouse and author came with #20, after the columns files and macros already read by position.
const WIDTHS = [17, 20, 20, 9, 14, 30, 16, 12, 9, 30, 20, 16];

/** The «Цены» column: a simulated price says so in the row itself, wherever the row is pasted. */
export const SANDBOX_MARK: Record<Language, string> = {
  ru: 'ПЕСОЧНИЦА: цены не настоящие',
  en: 'SANDBOX: prices are not real',
};

const DELIVERY: Record<Language, Record<DeliveryType, string>> = {
  ru: {
    door: 'до двери',
    pickup_point: 'пункт выдачи',
    terminal: 'терминал',
    post_office: 'отделение',
    unknown: '',
  },
  en: {
    door: 'door',
    pickup_point: 'pickup point',
    terminal: 'terminal',
    post_office: 'post office',
    unknown: '',
  },
};

export { roublesText };

/**
 * A carrier's name in the file's language. Stored rows keep the Russian `carrier_name` /v1 gave; an English
 * file names a built-in carrier as the English UI does. A rate card (or a carrier since removed) has only the
 * name it was stored with.
 */
export function carrierNameIn(lang: Language, code: string, stored: string): string {
  if (lang === 'ru') return stored;
  return Object.hasOwn(CARRIER_NAMES_EN, code)
    ? CARRIER_NAMES_EN[code as keyof typeof CARRIER_NAMES_EN]
    : stored;
}

/** `points`: the pickup point the clerk chose per rate (quote:export), written in the rate's row. */
export function exportRows(
  quotes: readonly QuoteRow[],
  lang: Language,
  points: readonly ChosenPoint[] = [],
): ExportRow[] {
  const out: ExportRow[] = [];
  for (const q of quotes) {
    const shipment = parseStoredShipment(q.shipment_json);
    const base = {
      sandbox: q.sandbox === 1,
      date: localDateTime(q.created_at),
      from: q.from_city,
      to: q.to_city,
      weightGrams: q.weight_grams,
      warehouse: q.warehouse ?? '',
      author: q.author ?? '',
    };
    const { rates } = storedResult(q);
    const clerkQuote = isClerkQuote(shipment, rates) || points.length > 0;
    if (rates.length === 0) {
      out.push({
        ...base,
        carrier: '',
        service: '',
        deliveryType: '',
        priceKopecks: null,
        days: '',
        clerk: clerkCells(shipment, null, lang, undefined),
        clerkQuote,
      });
    }
    for (const r of rates) {
      out.push({
        ...base,
        clerk: clerkCells(shipment, r, lang, pointFor(points, r)),
        clerkQuote,
        carrier: carrierNameIn(lang, r.carrier, r.carrier_name),
        service: r.service_name,
        deliveryType: DELIVERY[lang][r.delivery_type],
        priceKopecks: r.price_kopecks,
        days: daysText(r.days_min, r.days_max),
      });
    }
  }
  return out;
}

/**
 * Russian Excel opens a double-clicked .csv with the system's ANSI code page (Windows-1251) and the
 * locale's list separator, which is ';' because ',' is the decimal separator there. The UTF-8 BOM makes
 * it read UTF-8 instead (Cyrillic and ₽ intact); ';' splits the columns; "1234,50" is then a number.
 * Quoting and the formula guard are the one CSV writer's (csv.ts): city names come from /v1 callers and
 * carrier names from rate cards, and "=HYPERLINK(…)" in a cell is a known CSV-injection route (OWASP).
 */
export function historyCsv(rows: readonly ExportRow[], lang: Language): string {
  const clerk = rows.some((r) => r.clerkQuote);
  const records = rows.map((r) => [
    r.date,
    r.from,
    r.to,
    String(r.weightGrams),
    r.carrier,
    r.service,
    r.deliveryType,
    r.priceKopecks === null ? '' : roublesText(r.priceKopecks),
    r.days,
    r.sandbox ? SANDBOX_MARK[lang] : '',
    r.warehouse,
    r.author,
    ...(clerk ? clerkCsv(r.clerk) : []),
  ]);
  const header = clerk ? [...HEADERS[lang], ...CLERK_HEADERS[lang]] : HEADERS[lang];
  return csvText([header, ...records], { separator: ';', bom: true });
}

export function historyXlsx(
  rows: readonly ExportRow[],
  lang: Language,
  now: Date,
  // Not 'History': Excel reserves that sheet name (its change tracking), and exceljs refuses to load it.
  sheet: string = lang === 'ru' ? 'История' : 'Quote history',
): Buffer {
  const clerk = rows.some((r) => r.clerkQuote);
  const cells: XlsxCell[][] = rows.map((r) => [
    r.date,
    r.from,
    r.to,
    r.weightGrams,
    r.carrier,
    r.service,
    r.deliveryType,
    // Integer kopecks / 100 is the exact decimal's nearest double; Excel shows it with two decimals.
    r.priceKopecks === null ? null : { money: r.priceKopecks / 100 },
    /^\d+$/.test(r.days) ? Number(r.days) : r.days,
    r.sandbox ? SANDBOX_MARK[lang] : '',
    r.warehouse,
    r.author,
    ...(clerk ? clerkXlsx(r.clerk) : []),
  ]);
  const header = clerk ? [...HEADERS[lang], ...CLERK_HEADERS[lang]] : HEADERS[lang];
  const widths = clerk ? [...WIDTHS, ...CLERK_WIDTHS] : WIDTHS;
  return writeXlsx({ name: sheet, header, rows: cells, widths }, now);
}

/**
 * The rows as the file the desk saves: `<base>.csv` or `<base>.xlsx`, base64 for the IPC answer. History
 * (history:export) and the Quote screen's current result (quote:export) both come through here.
 */
export function exportedFile(
  rows: readonly ExportRow[],
  lang: Language,
  format: 'csv' | 'xlsx',
  now: Date,
  names: { base: string; sheet?: string },
): ExportedFile {
  if (format === 'csv') {
    return {
      filename: `${names.base}.csv`,
      mime: 'text/csv;charset=utf-8',
      base64: Buffer.from(historyCsv(rows, lang), 'utf8').toString('base64'),
    };
  }
  return {
    filename: `${names.base}.xlsx`,
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    base64: historyXlsx(rows, lang, now, names.sheet).toString('base64'),
  };
}
