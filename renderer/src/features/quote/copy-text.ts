// Results as plain text for the clipboard (Ctrl+C on a row, «Копировать как текст» for the table). A sandbox
// result carries its marker in the text itself, first, so a simulated price pasted into a chat with a
// customer still says it is not real (issue #9). Pure: the caller passes the words in the UI language.
// The tab-separated copy for spreadsheets is copy-tsv.ts.
// The clerk's quote (#21): the expected dates follow the days («2–3 дн. (28–30 ноября)»), a chosen pickup
// point is named after the price, and «Копировать цену клиента» writes the customer's price instead of the
// carrier's (the carrier's where no resale rule applies: that is then the customer's price too).
import type { CarrierNameOf } from '../../lib/carrier-names';
import { formatDateRange } from '../../lib/dates';
import { formatDays, formatMoney, type Lang } from '../../lib/format';
import type { DeliveryType, Rate } from './logic';
import { serviceParts } from './service-label';

/** What the copy says beyond the /v1 fields (#21). */
export interface TextExtras {
  /** The chosen pickup point of a rate, worded («пункт выдачи KZN12, …»), by rate. */
  pointOf?: (r: Rate) => string | undefined;
  /** The customer's price instead of the carrier's. */
  customer?: boolean;
}

/** «2–3 дн. (28–30 ноября)», or the days alone when the rate has no dates. */
function daysAndDates(r: Rate, lang: Lang): string {
  const days = formatDays(r.days_min, r.days_max, lang);
  const dates = formatDateRange(r.delivery_date_min, r.delivery_date_max, lang);
  return dates ? `${days} (${dates})` : days;
}

/** The price the copy names: the customer's when asked for and known, else the carrier's. */
export function copiedPrice(r: Rate, customer: boolean | undefined): number {
  return customer ? (r.customer_price_kopecks ?? r.price_kopecks) : r.price_kopecks;
}

/**
 * One result: "СДЭК — Посылка склад-склад — ПВЗ — 2–3 дн. — 412,00 ₽", route and sandbox marker first. The
 * service and delivery parts never repeat each other's words (service-label.ts).
 */
export function rateAsText(
  r: Rate,
  /** The carrier's name in the UI language (lib/carrier-names.ts): «CDEK» in English. */
  nameOf: CarrierNameOf,
  deliveryLabel: (t: DeliveryType) => string,
  lang: Lang,
  route?: string,
  /** "[ПЕСОЧНИЦА — цена не настоящая]" for a sandbox result; nothing for a live one. */
  sandboxMarker?: string,
  extras: TextExtras = {},
): string {
  const point = extras.pointOf?.(r);
  const parts = [
    nameOf(r.carrier, r.carrier_name),
    ...serviceParts(r, deliveryLabel, lang),
    daysAndDates(r, lang),
    formatMoney(copiedPrice(r, extras.customer), lang),
    ...(point ? [point] : []),
  ];
  return (sandboxMarker ? `${sandboxMarker} ` : '') + (route ? `${route}: ` : '') + parts.join(' — ');
}

/**
 * The whole table: a heading line (sandbox marker, what was quoted), then one line per option in the order
 * shown, each option's own line as rateAsText writes it.
 */
export function resultsAsText(
  rates: readonly Rate[],
  nameOf: CarrierNameOf,
  deliveryLabel: (t: DeliveryType) => string,
  lang: Lang,
  heading: string,
  sandboxMarker?: string,
  extras: TextExtras = {},
): string {
  const lines = [(sandboxMarker ? `${sandboxMarker} ` : '') + heading];
  for (const r of rates) lines.push(rateAsText(r, nameOf, deliveryLabel, lang, undefined, undefined, extras));
  return lines.join('\n');
}
