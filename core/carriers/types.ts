import type { CarrierRate } from '../contract/quote-ext';
import type { Parcel } from '../contract/v1';
import { CARRIER_DESCRIPTORS, type BuiltInDescriptor } from './built-in';
import type { CarrierLimits } from './limits';
import type { CarrierPointDirectory } from './point-directory';

/** A location as the aggregator hands it to adapters: each adapter maps it to its own location key. */
export interface QuoteLocation {
  city: string;
  postalCode: string | null;
}

export interface CarrierQuoteRequest {
  from: QuoteLocation;
  to: QuoteLocation;
  /**
   * The first box. Kept while adapters move to `places` (#21); an adapter that reads only this prices one box
   * of several.
   */
  parcel: Parcel;
  /** Every box of the shipment, one entry per box (counts expanded), at least one. */
  places: readonly Parcel[];
  /** The value to insure (объявленная ценность), kopecks; 0: none declared. */
  declaredValueKopecks: number;
  /** Cash on delivery the recipient pays (наложенный платёж), kopecks; 0: none. */
  codKopecks: number;
  /** The day the parcel is handed over (YYYY-MM-DD, Moscow): what a carrier's produceDate/pickupDate takes. */
  shipDate: string;
}

/**
 * Why a carrier gave no rate. The aggregator turns these into the `unavailable[].reason` text
 * (docs/api.md lists them); `timeout` and unexpected exceptions are produced by the aggregator itself.
 */
export type CarrierFailure =
  | { kind: 'no_service'; detail?: string }
  | { kind: 'not_configured'; detail?: string }
  | { kind: 'postal_code_required' }
  | { kind: 'city_not_found'; detail?: string }
  | { kind: 'exceeds_limits'; detail: string }
  | { kind: 'carrier_error'; detail: string }
  /**
   * Not called: the carrier's own quota for this install (PEK's 100 requests a minute) is used up, or this
   * account has used its fair share of it. Says nothing about the carrier, so it never counts as a failure.
   */
  | { kind: 'carrier_busy'; detail: string };

export type CarrierOutcome = { ok: true; rates: CarrierRate[] } | ({ ok: false } & CarrierFailure);

export interface CarrierContext {
  /** Aborted when the per-carrier timeout or the overall deadline passes. */
  signal: AbortSignal;
  /**
   * Who asked (an account id, 'desk', 'check'): a carrier whose quota is the whole install's (PEK) gives each
   * its fair share of it. Absent: one anonymous asker.
   */
  account?: string;
}

export interface CarrierAdapter {
  /** Wire code used in /v1 (`carrier` of a Rate, items of the `carriers` filter). */
  readonly code: string;
  /** Display name, Russian: it goes to `carrier_name`. */
  readonly name: string;
  /**
   * The carrier's published parcel limits. The platform checks them before calling `quote` and answers
   * `exceeds_limits` itself, with no network call (#10).
   */
  readonly limits?: CarrierLimits;
  /** This carrier's own timeout (setting carriers.<code>.timeout_ms); the rating default when absent. */
  readonly timeoutMs?: number;
  quote(request: CarrierQuoteRequest, context: CarrierContext): Promise<CarrierOutcome>;
  /**
   * Optional: fetch now what every quote of this carrier needs whatever the route, and then keeps (a whole
   * directory, such as Boxberry's city list), so that the first quote after start does not wait for it. Called
   * by the service's warm-up (core/platform/warm-up.ts), never by a quote; never a price call, never a
   * per-place lookup. Resolves when done or given up (a failure is the next quote's to report); rejects only
   * on the signal's abort.
   */
  prepare?(context: PrepareContext): Promise<void>;
  /** The carrier's pickup-point directory (#21, core/points/), where it publishes one RateDesk reads. */
  readonly points?: CarrierPointDirectory;
}

export interface PrepareContext {
  signal: AbortSignal;
  /**
   * The adapter talks to the real carrier (live mode, not its simulator): only a download that is cheap and
   * certain to be used may be made then (docs/carriers.md, "Warm-up"), never one under a quota.
   */
  live: boolean;
}

/** The carriers this build knows, in display order (core/carriers/built-in.ts). */
export const CARRIER_CODES = CARRIER_DESCRIPTORS.map((d) => d.code) as readonly CarrierCode[] as CodesOf<
  typeof CARRIER_DESCRIPTORS
>;
type CodesOf<L extends readonly { code: string }[]> = { readonly [I in keyof L]: L[I]['code'] };
export type CarrierCode = BuiltInDescriptor['code'];

/** Display names, Russian (they go to `carrier_name`), from the descriptors: naming a carrier loads no adapter. */
export const CARRIER_NAMES = Object.fromEntries(CARRIER_DESCRIPTORS.map((d) => [d.code, d.name])) as Record<
  CarrierCode,
  string
>;
/** Display names in the English UI and English exports, from the same descriptors. */
export const CARRIER_NAMES_EN = Object.fromEntries(
  CARRIER_DESCRIPTORS.map((d) => [d.code, d.nameEn]),
) as Record<CarrierCode, string>;
