// Rate cards (#10 item 2): a carrier without an API, quoted from a CSV of contract prices. The schemas of its
// operations, the problems a refused file is reported with (each with its line number) and their English
// wording (the admin CLI's and the core's messages; the renderer words the same kinds in its own language).
// Renderer-safe: zod and constants only.
import { z } from 'zod';
import { CarrierStatus, DeliveryType } from '../v1';
import { RATE_CARD_REQUIRED_COLUMNS } from '../ratecard-columns';
import { NoInput, Timestamp } from './common';

export * from '../ratecard-columns';

/** A rate card's carrier code: what /v1 shows as `carrier` and what `carriers: [...]` filters on. */
export const RATE_CARD_CODE_PATTERN = /^[a-z0-9-]{1,40}$/;
export const RateCardCode = z
  .string()
  .trim()
  .regex(RATE_CARD_CODE_PATTERN, 'code must be 1–40 lower-case latin letters, digits or hyphens');

/** The carrier name quotes show (`carrier_name`): free text, one line. */
export const RateCardName = z
  .string()
  .trim()
  .min(1, 'name is required')
  .max(64, 'name must be at most 64 characters')
  .regex(/^[^\p{Cc}]*$/u, 'name must not contain control characters');

/** cm³ per kg: volumetric weight = L×W×H / divisor. 5000 is the common courier divisor. */
export const DEFAULT_VOLUMETRIC_DIVISOR = 5000;
export const VolumetricDivisor = z
  .int('volumetric_divisor must be a whole number')
  .min(500, 'volumetric_divisor must be at least 500')
  .max(20_000, 'volumetric_divisor must be at most 20000');

/** 10 MB of text and 100,000 rows: far above a real contract card (prefixes × bands × services). */
export const MAX_RATE_CARD_TEXT = 10_000_000;
export const MAX_RATE_CARD_ROWS = 100_000;
/**
 * A refused file lists its first 100 problems and counts the rest ("… and N more"): the desk's dialog, the
 * CLI's message and its JSON alike. Fixing the first lines is what the reader does next anyway.
 */
export const MAX_LISTED_RATE_CARD_PROBLEMS = 100;
export const RateCardText = z
  .string()
  .max(MAX_RATE_CARD_TEXT, `the file must be at most ${MAX_RATE_CARD_TEXT} characters`);
/** A file as chosen (10 MB at most), base64: CSV in UTF-8 or an Excel workbook, told apart by the core. */
export const MAX_RATE_CARD_FILE_BYTES = 10_000_000;
export const RateCardBytes = z
  .base64('file must be base64')
  .max(
    Math.ceil(MAX_RATE_CARD_FILE_BYTES / 3) * 4,
    `the file must be at most ${MAX_RATE_CARD_FILE_BYTES} bytes`,
  );
/** A rate card's content: its text (the CLI, the tests), or the file's bytes (the desk's file picker). */
const RateCardContent = { csv: RateCardText.optional(), file: RateCardBytes.optional() };
const oneContent = (v: { csv?: string | undefined; file?: string | undefined }): boolean =>
  (v.csv === undefined) !== (v.file === undefined);
const ONE_CONTENT = { message: 'give either csv (the text) or file (the bytes, base64)' };

/** Every reason a line of a rate card can be refused for. */
export const RATE_CARD_PROBLEM_KINDS = [
  /** The file holds nothing but whitespace. */
  'empty_file',
  /** An Excel 97–2003 workbook (.xls) or a password-protected one: an OLE2 file, not read. */
  'old_excel',
  /** A ZIP that is no Excel workbook RateDesk can read (damaged, ODS, ZIP64, encrypted, a sheet too big). */
  'bad_xlsx',
  /** Bytes that are not UTF-8 (a file saved as Windows-1251, say). */
  'not_utf8',
  /** A quoted field that never ends; nothing after it can be read. */
  'unterminated_quote',
  'missing_column',
  'unknown_column',
  'duplicate_column',
  /** More fields than the header has columns. */
  'too_many_fields',
  /** A header and no rows. */
  'no_rows',
  'too_many_rows',
  /** A required value left empty. */
  'empty_value',
  /** from/to: more than 6 digits. */
  'bad_place',
  /** from/to: a name the city table does not know. */
  'unknown_city',
  'bad_weight',
  'bad_price',
  'bad_days',
  /** days_min > days_max. */
  'days_order',
  'bad_delivery_type',
  'bad_percent',
  'bad_service_code',
  'bad_service_name',
  /** Two rows of one service with a different service_name or delivery_type. */
  'service_mismatch',
  /** The same service, from, to and max_weight_grams as an earlier line. */
  'duplicate_row',
] as const;
export const RateCardProblemKind = z.enum(RATE_CARD_PROBLEM_KINDS);
export type RateCardProblemKind = z.output<typeof RateCardProblemKind>;

