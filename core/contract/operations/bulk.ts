// A day's shipments at once (#21 item 6): a CSV or XLSX file of shipments read with a column mapping
// (bulk:parse), every good row quoted at the pace of an account's limits (bulk:run, streamed as bulk:progress,
// stopped by bulk:cancel), and the results written out (bulk:export). Renderer-safe: zod and constants only.
import { z } from 'zod';
import { CarrierFailure } from '../unavailable';
import { QuoteRate, QuoteRequest } from '../quote-ext';
import { Location } from '../v1';
import { Id } from './common';
import { ExportedFile } from './quotes';

/** A run's key, chosen by the renderer (as quote:run's quoteKey), so it can tell its bulk:progress events. */
export const BulkRunKey = z.string().min(1).max(64);

/** A day's shipments: far above a warehouse's day, far below what would make one run last a day. */
export const MAX_BULK_ROWS = 10_000;
/** The file as chosen, base64: 10 MB, as a rate card. */
export const MAX_BULK_FILE_BYTES = 10_000_000;
/** Rows shown under the mapping. */
export const BULK_PREVIEW_ROWS = 8;
/** Bad rows listed one by one (the rest are counted), as a rate card's problems. */
export const MAX_LISTED_BULK_PROBLEMS = 200;

/**
 * What a column can be mapped to: the fields of a QuoteRequest, in the units a clerk's sheet has them (kg or
 * grams, roubles). `reference` is the sheet's own order number, carried into the results and the export.
 */
export const BULK_FIELDS = [
  'reference',
  'from_city',
  'from_postal_code',
  'to_city',
  'to_postal_code',
  'weight_kg',
  'weight_grams',
  'length_cm',
  'width_cm',
  'height_cm',
  'places',
  'declared_value_rub',
  'cod_rub',
  'ship_date',
  'carriers',
] as const;
export const BulkField = z.enum(BULK_FIELDS);
export type BulkField = z.output<typeof BulkField>;

/** Field → the 0-based column it is read from; a field left out is not in the file. */
export const BulkMapping = z.partialRecord(BulkField, z.int().min(0).max(200));
export type BulkMapping = z.output<typeof BulkMapping>;

export const BULK_FILE_PROBLEMS = [
  'empty_file',
  'old_excel',
  'bad_xlsx',
  'not_utf8',
  'unterminated_quote',
  'no_rows',
  'too_many_rows',
] as const;

export const BULK_ROW_PROBLEMS = [
  /** The mapping has no column for a field every row needs (to, weight). */
  'unmapped',
  /** from (without a warehouse) or to: neither a city nor a postal code. */
  'no_place',
  'bad_postal_code',
  'bad_weight',
  /** Both weight columns mapped and one of them empty is fine; none of them: no weight. */
  'no_weight',
  'bad_size',
  'bad_places',
  'bad_money',
  'bad_date',
  'bad_carriers',
] as const;

export const BulkProblemKind = z.enum([...BULK_FILE_PROBLEMS, ...BULK_ROW_PROBLEMS]);
export type BulkProblemKind = z.output<typeof BulkProblemKind>;

export const BulkProblem = z.object({
  /** The row's number as the sheet numbers it (the header is row 1). */
  line: z.int().min(1),
  kind: BulkProblemKind,
  field: BulkField.optional(),
  /** The text found, shortened to 60 characters. */
  value: z.string().optional(),
});
export type BulkProblem = z.output<typeof BulkProblem>;

/** One good row: its number in the file and the shipment it asks for. */
export const BulkShipment = z.object({
  line: z.int().min(1),
  reference: z.string().max(120).default(''),
  shipment: QuoteRequest,
});
export type BulkShipment = z.output<typeof BulkShipment>;

const FileBytes = z
  .base64('content must be base64')
  .max(Math.ceil(MAX_BULK_FILE_BYTES / 3) * 4, `the file must be at most ${MAX_BULK_FILE_BYTES} bytes`);

export const BulkParseResult = z.object({
  format: z.enum(['csv', 'xlsx']),
  /** The header row's texts, one per column. */
  columns: z.array(z.string()),
  /** The first rows as read (texts), under the header. */
  preview: z.array(z.object({ line: z.int(), fields: z.array(z.string()) })),
  /** The mapping used: the one given, or the one suggested from the header's words. */
  mapping: BulkMapping,
  /** Rows with content (blank rows are not rows). */
  total_rows: z.int().min(0),
  /** Every row that reads, as a shipment (bulk:run takes them as they are). */
  shipments: z.array(BulkShipment),
  /** The first bad rows with the reason (line order); a file-level problem is on line 1. */
  problems: z.array(BulkProblem).max(MAX_LISTED_BULK_PROBLEMS),
  more_problems: z.int().min(0),
  /** Rows with a problem, listed or not. */
  bad_rows: z.int().min(0),
});
export type BulkParseResult = z.output<typeof BulkParseResult>;

