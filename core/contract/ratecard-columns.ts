// The columns of a rate-card file and the words a file may use for them (#17 item 9): every column has its
// English name (the one the CLI, the API docs and the problems use) and the Russian headers an admin writes in
// a spreadsheet; the delivery types have Russian words beside their codes. One table, read by the core's
// parser, the template it offers, and the renderer (which names a column in the UI language). Zod-free
// constants only, so the renderer imports it as it is.
import type { DeliveryType } from './v1';

export const RATE_CARD_REQUIRED_COLUMNS = [
  'from',
  'to',
  'max_weight_grams',
  'price_rub',
  'days_min',
  'days_max',
  'delivery_type',
] as const;
export const RATE_CARD_OPTIONAL_COLUMNS = ['service_name', 'service_code', 'declared_value_percent'] as const;
export type RateCardColumn =
  (typeof RATE_CARD_REQUIRED_COLUMNS)[number] | (typeof RATE_CARD_OPTIONAL_COLUMNS)[number];
export const RATE_CARD_COLUMNS: readonly RateCardColumn[] = [
  ...RATE_CARD_REQUIRED_COLUMNS,
  ...RATE_CARD_OPTIONAL_COLUMNS,
];

/**
 * The Russian headers of each column, the first one as the template writes it. A header is compared after
 * `headerKey` (case, ё, spaces, a final dot), so «Вес до,г» and «вес до, г» are one header.
 */
export const RATE_CARD_RUSSIAN_HEADERS: Readonly<Record<RateCardColumn, readonly string[]>> = {
  from: ['откуда'],
  to: ['куда'],
  max_weight_grams: ['вес до, г', 'вес до, гр', 'вес до'],
  price_rub: ['цена, ₽', 'цена, руб', 'цена, р', 'цена'],
  days_min: ['срок от', 'срок от, дн', 'срок от, дней'],
  days_max: ['срок до', 'срок до, дн', 'срок до, дней'],
  delivery_type: ['тип доставки', 'доставка'],
  service_code: ['код услуги'],
  service_name: ['услуга', 'название услуги'],
  declared_value_percent: ['страховка, %', '% от ценности', 'страховка'],
};

/** A header as compared: lower case, ё as е, spaces collapsed and none before a comma, no final dot. */
export function headerKey(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[\s\u00a0\u202f]+/g, ' ')
    .replace(/ ?, ?/g, ', ')
    .replace(/\.$/, '');
}

const BY_HEADER: ReadonlyMap<string, RateCardColumn> = new Map(
  RATE_CARD_COLUMNS.flatMap((column) => [
    [headerKey(column), column] as const,
    ...RATE_CARD_RUSSIAN_HEADERS[column].map((h) => [headerKey(h), column] as const),
  ]),
);

/** The column a header names, in English or in Russian; null for a header no column has. */
export function columnOfHeader(header: string): RateCardColumn | null {
  return BY_HEADER.get(headerKey(header)) ?? null;
}

/** How a column is named to a person: its English name, or its first Russian header. */
export function columnLabel(column: RateCardColumn, language: 'ru' | 'en'): string {
  return language === 'ru' ? RATE_CARD_RUSSIAN_HEADERS[column][0]! : column;
}

/** Russian words for the delivery types, the first one as the template writes it (compared by headerKey). */
export const RATE_CARD_RUSSIAN_DELIVERY_TYPES: Readonly<Record<DeliveryType, readonly string[]>> = {
  door: ['до двери', 'дверь', 'курьер'],
  pickup_point: ['пвз', 'до пвз', 'пункт выдачи'],
  terminal: ['терминал', 'до терминала'],
  post_office: ['отделение', 'почта', 'отделение почты'],
  unknown: ['другое'],
};

const DELIVERY_BY_WORD: ReadonlyMap<string, DeliveryType> = new Map(
  (Object.entries(RATE_CARD_RUSSIAN_DELIVERY_TYPES) as [DeliveryType, readonly string[]][]).flatMap(
    ([type, words]) => [[type, type] as const, ...words.map((w) => [headerKey(w), type] as const)],
  ),
);

/** A delivery type as written in a file: its code (door, pickup_point…) or a Russian word (до двери, ПВЗ…). */
export function deliveryTypeOf(text: string): DeliveryType | null {
  return DELIVERY_BY_WORD.get(headerKey(text)) ?? null;
}