export const RateCardProblem = z.object({
  /** 1-based line of the file (the header is line 1); a quoted field spanning lines counts from its start. */
  line: z.int().min(1),
  kind: RateCardProblemKind,
  /** The column concerned, when there is one (its English name). */
  column: z.string().optional(),
  /** That column's header as the file writes it (`цена, ₽`), when the file has the column. */
  header: z.string().optional(),
  /** The offending text as found (shortened to 60 characters). */
  value: z.string().optional(),
  /** The earlier line a duplicate or a mismatch refers to. */
  other_line: z.int().min(1).optional(),
});
export type RateCardProblem = z.output<typeof RateCardProblem>;

export const RateCardService = z.object({
  /** As on the wire: `<card code>:<service_code>`, or `<card code>:<delivery_type>` without one. */
  service_code: z.string(),
  service_name: z.string(),
  delivery_type: DeliveryType,
});
export type RateCardService = z.output<typeof RateCardService>;

export const RateCardView = z.object({
  code: z.string(),
  name: z.string(),
  volumetric_divisor: z.int(),
  rows: z.int(),
  services: z.array(RateCardService),
  /** The largest band: heavier (billable) parcels get no rate from this card. */
  max_weight_grams: z.int(),
  /** When this version of the card was imported (a re-import replaces the card and this time). */
  created_at: Timestamp,
  /** Health as for any carrier: unknown until its first quote. */
  status: CarrierStatus,
});
export type RateCardView = z.output<typeof RateCardView>;

export const RateCardCheck = z.object({
  /** Rows that would be imported (blank lines are not rows). */
  rows: z.int(),
  services: z.int(),
  /** The first problems (at most MAX_LISTED_RATE_CARD_PROBLEMS), in line order; empty: it would be imported. */
  problems: z.array(RateCardProblem).max(MAX_LISTED_RATE_CARD_PROBLEMS),
  /** Problems beyond the listed ones. */
  more_problems: z.int().min(0),
  /** Lines with a problem, listed or not. */
  bad_lines: z.int().min(0),
});
export type RateCardCheck = z.output<typeof RateCardCheck>;

export const rateCardOperations = {
  'ratecards:list': { input: NoInput, output: z.array(RateCardView) },
  /**
   * Reads a file without storing anything: every problem with its line, for the desk to show line by line
   * in its own language before (and instead of) an import that would be refused.
   */
  'ratecards:check': {
    input: z.strictObject(RateCardContent).refine(oneContent, ONE_CONTENT),
    output: RateCardCheck,
  },
  /**
   * Stores the card, replacing one of the same code in the same transaction. A file with any problem is
   * refused whole (OperationError 'invalid', one `line N: reason` per problem in the message).
   */
  'ratecards:import': {
    input: z
      .strictObject({
        code: RateCardCode,
        name: RateCardName,
        ...RateCardContent,
        volumetric_divisor: VolumetricDivisor.default(DEFAULT_VOLUMETRIC_DIVISOR),
      })
      .refine(oneContent, ONE_CONTENT),
    output: RateCardView.extend({ replaced: z.boolean() }),
  },
  'ratecards:remove': {
    input: z.strictObject({ code: z.string().trim().min(1).max(40) }),
    output: z.object({ code: z.string(), name: z.string() }),
  },
  /**
   * A file to start from: the header (in the UI language's words, ui.language, as history:export) and two
   * example rows, as CSV (UTF-8 with a BOM, `;`, as Excel opens it) or as an Excel workbook; the importer
   * reads either back unchanged.
   */
  'ratecards:template': {
    input: z.strictObject({ format: z.enum(['csv', 'xlsx']) }),
    output: z.object({ filename: z.string(), mime: z.string(), base64: z.string() }),
  },
} as const;

