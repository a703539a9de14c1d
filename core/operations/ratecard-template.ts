// The rate-card template the import dialog offers (#17 item 9): the header in the UI language's words (the
// importer reads Russian and English alike, core/contract/ratecard-columns.ts) and two example rows that
// import as they are, as CSV for any editor or as an Excel workbook.
import {
  columnLabel,
  RATE_CARD_RUSSIAN_DELIVERY_TYPES,
  type RateCardColumn,
} from '../contract/operations/ratecards';
import type { DeliveryType } from '../contract/v1';
import { writeXlsx, type XlsxCell } from './xlsx';

export type TemplateLanguage = 'ru' | 'en';

/** The template's columns, in the order a person fills them. */
const COLUMNS: readonly RateCardColumn[] = [
  'from',
  'to',
  'max_weight_grams',
  'price_rub',
  'days_min',
  'days_max',
  'delivery_type',
  'service_code',
  'service_name',
  'declared_value_percent',
];

interface Example {
  from: string;
  to: string;
  grams: number;
  /** Roubles; written "350,00" in Russian, "350.00" in English. */
  price: number;
  daysMin: number;
  daysMax: number;
  type: DeliveryType;
  code: string;
  name: { ru: string; en: string };
  percent: number | null;
}

const EXAMPLES: readonly Example[] = [
  {
    from: 'Москва',
    to: 'Санкт-Петербург',
    grams: 1000,
    price: 350,
    daysMin: 1,
    daysMax: 2,
    type: 'door',
    code: 'courier',
    name: { ru: 'Курьер до двери', en: 'Courier to the door' },
    percent: 0.5,
  },
  {
    from: 'Москва',
    to: '*',
    grams: 5000,
    price: 590,
    daysMin: 2,
    daysMax: 4,
    type: 'pickup_point',
    code: 'pvz',
    name: { ru: 'До пункта выдачи', en: 'To a pickup point' },
    percent: null,
  },
];

function header(language: TemplateLanguage): string[] {
  return COLUMNS.map((c) => columnLabel(c, language));
}

function deliveryWord(type: DeliveryType, language: TemplateLanguage): string {
  return language === 'ru' ? RATE_CARD_RUSSIAN_DELIVERY_TYPES[type][0]! : type;
}

function cells(e: Example, language: TemplateLanguage): XlsxCell[] {
  return [
    e.from,
    e.to,
    e.grams,
    e.price,
    e.daysMin,
    e.daysMax,
    deliveryWord(e.type, language),
    e.code,
    e.name[language],
    e.percent,
  ];
}

function csvCell(value: XlsxCell, language: TemplateLanguage, column: RateCardColumn): string {
  if (value === null) return '';
  if (typeof value === 'number') {
    const text = column === 'price_rub' ? value.toFixed(2) : String(value);
    return language === 'ru' ? text.replace('.', ',') : text;
  }
  return typeof value === 'string' ? value : String(value.money);
}

/**
 * `;` between fields and a BOM, as Excel in a Russian locale writes and opens "CSV UTF-8"; no field of the
 * template holds a `;` or a quote, so none is quoted.
 */
export function templateCsv(language: TemplateLanguage): string {
  const lines = [
    header(language).join(';'),
    ...EXAMPLES.map((e) =>
      cells(e, language)
        .map((v, i) => csvCell(v, language, COLUMNS[i]!))
        .join(';'),
    ),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Numbers as numbers, so the example shows that a sheet's own number cells are read. */
export function templateXlsx(language: TemplateLanguage, modified: Date): Buffer {
  return writeXlsx(
    {
      name: language === 'ru' ? 'Тарифная сетка' : 'Rate card',
      header: header(language),
      rows: EXAMPLES.map((e) => cells(e, language)),
      widths: [14, 18, 12, 12, 10, 10, 14, 14, 22, 14],
    },
    modified,
  );
}