/** One row's outcome: its rates (cheapest first), the cheapest and the fastest, or why it has none. */
export const BulkRowResult = z.object({
  line: z.int().min(1),
  reference: z.string(),
  from_city: z.string(),
  to_city: z.string(),
  weight_grams: z.number(),
  /** History row of this quote (history:get takes it); null when the quote failed before it was stored. */
  quote_id: Id.nullable(),
  rates: z.array(QuoteRate),
  failures: z.array(CarrierFailure),
  /** Index into `rates`; null when no carrier answered. */
  cheapest: z.int().min(0).nullable(),
  /** Index into `rates`: fewest days (days_max, then days_min, then price); null without days. */
  fastest: z.int().min(0).nullable(),
  /** The quote itself failed (not a carrier): an internal error's short text. */
  error: z.string().nullable(),
  /** Simulated carriers answered (sandbox mode): the prices are not real, and the export says so. */
  sandbox: z.boolean(),
});
export type BulkRowResult = z.output<typeof BulkRowResult>;

export const BulkRunResult = z.object({
  runKey: BulkRunKey,
  /** done: every row quoted; cancelled: stopped by bulk:cancel, the rows quoted before it kept. */
  state: z.enum(['done', 'cancelled']),
  total: z.int().min(0),
  /** Rows quoted (with rates or not), in `rows`; the rest were never asked. */
  done: z.int().min(0),
  /** In the file's order. */
  rows: z.array(BulkRowResult),
  /** The pace the run kept: the account's limits, or the in-flight bound alone without an account. */
  pace: z.object({ account: z.string().nullable(), rps: z.number().nullable(), in_flight: z.int().min(1) }),
  elapsed_ms: z.number().min(0),
});
export type BulkRunResult = z.output<typeof BulkRunResult>;

/** A chosen service of a row: carrier and service code. */
export const BulkChoice = z.object({ carrier: z.string(), service_code: z.string() });
export type BulkChoice = z.output<typeof BulkChoice>;

export const bulkOperations = {
  /**
   * Reads a file without quoting anything: columns, a preview, the mapping (given, or suggested from the
   * header) and every row as a shipment or a problem with its row number.
   */
  'bulk:parse': {
    input: z.strictObject({
      filename: z.string().min(1).max(260),
      content: FileBytes,
      mapping: BulkMapping.optional(),
      /**
       * Where rows without a from column ship from (the desk's «Откуда», a warehouse's place): then the from
       * columns are not required. A run with warehouse_id replaces every row's from with the warehouse's.
       */
      origin: Location.optional(),
    }),
    output: BulkParseResult,
  },
  /**
   * Quotes every row (bulk:progress per row, with the runKey), each stored in history as a desk quote; never
   * charged to an API balance. `account`: the run takes its tokens from that account's bucket (the one /v1
   * uses) and keeps within its in-flight bound, waiting for tokens rather than failing.
   */
  'bulk:run': {
    input: z.strictObject({
      runKey: BulkRunKey,
      rows: z.array(BulkShipment).min(1).max(MAX_BULK_ROWS),
      warehouse_id: Id.optional(),
      account: z.string().min(1).max(64).optional(),
    }),
    output: BulkRunResult,
  },
  /** Stops a run: no new row is asked; rows in flight finish and are kept. */
  'bulk:cancel': {
    input: z.strictObject({ runKey: BulkRunKey }),
    output: z.object({ cancelled: z.boolean() }),
  },
  /** The results as a file: a row per shipment with its cheapest, fastest and chosen service. */
  'bulk:export': {
    input: z.strictObject({
      format: z.enum(['csv', 'xlsx']),
      rows: z.array(BulkRowResult.extend({ chosen: BulkChoice.nullable().optional() })).max(MAX_BULK_ROWS),
      problems: z.array(BulkProblem).max(MAX_BULK_ROWS).default([]),
    }),
    output: ExportedFile,
  },
} as const;

/** One problem in English without its row number (the CLI's and the core's wording). */
export function describeBulkProblem(p: BulkProblem): string {
  const field = p.field ?? '';
  const v = JSON.stringify(p.value ?? '');
  switch (p.kind) {
    case 'empty_file':
      return 'the file is empty';
    case 'old_excel':
      return 'an Excel 97–2003 (.xls) or password-protected workbook: save it as .xlsx or "CSV UTF-8"';
    case 'bad_xlsx':
      return 'this file cannot be read as an Excel workbook: save it as "CSV UTF-8"';
    case 'not_utf8':
      return 'the text is not UTF-8 (save the file as "CSV UTF-8")';
    case 'unterminated_quote':
      return 'a quoted field is never closed; nothing after it could be read';
    case 'no_rows':
      return 'the file has a header but no rows';
    case 'too_many_rows':
      return `more than ${MAX_BULK_ROWS} rows`;
    case 'unmapped':
      return `no column is mapped to ${field}`;
    case 'no_place':
      return `${field}: neither a city nor a postal code`;
    case 'bad_postal_code':
      return `${field}: ${v} is not a 6-digit postal code`;
    case 'bad_weight':
      return `${field}: ${v} is not a weight from 1 g to 1000 kg`;
    case 'no_weight':
      return 'no weight';
    case 'bad_size':
      return `${field}: ${v} is not a size in whole centimetres from 1 to 500`;
    case 'bad_places':
      return `${field}: ${v} is not a number of places from 1 to 50`;
    case 'bad_money':
      return `${field}: ${v} is not an amount in roubles with at most 2 decimals`;
    case 'bad_date':
      return `${field}: ${v} is not a date (YYYY-MM-DD or DD.MM.YYYY)`;
    case 'bad_carriers':
      return `${field}: ${v} is not a list of carrier codes`;
  }
}
