// Results as plain text for the clipboard (Ctrl+C on a row, «Копировать как текст» for the table). A sandbox
// result carries its marker in the text itself, first, so a simulated price pasted into a chat with a
// customer still says it is not real (issue #9). Pure: the caller passes the words in the UI language.
// The tab-separated copy for spreadsheets is copy-tsv.ts.
import type { CarrierNameOf } from '../../lib/carrier-names';
import { formatDays, formatMoney, type Lang } from '../../lib/format';
import type { DeliveryType, Rate } from './logic';
import { serviceParts } from './service-label';

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
): string {
  const parts = [
    nameOf(r.carrier, r.carrier_name),
    ...serviceParts(r, deliveryLabel, lang),
    formatDays(r.days_min, r.days_max, lang),
    formatMoney(r.price_kopecks, lang),
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
): string {
  const lines = [(sandboxMarker ? `${sandboxMarker} ` : '') + heading];
  for (const r of rates) lines.push(rateAsText(r, nameOf, deliveryLabel, lang));
  return lines.join('\n');
}
