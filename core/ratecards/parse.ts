// The one reader of rate-card files (docs/carriers.md, "Rate cards"): CSV text or an Excel workbook in, rows
// or the problems with their line numbers out (the first 100 listed, the rest counted). Pure: the city table
// is asked through `cityKey`, so this module loads no data and the same reader serves the admin CLI, the desk
// and the tests. Read in one pass (header, then every row with each field's own check and message); the
// records come from records.ts (CSV, one at a time) or xlsx-read.ts (the first sheet's rows, numbered as
// Excel numbers them). Headers are English or Russian (core/contract/ratecard-columns.ts); numbers as people
// type them are read by numbers.ts.
import { parseDecimal, parseWholeNumber } from './numbers';
import {
  MAX_LISTED_RATE_CARD_PROBLEMS,
  MAX_RATE_CARD_ROWS,
  RATE_CARD_REQUIRED_COLUMNS,
  columnOfHeader,
  deliveryTypeOf,
  type RateCardColumn,
  type RateCardProblem,
  type RateCardProblemKind,
} from '../contract/operations/ratecards';
import { MAX_WEIGHT_GRAMS, type DeliveryType } from '../contract/v1';
import { headerLine, lineOf, readRecords, type CsvRecord } from './records';
import { isZip } from './unzip';
import { readXlsxRecords, XlsxError } from './xlsx-read';

/** Where a row applies: any place, a postal-code prefix, or a city as the city field takes it. */
export { parseDecimal, parseWholeNumber };

export type Place = { kind: 'any' } | { kind: 'prefix'; prefix: string } | { kind: 'city'; name: string };

export interface RateCardRow {
  line: number;
  from: Place;
  to: Place;
  maxWeightGrams: number;
  priceKopecks: number;
  daysMin: number;
  daysMax: number;
  deliveryType: DeliveryType;
  /** As written in the file; null when the column is absent or empty. */
  serviceCode: string | null;
  serviceName: string | null;
  /** declared_value_percent in hundredths of a percent (1,5 % → 150): integers all the way. */
  declaredValueBp: number;
}

export interface ParseResult {
  rows: RateCardRow[];
  /** The first MAX_LISTED_RATE_CARD_PROBLEMS problems, in line order. */
  problems: RateCardProblem[];
  /** Problems found beyond those listed: counted, not kept. */
  moreProblems: number;
  /** Lines with at least one problem, listed or not. */
  badLines: number;
}

/**
 * Problems as found: the first ones kept, the rest only counted, so that a file of bad rows costs a bounded
 * report (before #16, 1.8 MB of bad rows made a 58 MB message). Every check runs in line order, so the kept
 * ones are the first lines of the file and a line's problems stay in column order.
 */
class ProblemLog {
  readonly listed: RateCardProblem[] = [];
  count = 0;
  badLines = 0;
  private lastLine = 0;

  push(problem: RateCardProblem): void {
    this.count += 1;
    if (problem.line !== this.lastLine) this.badLines += 1;
    this.lastLine = problem.line;
    if (this.listed.length < MAX_LISTED_RATE_CARD_PROBLEMS) this.listed.push(problem);
  }

  result(rows: RateCardRow[]): ParseResult {
    return {
      rows: this.count === 0 ? rows : [],
      problems: this.listed,
      moreProblems: this.count - this.listed.length,
      badLines: this.badLines,
    };
  }
}

export interface ParseOptions {
  /**
   * The city the city field would find for this name (aliases included), as a key that is equal for every
   * spelling of one city ("спб", "Санкт-Петербург"); null when it finds none.
   */
  cityKey(name: string): string | null;
}

/** The largest price a row may carry: 10 million roubles, far above any parcel, well inside safe integers. */
const MAX_PRICE_KOPECKS = 1_000_000_000;
const MAX_DAYS = 365;
const MAX_SERVICE_NAME = 120;
const SERVICE_CODE = /^[A-Za-z0-9._-]{1,40}$/;
/** OLE2 compound files: Excel 97–2003 workbooks, and .xlsx files saved with a password. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function only(problem: RateCardProblem): ParseResult {
  const problems = new ProblemLog();
  problems.push(problem);
  return problems.result([]);
}

/**
 * A file as chosen, whatever it is: an Excel workbook (by its ZIP signature) is read from its first sheet, an
 * old or locked workbook is named as such in one problem, anything else is CSV text in UTF-8.
 */
export function parseRateCardFile(bytes: Buffer, options: ParseOptions): ParseResult {
  if (OLE2.every((b, i) => bytes[i] === b)) return only({ line: 1, kind: 'old_excel' });
  if (isZip(bytes)) {
    let records: CsvRecord[];
    try {
      records = readXlsxRecords(bytes);
    } catch (err) {
      if (err instanceof XlsxError) return only({ line: 1, kind: 'bad_xlsx' });
      throw err;
    }
    const iterator = records[Symbol.iterator]();
    const first = iterator.next();
    if (first.done) return only({ line: 1, kind: 'empty_file' });
    return parseRecords(first.value, iterator, () => null, options);
  }
  return parseRateCard(new TextDecoder('utf-8').decode(bytes), options);
}

