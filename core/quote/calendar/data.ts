// The Russian production calendar as shipped (#21 item 3): for each year the Government has decreed, the days
// off that are not an ordinary Saturday or Sunday and the Saturdays worked, each with why.
//
// The rule (Трудовой кодекс РФ, ст. 112): the non-working holidays are 1–6 and 8 January (New Year), 7 January
// (Christmas), 23 February, 8 March, 1 May, 9 May, 12 June and 4 November. A holiday on a Saturday or Sunday
// moves that day off to the next working day, except the New Year ones (1–8 January): the Government moves
// those by its yearly decree «О переносе выходных дней в … году», which may also swap a Saturday with a
// weekday (a working Saturday). A year not here (nor imported) is provisional: counted by the article's rule
// alone (calendar.ts, `laborCodeYear`), without the decree's moves, which nobody can know yet.
//
// Each year below was checked against its decree as published and reported, and counts 247 working days, the
// total the decree's own publication gives (test/unit/core/quote/calendar/calendar.test.ts holds it).

export interface ShippedSource {
  /** The decree, as cited. */
  title: string;
  number: string;
  /** The day it was signed, YYYY-MM-DD. */
  date: string;
  url: string;
  /** Where its content was checked, when not at the decree's own text. */
  checked?: string;
}

export interface ShippedYear {
  year: number;
  source: ShippedSource;
  /** Days off that are not an ordinary Saturday or Sunday: holidays on weekdays, and days off moved there. */
  daysOff: Readonly<Record<string, string>>;
  /** Saturdays or Sundays that are working days (a transfer), with why. */
  workingDays: Readonly<Record<string, string>>;
}

const NEW_YEAR = 'Новогодние каникулы (ТК РФ ст. 112)';

export const SHIPPED_YEARS: readonly ShippedYear[] = [
  {
    year: 2025,
    source: {
      title: 'Постановление Правительства РФ от 04.10.2024 № 1335 «О переносе выходных дней в 2025 году»',
      number: '1335',
      date: '2024-10-04',
      url: 'http://static.government.ru/media/files/QkGT2QIDdzICtlaxOxctIZQONofaJwZO.pdf',
      checked:
        'government.ru announcement of 04.10.2024; teko.cntd.ru and polimat.ru list the same five transfers',
    },
    daysOff: {
      '2025-01-01': NEW_YEAR,
      '2025-01-02': NEW_YEAR,
      '2025-01-03': NEW_YEAR,
      '2025-01-06': NEW_YEAR,
      '2025-01-07': 'Рождество Христово',
      '2025-01-08': NEW_YEAR,
      '2025-05-01': 'Праздник Весны и Труда',
      '2025-05-02': 'перенос с субботы 4 января',
      '2025-05-08': 'перенос с воскресенья 23 февраля',
      '2025-05-09': 'День Победы',
      '2025-06-12': 'День России',
      '2025-06-13': 'перенос с субботы 8 марта',
      '2025-11-03': 'перенос с субботы 1 ноября',
      '2025-11-04': 'День народного единства',
      '2025-12-31': 'перенос с воскресенья 5 января',
    },
    workingDays: { '2025-11-01': 'рабочая суббота: выходной перенесён на 3 ноября' },
  },
  {
    year: 2026,
    source: {
      title: 'Постановление Правительства РФ от 24.09.2025 № 1466 «О переносе выходных дней в 2026 году»',
      number: '1466',
      date: '2025-09-24',
      url: 'http://publication.pravo.gov.ru/document/0001202509240023',
      checked: 'government.ru announcement of 24.09.2025 (TASS, RIA Novosti the same day)',
    },
    daysOff: {
      '2026-01-01': NEW_YEAR,
      '2026-01-02': NEW_YEAR,
      '2026-01-05': NEW_YEAR,
      '2026-01-06': NEW_YEAR,
      '2026-01-07': 'Рождество Христово',
      '2026-01-08': NEW_YEAR,
      '2026-01-09': 'перенос с субботы 3 января',
      '2026-02-23': 'День защитника Отечества',
      '2026-03-09': '8 марта в воскресенье: выходной на понедельник (ТК РФ ст. 112)',
      '2026-05-01': 'Праздник Весны и Труда',
      '2026-05-11': '9 мая в субботу: выходной на понедельник (ТК РФ ст. 112)',
      '2026-06-12': 'День России',
      '2026-11-04': 'День народного единства',
      '2026-12-31': 'перенос с воскресенья 4 января',
    },
    workingDays: {},
  },
  {
    year: 2027,
    source: {
      title: 'Постановление Правительства РФ от 17.09.2026 № 1187 «О переносе выходных дней в 2027 году»',
      number: '1187',
      date: '2026-09-17',
      url: 'https://www.consultant.ru/document/cons_doc_LAW_544706/',
      checked:
        'not read at the decree itself: two independent public calendars cite it with the same three ' +
        'transfers (2 Jan → 5 Nov, 3 Jan → 31 Dec, Sat 20 Feb → Mon 22 Feb) and 247 working days',
    },
    daysOff: {
      '2027-01-01': NEW_YEAR,
      '2027-01-04': NEW_YEAR,
      '2027-01-05': NEW_YEAR,
      '2027-01-06': NEW_YEAR,
      '2027-01-07': 'Рождество Христово',
      '2027-01-08': NEW_YEAR,
      '2027-02-22': 'перенос с субботы 20 февраля',
      '2027-02-23': 'День защитника Отечества',
      '2027-03-08': 'Международный женский день',
      '2027-05-03': '1 мая в субботу: выходной на понедельник (ТК РФ ст. 112)',
      '2027-05-10': '9 мая в воскресенье: выходной на понедельник (ТК РФ ст. 112)',
      '2027-06-14': '12 июня в субботу: выходной на понедельник (ТК РФ ст. 112)',
      '2027-11-04': 'День народного единства',
      '2027-11-05': 'перенос с субботы 2 января',
      '2027-12-31': 'перенос с воскресенья 3 января',
    },
    workingDays: { '2027-02-20': 'рабочая суббота: выходной перенесён на 22 февраля' },
  },
];

/** The Labor Code's non-working holidays (ст. 112), month-day. */
export const LABOR_CODE_HOLIDAYS: readonly string[] = [
  '01-01',
  '01-02',
  '01-03',
  '01-04',
  '01-05',
  '01-06',
  '01-07',
  '01-08',
  '02-23',
  '03-08',
  '05-01',
  '05-09',
  '06-12',
  '11-04',
];

export const PROVISIONAL_RULE =
  'Saturdays and Sundays, the Labor Code holidays (art. 112: 1–8 January, 23 February, 8 March, 1 and 9 May, ' +
  '12 June, 4 November), a holiday on a weekend moved to the next working day except in January; no decree ' +
  'transfers (not known before the decree)';
