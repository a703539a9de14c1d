// From a sheet's rows to shipments (#21 item 6): the mapping suggested from the header's words (Russian or
// English, as clerks and their exports name columns), and each row read through a mapping into a QuoteRequest
// or into the problems that stop it, each with the row's number. Numbers are read as people type them in a
// Russian spreadsheet (core/ratecards/numbers.ts: "1 234,50", "1,2").
import {
  MAX_LISTED_BULK_PROBLEMS,
  type BulkField,
  type BulkMapping,
  type BulkProblem,
  type BulkShipment,
} from '../contract/operations';
import { MAX_PLACES, QuoteRequest, type QuoteRequestInput } from '../contract/quote-ext';
import {
  MAX_CARRIERS_FILTER,
  MAX_DECLARED_VALUE_KOPECKS,
  MAX_DIMENSION_CM,
  type Location,
} from '../contract/v1';
import { findCity } from '../locations/cities';
import { parseDecimal, parseWholeNumber } from '../ratecards/numbers';
import type { CsvRecord } from '../ratecards/records';

const words = (header: string): string[] =>
  header
    .toLowerCase()
    .replace(/ё/g, 'е')
    .split(/[^\p{L}\p{N}№]+/u)
    .filter(Boolean);

const has = (w: readonly string[], ...stems: string[]): boolean =>
  w.some((x) => stems.some((s) => (s.length <= 3 ? x === s : x.startsWith(s))));

const POSTAL = ['индекс', 'postal', 'zip', 'postcode', 'index'];
const FROM = ['откуда', 'отправ', 'from', 'origin', 'sender'];
const TO = ['куда', 'получ', 'to', 'destination', 'recipient', 'назнач', 'доставк'];

/** Which field a header names, by its words; null when none or unsure. */
export function fieldOfHeader(header: string): BulkField | null {
  const w = words(header);
  if (w.length === 0) return null;
  if (has(w, 'налож', 'cod', 'нп')) return 'cod_rub';
  if (has(w, 'ценност', 'страхов', 'declared', 'insur', 'стоимост', 'value')) return 'declared_value_rub';
  if (has(w, 'вес', 'weight', 'масса')) {
    return has(w, 'г', 'гр', 'грамм', 'g', 'grams', 'gram') && !has(w, 'кг', 'kg')
      ? 'weight_grams'
      : 'weight_kg';
  }
  if (has(w, 'длина', 'length', 'д')) return 'length_cm';
  if (has(w, 'ширина', 'width', 'ш')) return 'width_cm';
  if (has(w, 'высота', 'height', 'в')) return 'height_cm';
  if (has(w, 'мест', 'places', 'boxes', 'коробок', 'count', 'колич')) return 'places';
  if (has(w, 'дата', 'date', 'отгрузк')) return 'ship_date';
  if (has(w, 'перевозч', 'carrier', 'carriers', 'служб')) return 'carriers';
  const postal = has(w, ...POSTAL);
  if (has(w, ...FROM)) return postal ? 'from_postal_code' : 'from_city';
  if (has(w, ...TO)) return postal ? 'to_postal_code' : 'to_city';
  if (has(w, '№', 'номер', 'заказ', 'order', 'reference', 'ref', 'id')) return 'reference';
  return null;
}

/** The mapping the header suggests: each field from the first column that names it. */
export function suggestMapping(header: readonly string[]): BulkMapping {
  const mapping: BulkMapping = {};
  header.forEach((h, i) => {
    const field = fieldOfHeader(h);
    if (field && mapping[field] === undefined) mapping[field] = i;
  });
  return mapping;
}

const short = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

interface RowRead {
  shipment?: BulkShipment;
  problems: BulkProblem[];
}

/** What a mapping lacks for every row: a destination, a weight, the box's size, and an origin without one given. */
export function unmappedFields(mapping: BulkMapping, hasOrigin: boolean): BulkField[] {
  const missing: BulkField[] = [];
  if (!hasOrigin && mapping.from_city === undefined && mapping.from_postal_code === undefined)
    missing.push('from_city');
  if (mapping.to_city === undefined && mapping.to_postal_code === undefined) missing.push('to_city');
  if (mapping.weight_kg === undefined && mapping.weight_grams === undefined) missing.push('weight_kg');
  for (const f of ['length_cm', 'width_cm', 'height_cm'] as const)
    if (mapping[f] === undefined) missing.push(f);
  return missing;
}

/** A date as a clerk types it: 2026-12-01, 01.12.2026 or 1.12.26. */
function isoDate(text: string): string | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  let y: number, mo: number, d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    m = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/.exec(text);
    if (!m) return null;
    [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (y < 100) y += 2000;
  }
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

