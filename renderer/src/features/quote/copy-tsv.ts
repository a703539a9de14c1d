// «Копировать» on the Quote screen: the table as tab-separated lines, which Excel, LibreOffice and 1С paste
// as columns (the clipboard's text/plain; Excel's own copy is the same format). Pure: unit-tested in Node.
//
// Layout, top to bottom:
//   [ПЕСОЧНИЦА — цена не настоящая]      ← a sandbox result only: the copy starts with the marker (issue #9)
//   Москва → Казань · 1,2 кг, 30×20×10 см  ← what was quoted, one cell
//   Перевозчик  Тариф  Доставка  Срок, дн.  Цена, ₽
//   СДЭК  Посылка склад-склад  ПВЗ  2–3  412,00
// The marker is a line of its own rather than a column: the columns are then the same for a live and a
// sandbox result (a 1С template maps them once), and it is the first cell a paste fills. Prices and days
// are bare numbers a spreadsheet can sum and sort, written by the core's spreadsheet rules
// (core/contract/spreadsheet.ts), and every text cell goes through the same formula guard as the CSV export:
// a rate card's name or a city typed as «=HYPERLINK(…)» must not run when pasted.
import { daysText, defuseFormulas, roublesText } from '../../../../core/contract/spreadsheet';
import type { CarrierNameOf } from '../../lib/carrier-names';
import type { DeliveryType, Rate } from './logic';

export interface TsvWords {
  /** Column titles in the UI language: carrier, service, delivery, days, price. */
  headers: readonly [string, string, string, string, string];
  /** The carrier's name in the UI language (lib/carrier-names.ts): «CDEK» in English. */
  nameOf: CarrierNameOf;
  deliveryLabel: (t: DeliveryType) => string;
  /** What was quoted: "Москва → Казань · 1,2 кг, 30×20×10 см". */
  heading: string;
  /** "[ПЕСОЧНИЦА — цена не настоящая]" for a sandbox result; nothing for a live one. */
  sandboxMarker?: string | undefined;
  /** The decimal separator of the spreadsheet that will read the prices (localeDecimal). */
  decimal: ',' | '.';
  /**
   * #21, trailing columns (the first five stay where a 1С template maps them): the customer's price when
   * some rate has one, and the chosen pickup point when some rate has one.
   */
  customer?: { header: string } | undefined;
  points?: { header: string; of: (r: Rate) => string | undefined } | undefined;
}

/** One cell: no tab or line break inside it (they would split it), and never a formula. */
export function tsvCell(text: string): string {
  return defuseFormulas(text.replace(/[\t\r\n]+/g, ' ').trim());
}

/**
 * The decimal separator of a locale ("ru-RU" → ",", "en-US" → "."). The spreadsheet a clerk pastes into
 * reads numbers in the computer's locale, not in RateDesk's UI language.
 */
export function localeDecimal(locale: string | undefined): ',' | '.' {
  try {
    const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal');
    return part?.value === '.' ? '.' : ',';
  } catch {
    return ',';
  }
}

/** Lines joined with CRLF, as Excel itself puts a range on the clipboard. */
export function resultsAsTsv(rates: readonly Rate[], words: TsvWords): string {
  const lines: string[] = [];
  if (words.sandboxMarker) lines.push(tsvCell(words.sandboxMarker));
  lines.push(tsvCell(words.heading));
  const headers = [
    ...words.headers,
    ...(words.customer ? [words.customer.header] : []),
    ...(words.points ? [words.points.header] : []),
  ];
  lines.push(headers.map(tsvCell).join('\t'));
  for (const r of rates) {
    const customer = r.customer_price_kopecks ?? null;
    lines.push(
      [
        tsvCell(words.nameOf(r.carrier, r.carrier_name)),
        tsvCell(r.service_name),
        tsvCell(words.deliveryLabel(r.delivery_type)),
        daysText(r.days_min, r.days_max),
        roublesText(r.price_kopecks, words.decimal),
        ...(words.customer ? [customer === null ? '' : roublesText(customer, words.decimal)] : []),
        ...(words.points ? [tsvCell(words.points.of(r) ?? '')] : []),
      ].join('\t'),
    );
  }
  return lines.join('\r\n');
}
