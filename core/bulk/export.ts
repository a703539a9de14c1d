// The results of a bulk run as a table (#21 item 6): a row per shipment of the file, in its order, with the
// cheapest, the fastest and the chosen service (the cheapest unless the clerk chose another), and a row per
// bad line of the file saying why it was not quoted. The CSV and XLSX writers turn it into the file
// (core/operations/bulk.ts), so both formats hold the same cells.
import type { BulkChoice, BulkProblem, BulkRowResult } from '../contract/operations';
import { bulkProblemText } from '../contract/operations';
import type { QuoteRate } from '../contract/quote-ext';
import { daysText } from '../contract/spreadsheet';

export type Language = 'ru' | 'en';

/** As the XLSX writer takes it (core/operations/xlsx.ts XlsxCell): `{ money }` in roubles. */
export type SheetCell = string | number | { money: number } | null;

const PICKS = ['cheapest', 'fastest', 'chosen'] as const;
const PICK_HEADERS: Record<Language, Record<(typeof PICKS)[number], string>> = {
  ru: { cheapest: 'Дешевле всего', fastest: 'Быстрее всего', chosen: 'Выбрано' },
  en: { cheapest: 'Cheapest', fastest: 'Fastest', chosen: 'Chosen' },
};
const PART_HEADERS: Record<Language, string[]> = {
  ru: ['перевозчик', 'услуга', 'цена, ₽', 'срок, дн.', 'доставка'],
  en: ['carrier', 'service', 'price, RUB', 'days', 'delivery'],
};
const HEAD: Record<Language, string[]> = {
  ru: ['Строка', 'Номер', 'Откуда', 'Куда', 'Вес, кг'],
  en: ['Row', 'Reference', 'From', 'To', 'Weight, kg'],
};
const TAIL: Record<Language, string[]> = {
  ru: ['Цена клиенту, ₽', 'Не ответили', 'Цены', 'Ошибка строки'],
  en: ['Customer price, RUB', 'No answer', 'Prices', 'Row problem'],
};

export function bulkHeader(lang: Language): string[] {
  return [
    ...HEAD[lang],
    ...PICKS.flatMap((p) => PART_HEADERS[lang].map((h) => `${PICK_HEADERS[lang][p]}: ${h}`)),
    ...TAIL[lang],
  ];
}

export const BULK_WIDTHS = [
  7,
  12,
  16,
  16,
  9,
  ...Array.from({ length: 15 }, (_, i) => [14, 24, 11, 9, 12][i % 5]!),
  14,
  20,
  16,
  30,
];

export type ExportRow = BulkRowResult & { chosen?: BulkChoice | null | undefined };

function chosenRate(row: ExportRow): QuoteRate | null {
  if (row.chosen) {
    const c = row.chosen;
    const found = row.rates.find((r) => r.carrier === c.carrier && r.service_code === c.service_code);
    if (found) return found;
  }
  return row.cheapest === null ? null : (row.rates[row.cheapest] ?? null);
}

function dates(r: QuoteRate): string {
  if (!r.delivery_date_min) return '';
  return r.delivery_date_max && r.delivery_date_max !== r.delivery_date_min
    ? `${r.delivery_date_min} – ${r.delivery_date_max}`
    : r.delivery_date_min;
}

function rateCells(r: QuoteRate | null): SheetCell[] {
  if (!r) return [null, null, null, null, null];
  const days = daysText(r.days_min, r.days_max);
  return [
    r.carrier_name,
    r.service_name,
    { money: r.price_kopecks / 100 },
    /^\d+$/.test(days) ? Number(days) : days,
    dates(r),
  ];
}

/** The table's rows: shipments and bad lines, in the file's row order. */
export function bulkCells(
  rows: readonly ExportRow[],
  problems: readonly BulkProblem[],
  lang: Language,
  sandboxMark: string,
): SheetCell[][] {
  const out: Array<{ line: number; cells: SheetCell[] }> = rows.map((row) => {
    const chosen = chosenRate(row);
    const picks = [
      row.cheapest === null ? null : row.rates[row.cheapest]!,
      row.fastest === null ? null : row.rates[row.fastest]!,
      chosen,
    ];
    const noAnswer = row.failures.map((f) => f.carrier).join(', ');
    return {
      line: row.line,
      cells: [
        row.line,
        row.reference,
        row.from_city,
        row.to_city,
        row.weight_grams / 1000,
        ...picks.flatMap((p) => rateCells(p ?? null)),
        chosen?.customer_price_kopecks != null ? { money: chosen.customer_price_kopecks / 100 } : null,
        noAnswer,
        row.sandbox ? sandboxMark : '',
        row.error ?? (row.rates.length === 0 ? (lang === 'ru' ? 'нет тарифов' : 'no rates') : ''),
      ],
    };
  });
  const byLine = new Map<number, string[]>();
  for (const p of problems) byLine.set(p.line, [...(byLine.get(p.line) ?? []), bulkProblemText(p, lang)]);
  for (const [line, reasons] of byLine) {
    const width = bulkHeader(lang).length;
    const cells: SheetCell[] = new Array<SheetCell>(width).fill(null);
    cells[0] = line;
    cells[width - 1] = reasons.join('; ');
    out.push({ line, cells });
  }
  return out.sort((a, b) => a.line - b.line).map((r) => r.cells);
}

/** A cell as CSV text: money with a decimal comma (the Russian Excel's), numbers as written. */
export function csvCell(cell: SheetCell, lang: Language): string {
  if (cell === null) return '';
  if (typeof cell === 'object') {
    const text = cell.money.toFixed(2);
    return lang === 'ru' ? text.replace('.', ',') : text;
  }
  if (typeof cell === 'number') return lang === 'ru' ? String(cell).replace('.', ',') : String(cell);
  return cell;
}
