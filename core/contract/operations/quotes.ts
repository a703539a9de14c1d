// Quoting from the desk (results stream in as quote:progress events), city suggestions, and history.
import { z } from 'zod';
import { CarrierFailure, UnavailableKind } from '../unavailable';
import { PickupPoint } from '../points';
import { QuoteRate, QuoteRequest } from '../quote-ext';
import { MAX_CARRIER_CODE_LENGTH, MAX_CARRIERS_FILTER, Rate } from '../v1';
import { Id, Timestamp } from './common';

/** Chosen by the renderer per run, so it can tell which quote:progress events belong to which form. */
export const QuoteKey = z.string().min(1).max(64);

/**
 * A fresh key for one run (a quote, a re-run from History): every desk screen takes it from here. A page
 * outside a secure context has no crypto.randomUUID, hence the fallback (unique enough for one desk).
 */
export function newQuoteKey(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `q-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  );
}

export const DeskQuoteResult = z.object({
  request_id: z.string(),
  /** Row id in history (history:get / history:rerun / history:curl take it). */
  quote_id: Id,
  sandbox: z.boolean(),
  /** Cheapest first, each with its fees, dates and customer price (#21). */
  rates: z.array(QuoteRate),
  /** Carriers that gave no rate, as kinds: each UI words them in its own language (no English here). */
  failures: z.array(CarrierFailure),
});
export type DeskQuoteResult = z.output<typeof DeskQuoteResult>;

export const QuoteProgress = z.discriminatedUnion('state', [
  z.object({ carrier: z.string(), state: z.literal('waiting') }),
  z.object({
    carrier: z.string(),
    state: z.literal('answered'),
    rates: z.array(QuoteRate),
    elapsedMs: z.number(),
  }),
  z.object({
    carrier: z.string(),
    state: z.literal('unavailable'),
    kind: UnavailableKind,
    detail: z.string().optional(),
    /** temporarily_skipped: how long until the carrier may be asked again (CarrierFailure.retryInMs). */
    retryInMs: z.int().min(0).optional(),
    elapsedMs: z.number(),
  }),
]);
export type QuoteProgress = z.output<typeof QuoteProgress>;

/** How a typed text names a place (CitySuggestion.match). */
export const CITY_MATCHES = ['exact', 'alias', 'postal', 'prefix', 'closest'] as const;
export type CityMatch = (typeof CITY_MATCHES)[number];

/** exact, alias and postal: the text names the place (a recognised city); prefix and closest do not. */
export function namesPlace(match: CityMatch): boolean {
  return match === 'exact' || match === 'alias' || match === 'postal';
}

export const CitySuggestion = z.object({
  name: z.string(),
  /** Empty for a recent place the city table does not know; "Москва" for Зеленоград. */
  region: z.string(),
  /** The town's main index; for a `postal` match, the index as typed (it is the address's own). */
  postal_code: z.string().nullable(),
  /** True for a place taken from quote history (listed before the table's cities of its kind). */
  recent: z.boolean(),
  /**
   * How the typed text names this place: `exact` (its name), `alias` (a short form, nickname or Latin
   * spelling: "спб", "Питер", "Moscow", or the name typed in the Latin layout: "Rfpfym"), `postal` (its
   * postal index), `prefix` (only the start of its name), `closest` (nothing starts with the text; this is
   * among the nearest names). exact, alias and postal are a recognised place; prefix and closest are not.
   * core/locations/city-search.ts has the rules.
   */
  match: z.enum(CITY_MATCHES),
  /**
   * Why choosing this place for the text must be confirmed before a quote goes out: `ambiguous` (several
   * places answer to the text: namesakes, or an index several towns share) or `far` (its name only starts
   * with the text, and the text names another town: «Зеленоградск» for «Зеленоград»). Null: it is what the
   * text says.
   */
  confirm: z.enum(['ambiguous', 'far']).nullable(),
});
export type CitySuggestion = z.output<typeof CitySuggestion>;

export const Source = z.enum(['desk', 'api']);

export const HistoryRow = z.object({
  id: Id,
  created_at: Timestamp,
  /** `api` rows are /v1 calls from local tools; `desk` rows are quotes made in the app. */
  source: Source,
  from_city: z.string(),
  to_city: z.string(),
  weight_grams: z.number(),
  cheapest_kopecks: z.number().nullable(),
  /** The carrier of the cheapest rate (the first of several at that price); null when none answered (#17). */
  cheapest_carrier: z.string().nullable(),
  /** Carriers that answered with at least one rate. */
  carriers: z.array(z.string()),
  /** Carriers that gave no rate, as kinds: a non-empty list marks a partial answer in the list (#17). */
  failures: z.array(CarrierFailure),
  sandbox: z.boolean(),
  /** Who asked (#20): a desk user's name on a company server; null for this computer's desk and /v1. */
  author: z.string().nullable(),
  /** The warehouse it was quoted from, by the name it had then; null when none was picked. */
  warehouse: z.string().nullable(),
  /** The clerk's quote (#21): places with counts expanded (1 for a /v1 shipment); `weight_grams` is all of them. */
  places: z.int().min(1),
  /** Cash on delivery asked (0: none, and for every /v1 shipment). */
  cod_kopecks: z.int().min(0),
  /** The ship date asked; null: today at the time (every /v1 shipment). */
  ship_date: z.string().nullable(),
});
export type HistoryRow = z.output<typeof HistoryRow>;

export const HistoryQuote = z.object({
  id: Id,
  request_id: z.string(),
  created_at: Timestamp,
  source: Source,
  sandbox: z.boolean(),
  /** As asked; quotes before #21 are /v1 shipments (one parcel, no COD), which this reads unchanged. */
  shipment: QuoteRequest,
  /** Rates stored before #21 have only the /v1 fields. */
  rates: z.array(z.union([QuoteRate, Rate])),
  /** Carriers that gave no rate, as kinds (read back from the wire text for /v1 rows and older desk rows). */
  failures: z.array(CarrierFailure),
  author: z.string().nullable(),
  warehouse: z.string().nullable(),
});
export type HistoryQuote = z.output<typeof HistoryQuote>;

export const PriceChange = z.object({
  service_code: z.string(),
  carrier: z.string(),
  service_name: z.string(),
  /** Null: the service was not offered the first time. */
  before_kopecks: z.number().nullable(),
  /** Null: the service is not offered any more. */
  after_kopecks: z.number().nullable(),
});
export type PriceChange = z.output<typeof PriceChange>;

export const RerunResult = z.object({
  quote: DeskQuoteResult,
  /** Every service of either run (unchanged ones too, so the UI can show "no change"), cheapest now first. */
  changes: z.array(PriceChange),
});
export type RerunResult = z.output<typeof RerunResult>;

export const ExportedFile = z.object({ filename: z.string(), mime: z.string(), base64: z.string() });
export type ExportedFile = z.output<typeof ExportedFile>;

export const quoteOperations = {
  /** Progress of this run arrives as 'quote:progress' events carrying the same quoteKey. */
  'quote:run': {
    input: z.strictObject({
      quoteKey: QuoteKey,
      /** The /v1 shipment or the clerk's (COD, several places, a ship date: #21). */
      shipment: QuoteRequest,
      /**
       * «Спросить сейчас» (#17): carriers the desk's breaker skips for now that this run asks anyway, once,
       * as the breaker's probe. Only the desk's own breaker and the carrier's (never another account's), and
       * never before a Retry-After the carrier itself gave.
       */
      probe: z.array(z.string().min(1).max(MAX_CARRIER_CODE_LENGTH)).max(MAX_CARRIERS_FILTER).optional(),
      /** «Откуда» (#20): the warehouse's place replaces `shipment.from`, and History names it. */
      warehouse_id: Id.optional(),
    }),
    output: DeskQuoteResult,
  },
  /**
   * One stored quote (the result on the Quote screen) as a CSV or XLSX file: the columns of history:export,
   * written by the same writers, one row per rate. `points`: the pickup point chosen in the desk per rate
   * (#21), written in that rate's row (a rate matched by carrier and service code).
   */
  'quote:export': {
    input: z.strictObject({
      id: Id,
      format: z.enum(['csv', 'xlsx']),
      points: z
        .array(
          z.strictObject({
            carrier: z.string().min(1).max(MAX_CARRIER_CODE_LENGTH),
            service_code: z.string().min(1).max(200),
            point: PickupPoint,
          }),
        )
        .max(500)
        .optional(),
    }),
    output: ExportedFile,
  },
  'cities:search': {
    input: z.strictObject({
      query: z.string().max(120),
      limit: z.int().min(1).max(20).default(10),
      /** The postal code typed beside the city: it picks among namesakes (then nothing asks to confirm). */
      postal_code: z
        .string()
        .regex(/^\d{6}$/)
        .optional(),
    }),
    output: z.array(CitySuggestion),
  },
  'history:search': {
    input: z.strictObject({
      text: z.string().max(200).default(''),
      /** Exact author name / warehouse name (#20). */
      author: z.string().max(64).optional(),
      warehouse: z.string().max(80).optional(),
      limit: z.int().min(1).max(500).default(50),
      offset: z.int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    }),
    output: z.array(HistoryRow),
  },
  'history:get': { input: z.strictObject({ id: Id }), output: HistoryQuote },
  'history:rerun': { input: z.strictObject({ id: Id, quoteKey: QuoteKey }), output: RerunResult },
  'history:export': {
    input: z.strictObject({
      format: z.enum(['csv', 'xlsx']),
      text: z.string().max(200).optional(),
      author: z.string().max(64).optional(),
      warehouse: z.string().max(80).optional(),
    }),
    output: ExportedFile,
  },
  /** A shell command for POST /v1/rates with this quote's shipment; the key stays $RATEDESK_API_KEY. */
  'history:curl': { input: z.strictObject({ id: Id }), output: z.string() },
} as const;