const COLUMN_LIST = RATE_CARD_REQUIRED_COLUMNS.join(', ');
const DELIVERY_TYPES = DeliveryType.options.join(', ');

/** One problem in English, without its line number: "price_rub: "12,345" has more than 2 decimals". */
export function describeRateCardProblem(p: RateCardProblem): string {
  const col = p.column ?? '';
  const v = JSON.stringify(p.value ?? '');
  switch (p.kind) {
    case 'empty_file':
      return 'the file is empty';
    case 'old_excel':
      return 'this is an Excel 97–2003 (.xls) or password-protected workbook: save it as .xlsx or "CSV UTF-8"';
    case 'bad_xlsx':
      return 'this file cannot be read as an Excel workbook: save it as "CSV UTF-8"';
    case 'not_utf8':
      return 'the text is not UTF-8 (save the file as "CSV UTF-8")';
    case 'unterminated_quote':
      return 'a quoted field is never closed; nothing after it could be read';
    case 'missing_column':
      return `the header has no column ${col} (required: ${COLUMN_LIST})`;
    case 'unknown_column':
      return `unknown column ${v} in the header`;
    case 'duplicate_column':
      return `column ${col} appears twice in the header`;
    case 'too_many_fields':
      return `more fields than the header has columns (${p.value ?? '?'})`;
    case 'no_rows':
      return 'the file has a header but no rows';
    case 'too_many_rows':
      return `more than ${MAX_RATE_CARD_ROWS} rows`;
    case 'empty_value':
      return `${col} is empty`;
    case 'bad_place':
      return `${col}: ${v} is not a city, a postal-code prefix of 1–6 digits or *`;
    case 'unknown_city':
      return `${col}: city ${v} is not in the city table (use a postal-code prefix or *)`;
    case 'bad_weight':
      return `${col}: ${v} is not a whole number of grams from 1 to 1000000`;
    case 'bad_price':
      return `${col}: ${v} is not a price in roubles with at most 2 decimals (1234.50 or 1 234,50)`;
    case 'bad_days':
      return `${col}: ${v} is not a whole number of days from 0 to 365`;
    case 'days_order':
      return `days_min is greater than days_max (${p.value ?? '?'})`;
    case 'bad_delivery_type':
      return `${col}: ${v} is not one of ${DELIVERY_TYPES}`;
    case 'bad_percent':
      return `${col}: ${v} is not a percent from 0 to 100 with at most 2 decimals`;
    case 'bad_service_code':
      return `${col}: ${v} must be 1–40 latin letters, digits, ".", "_" or "-"`;
    case 'bad_service_name':
      return `${col}: at most 120 characters, without control characters`;
    case 'service_mismatch':
      return `${col} differs from line ${p.other_line ?? '?'} of the same service (${v})`;
    case 'duplicate_row':
      return `the same service, from, to and max_weight_grams as line ${p.other_line ?? '?'}`;
  }
}

/**
 * The message of a refused import: a summary line, then `line N: reason` for every listed problem, then how
 * many more there are.
 */
export function describeRateCardProblems(
  report: Pick<RateCardCheck, 'problems' | 'more_problems' | 'bad_lines'>,
): string {
  const lines = report.bad_lines;
  const head = `The rate card was refused and nothing was imported: ${lines} bad ${lines === 1 ? 'line' : 'lines'}.`;
  const listed = report.problems.map((p) => `line ${p.line}: ${describeRateCardProblem(p)}`);
  const more = report.more_problems;
  const tail = more > 0 ? [`… and ${more} more ${more === 1 ? 'problem' : 'problems'}.`] : [];
  return [head, ...listed, ...tail].join('\n');
}