function readRow(record: CsvRecord, mapping: BulkMapping, origin: Location | undefined): RowRead {
  const problems: BulkProblem[] = [];
  const line = record.line;
  const text = (field: BulkField): string => {
    const at = mapping[field];
    return at === undefined ? '' : (record.fields[at] ?? '').trim();
  };
  const bad = (kind: BulkProblem['kind'], field: BulkField, value?: string): void => {
    problems.push({ line, kind, field, ...(value !== undefined ? { value: short(value) } : {}) });
  };

  const place = (cityField: BulkField, postalField: BulkField): Location | null => {
    const city = text(cityField);
    const postal = text(postalField).replace(/\s/g, '');
    if (postal && !/^\d{6}$/.test(postal)) {
      bad('bad_postal_code', postalField, postal);
      return null;
    }
    // A row with an index only is quoted to the index's town (the carriers take the index itself).
    const name = city || (postal ? (findCity(postal)?.name ?? '') : '');
    if (!name) {
      bad('no_place', cityField);
      return null;
    }
    return { country: 'RU', city: name.slice(0, 120), ...(postal ? { postal_code: postal } : {}) };
  };
  const fromGiven = text('from_city') !== '' || text('from_postal_code') !== '';
  const from = fromGiven || !origin ? place('from_city', 'from_postal_code') : origin;
  const to = place('to_city', 'to_postal_code');

  let weight: number | null = null;
  const kg = text('weight_kg');
  const grams = text('weight_grams');
  if (kg) {
    // Kilograms to three decimals (grams), read from the text as hundredths and thousandths alike.
    const m = /^(\d+(?:[ \u00a0\u202f]\d{3})*)(?:[.,](\d{1,3}))?$/.exec(kg);
    const value = m ? Number(m[1]!.replace(/\D/g, '')) * 1000 + Number((m[2] ?? '').padEnd(3, '0')) : NaN;
    if (Number.isFinite(value) && value >= 1 && value <= 1_000_000) weight = value;
    else bad('bad_weight', 'weight_kg', kg);
  } else if (grams) {
    weight = parseWholeNumber(grams, 1, 1_000_000);
    if (weight === null) bad('bad_weight', 'weight_grams', grams);
  } else {
    problems.push({ line, kind: 'no_weight' });
  }

  const size = (field: 'length_cm' | 'width_cm' | 'height_cm'): number | null => {
    const t = text(field);
    const v = parseWholeNumber(t, 1, MAX_DIMENSION_CM);
    if (v === null) {
      const dec = parseDecimal(t, MAX_DIMENSION_CM * 100);
      if (dec !== null && dec > 0) return dec / 100;
      bad('bad_size', field, t);
    }
    return v;
  };
  const length = size('length_cm');
  const width = size('width_cm');
  const height = size('height_cm');

  const placesText = text('places');
  const count = placesText ? parseWholeNumber(placesText, 1, MAX_PLACES) : 1;
  if (count === null) bad('bad_places', 'places', placesText);

  const money = (field: 'declared_value_rub' | 'cod_rub'): number => {
    const t = text(field);
    if (!t) return 0;
    const v = parseDecimal(t.replace(/\s*(₽|руб\.?|р\.?)$/i, ''), MAX_DECLARED_VALUE_KOPECKS);
    if (v === null) bad('bad_money', field, t);
    return v ?? 0;
  };
  const declared = money('declared_value_rub');
  const cod = money('cod_rub');

  const dateText = text('ship_date');
  const date = dateText ? isoDate(dateText) : null;
  if (dateText && !date) bad('bad_date', 'ship_date', dateText);

  const carriersText = text('carriers');
  const carriers = carriersText
    ? carriersText
        .toLowerCase()
        .split(/[\s,;]+/)
        .filter(Boolean)
    : null;
  if (
    carriers &&
    (carriers.length > MAX_CARRIERS_FILTER || carriers.some((c) => !/^[a-z0-9-]{1,40}$/.test(c)))
  )
    bad('bad_carriers', 'carriers', carriersText);

  if (problems.length > 0 || !from || !to || weight === null || !length || !width || !height || !count)
    return { problems };
  const box = { weight_grams: weight, length_cm: length, width_cm: width, height_cm: height };
  const request: QuoteRequestInput = {
    from,
    to,
    ...(count > 1 ? { places: [{ ...box, count }] } : { parcel: box }),
    declared_value_kopecks: declared,
    cod_kopecks: cod,
    ...(date ? { ship_date: date } : {}),
    ...(carriers ? { carriers } : {}),
  };
  const parsed = QuoteRequest.safeParse(request);
  if (!parsed.success) {
    // What the per-field reads let through but the contract refuses (a size past a carrier-wide bound).
    problems.push({ line, kind: 'bad_size', value: short(parsed.error.issues[0]?.message ?? '') });
    return { problems };
  }
  return { shipment: { line, reference: text('reference').slice(0, 120), shipment: parsed.data }, problems };
}

export interface MappedRows {
  shipments: BulkShipment[];
  problems: BulkProblem[];
  more_problems: number;
  bad_rows: number;
}

/** Every row through the mapping: shipments for the good ones, the first problems (listed) for the rest. */
export function mapRows(
  rows: readonly CsvRecord[],
  mapping: BulkMapping,
  origin?: Location,
  headerLine = 1,
): MappedRows {
  const shipments: BulkShipment[] = [];
  const problems: BulkProblem[] = [];
  let more = 0;
  let badRows = 0;
  const missing = unmappedFields(mapping, origin !== undefined);
  if (missing.length > 0) {
    // Nothing can be read without these: one problem per missing field, on the header's line.
    return {
      shipments,
      problems: missing.map((field) => ({ line: headerLine, kind: 'unmapped', field })),
      more_problems: 0,
      bad_rows: rows.length,
    };
  }
  for (const record of rows) {
    const read = readRow(record, mapping, origin);
    if (read.shipment) shipments.push(read.shipment);
    if (read.problems.length === 0) continue;
    badRows += 1;
    for (const p of read.problems) {
      if (problems.length < MAX_LISTED_BULK_PROBLEMS) problems.push(p);
      else more += 1;
    }
  }
  return { shipments, problems, more_problems: more, bad_rows: badRows };
}