export function parseRateCard(text: string, options: ParseOptions): ParseResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/\S/.test(source)) return only({ line: 1, kind: 'empty_file' });

  // A file read as UTF-8 that was not holds U+FFFD where the bad bytes were: say where, and stop (every
  // Cyrillic name after it would be refused too, for the same one reason).
  const bad = source.indexOf('\uFFFD');
  if (bad >= 0) return only({ line: lineOf(source, bad), kind: 'not_utf8' });

  const delimiter = headerLine(source).includes(';') ? ';' : ',';
  const reader = readRecords(source, delimiter);
  const first = reader.records.next();
  if (first.done) {
    const at = reader.unterminatedAt();
    return only({ line: at ?? 1, kind: at !== null ? 'unterminated_quote' : 'empty_file' });
  }
  return parseRecords(first.value, reader.records, reader.unterminatedAt, options);
}

/** The header record, then every other record of the file, as text fields with their line numbers. */
function parseRecords(
  header: CsvRecord,
  records: Iterator<CsvRecord, void, undefined>,
  unterminatedAt: () => number | null,
  options: ParseOptions,
): ParseResult {
  const problems = new ProblemLog();
  const columns = readHeader(header, problems);
  const rows: RateCardRow[] = [];
  if (columns) {
    const seen = new Map<string, number>();
    const services = new Map<string, { line: number; name: string; type: DeliveryType }>();
    let count = 0;
    for (let next = records.next(); !next.done; next = records.next()) {
      const record = next.value;
      if (record.fields.every((f) => f === '')) continue;
      count += 1;
      if (count > MAX_RATE_CARD_ROWS) {
        problems.push({ line: record.line, kind: 'too_many_rows' });
        break;
      }
      const row = readRow(record, columns, options, problems);
      if (!row) continue;
      checkService(row, services, columns.headers, problems);
      const key = JSON.stringify([
        serviceKey(row),
        placeKey(row.from, options),
        placeKey(row.to, options),
        row.maxWeightGrams,
      ]);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        problems.push({ line: row.line, kind: 'duplicate_row', other_line: earlier });
        continue;
      }
      seen.set(key, row.line);
      // Once the file is refused no row is returned: keep none (the duplicate check still needs `seen`).
      if (problems.count === 0) rows.push(row);
    }
    if (count === 0 && unterminatedAt() === null) problems.push({ line: header.line, kind: 'no_rows' });
  }
  const at = unterminatedAt();
  if (at !== null) problems.push({ line: at, kind: 'unterminated_quote' });
  return problems.result(rows);
}

/**
 * Which service a row belongs to: its service_code, or (without one) its delivery type. Rows of one service
 * are the bands and routes of one product; a quote gives at most one rate per service.
 */
export function serviceKey(row: Pick<RateCardRow, 'serviceCode' | 'deliveryType'>): string {
  return row.serviceCode ?? row.deliveryType;
}

/** One service has one name and one delivery type: a row that says otherwise is a mistake in the file. */
function checkService(
  row: RateCardRow,
  services: Map<string, { line: number; name: string; type: DeliveryType }>,
  headers: Columns['headers'],
  problems: ProblemLog,
): void {
  const key = serviceKey(row);
  const name = row.serviceName ?? '';
  const first = services.get(key);
  if (!first) {
    services.set(key, { line: row.line, name, type: row.deliveryType });
    return;
  }
  if (first.name !== name) {
    problems.push({
      line: row.line,
      kind: 'service_mismatch',
      column: 'service_name',
      ...(headers.service_name !== undefined ? { header: headers.service_name } : {}),
      value: short(key),
      other_line: first.line,
    });
  }
  if (first.type !== row.deliveryType) {
    problems.push({
      line: row.line,
      kind: 'service_mismatch',
      column: 'delivery_type',
      ...(headers.delivery_type !== undefined ? { header: headers.delivery_type } : {}),
      value: short(key),
      other_line: first.line,
    });
  }
}

interface Columns {
  /** Where each column is in a record. */
  at: Partial<Record<RateCardColumn, number>>;
  /** Each column's header as the file writes it («цена, ₽», price_rub): problems name it so. */
  headers: Partial<Record<RateCardColumn, string>>;
  count: number;
}

