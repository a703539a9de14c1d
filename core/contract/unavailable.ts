// Why a carrier gave no rate, as a structured kind + detail. The kind travels end to end (aggregator, store,
// IPC, history) and each UI words it in its own language; the English reason text exists only for the /v1
// wire (`unavailable[].reason`, listed in docs/api.md).
import { z } from 'zod';

export const UNAVAILABLE_KINDS = [
  'no_service',
  'not_configured',
  'postal_code_required',
  'carrier_error',
  'timeout',
  'unknown_carrier',
  'disabled',
  /** The city is in no table or carrier directory: never reported as "no service" (#10). */
  'city_not_found',
  /** The parcel is over every service's published limits; decided without a network call (#10). */
  'exceeds_limits',
  /** The carrier's circuit breaker is open after repeated failures: not called until its cool-down ends (#10). */
  'temporarily_skipped',
  /**
   * Not called: the carrier's request quota for this install is used up, or this account's fair share of it
   * (PEK's 100 requests a minute, #16). Not a failure of the carrier; the detail says when it frees.
   */
  'carrier_busy',
] as const;
export const UnavailableKind = z.enum(UNAVAILABLE_KINDS);
export type UnavailableKind = z.output<typeof UnavailableKind>;

export const CarrierFailure = z.object({
  carrier: z.string(),
  kind: UnavailableKind,
  /** The carrier's or the network's own words (for carrier_error, not_configured); shown as a detail. */
  detail: z.string().optional(),
  /**
   * temporarily_skipped: how long until the carrier's breaker lets a request through again, when the core
   * knows (#17: the desk says until when). Not on the /v1 wire, whose reason text stays as it was.
   */
  retryInMs: z.int().min(0).optional(),
});
export type CarrierFailure = z.output<typeof CarrierFailure>;

/** The reason text of `unavailable[]` on the /v1 wire: stable English phrases (docs/api.md lists them). */
export function reasonText(u: Pick<CarrierFailure, 'kind' | 'detail'>): string {
  switch (u.kind) {
    case 'timeout':
      return 'timeout';
    case 'not_configured':
      return u.detail ? `not configured: ${u.detail}` : 'not configured';
    case 'no_service':
      return 'no service on this route';
    case 'postal_code_required':
      return 'postal code required';
    case 'carrier_error':
      return `carrier error: ${u.detail ?? 'unknown'}`;
    case 'unknown_carrier':
      return 'unknown carrier';
    case 'disabled':
      return 'disabled in settings';
    case 'city_not_found':
      return u.detail ? `city not found: ${u.detail}` : 'city not found';
    case 'exceeds_limits':
      return `parcel exceeds carrier limits: ${u.detail ?? 'size or weight'}`;
    case 'temporarily_skipped':
      return 'temporarily skipped after repeated failures';
    case 'carrier_busy':
      return `carrier busy: ${u.detail ?? 'its request quota is used up'}`;
  }
}

/**
 * Quotes stored before kinds were kept (and /v1 rows, which store the wire body) have only the reason text:
 * read it back into a kind once, here, so no UI ever parses English.
 */
export function failureFromReason(carrier: string, reason: string): CarrierFailure {
  const r = reason.trim();
  const lower = r.toLowerCase();
  const exact: Record<string, UnavailableKind> = {
    timeout: 'timeout',
    'no service on this route': 'no_service',
    'postal code required': 'postal_code_required',
    'unknown carrier': 'unknown_carrier',
    'disabled in settings': 'disabled',
    'not configured': 'not_configured',
    'city not found': 'city_not_found',
    'temporarily skipped after repeated failures': 'temporarily_skipped',
  };
  const kind = exact[lower];
  if (kind) return { carrier, kind };
  if (lower.startsWith('not configured:'))
    return { carrier, kind: 'not_configured', detail: r.slice(15).trim() };
  if (lower.startsWith('carrier error:'))
    return { carrier, kind: 'carrier_error', detail: r.slice(14).trim() };
  if (lower.startsWith('city not found:'))
    return { carrier, kind: 'city_not_found', detail: r.slice(15).trim() };
  if (lower.startsWith('parcel exceeds carrier limits:'))
    return { carrier, kind: 'exceeds_limits', detail: r.slice(30).trim() };
  if (lower.startsWith('carrier busy:')) return { carrier, kind: 'carrier_busy', detail: r.slice(13).trim() };
  return { carrier, kind: 'carrier_error', detail: r };
}