function readHeader(header: CsvRecord, problems: ProblemLog): Columns | null {
  const columns: Columns = { at: {}, headers: {}, count: header.fields.length };
  let ok = true;
  header.fields.forEach((raw, i) => {
    if (raw === '' && i === header.fields.length - 1 && i > 0) return; // a trailing delimiter
    const column = columnOfHeader(raw);
    if (column === null) {
      problems.push({ line: header.line, kind: 'unknown_column', value: short(raw) });
      ok = false;
      return;
    }
    if (columns.at[column] !== undefined) {
      // «цена» and price_rub are one column named twice.
      problems.push({ line: header.line, kind: 'duplicate_column', column, header: short(raw) });
      ok = false;
      return;
    }
    columns.at[column] = i;
    columns.headers[column] = short(raw);
  });
  for (const column of RATE_CARD_REQUIRED_COLUMNS) {
    if (columns.at[column] === undefined) {
      problems.push({ line: header.line, kind: 'missing_column', column });
      ok = false;
    }
  }
  return ok ? columns : null;
}

function readRow(
  record: CsvRecord,
  columns: Columns,
  options: ParseOptions,
  problems: ProblemLog,
): RateCardRow | null {
  const { line, fields } = record;
  const before = problems.count;
  const problem = (kind: RateCardProblemKind, column?: RateCardColumn, value?: string): void => {
    const header = column ? columns.headers[column] : undefined;
    problems.push({
      line,
      kind,
      ...(column ? { column } : {}),
      ...(header !== undefined ? { header } : {}),
      ...(value !== undefined ? { value: short(value) } : {}),
    });
  };
  // Spreadsheets end rows with empty cells freely; only text beyond the header's columns is a mistake.
  if (fields.slice(columns.count).some((f) => f !== '')) {
    problem('too_many_fields', undefined, `${fields.length} > ${columns.count}`);
    return null;
  }
  const get = (column: RateCardColumn): string => {
    const i = columns.at[column];
    return i === undefined ? '' : (fields[i] ?? '');
  };
  const required = (column: RateCardColumn): string | null => {
    const value = get(column);
    if (value === '') {
      problem('empty_value', column);
      return null;
    }
    return value;
  };

  const place = (column: 'from' | 'to'): Place | null => {
    const value = required(column);
    if (value === null) return null;
    if (value === '*') return { kind: 'any' };
    if (/^\d+$/.test(value)) {
      if (value.length <= 6) return { kind: 'prefix', prefix: value };
      problem('bad_place', column, value);
      return null;
    }
    if (options.cityKey(value) === null) {
      problem('unknown_city', column, value);
      return null;
    }
    return { kind: 'city', name: value };
  };
  const from = place('from');
  const to = place('to');

  const weightText = required('max_weight_grams');
  const weight = weightText === null ? null : parseWholeNumber(weightText, 1, MAX_WEIGHT_GRAMS);
  if (weightText !== null && weight === null) problem('bad_weight', 'max_weight_grams', weightText);

  const priceText = required('price_rub');
  const price = priceText === null ? null : parseDecimal(priceText, MAX_PRICE_KOPECKS);
  if (priceText !== null && price === null) problem('bad_price', 'price_rub', priceText);

  const days = (column: 'days_min' | 'days_max'): number | null => {
    const text = required(column);
    if (text === null) return null;
    const n = parseWholeNumber(text, 0, MAX_DAYS);
    if (n === null) problem('bad_days', column, text);
    return n;
  };
  const daysMin = days('days_min');
  const daysMax = days('days_max');
  if (daysMin !== null && daysMax !== null && daysMin > daysMax) {
    problem('days_order', undefined, `${daysMin} > ${daysMax}`);
  }

  const typeText = required('delivery_type');
  const type = typeText === null ? null : deliveryTypeOf(typeText);
  if (typeText !== null && type === null) problem('bad_delivery_type', 'delivery_type', typeText);

  const serviceCode = get('service_code') || null;
  if (serviceCode !== null && !SERVICE_CODE.test(serviceCode)) {
    problem('bad_service_code', 'service_code', serviceCode);
  }
  const serviceName = get('service_name') || null;
  if (serviceName !== null && (serviceName.length > MAX_SERVICE_NAME || /\p{Cc}/u.test(serviceName))) {
    problem('bad_service_name', 'service_name', serviceName);
  }

  const percentText = get('declared_value_percent');
  const percent = percentText === '' ? 0 : parseDecimal(percentText, 100 * 100);
  if (percent === null) problem('bad_percent', 'declared_value_percent', percentText);

  if (problems.count > before) return null;
  return {
    line,
    from: from!,
    to: to!,
    maxWeightGrams: weight!,
    priceKopecks: price!,
    daysMin: daysMin!,
    daysMax: daysMax!,
    deliveryType: type!,
    serviceCode,
    serviceName,
    declaredValueBp: percent!,
  };
}

/** Two spellings of one city are one place: "спб" and "Санкт-Петербург" rows are duplicates. */
function placeKey(place: Place, options: ParseOptions): string {
  if (place.kind === 'any') return '*';
  if (place.kind === 'prefix') return place.prefix;
  return `city:${options.cityKey(place.name) ?? place.name}`;
}

function short(value: string): string {
  return value.length > 60 ? `${value.slice(0, 59)}…` : value;
}
