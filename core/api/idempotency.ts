// Idempotency-Key on POST /v1/rates (design.md; IETF draft-ietf-httpapi-idempotency-key-header-06).
// Scope is the account (its keys share one balance). Completed outcomes are durable (written by the store's
// charge, in the same write as the debit); the in-flight claim is the store's claimIdempotency, with a lease
// (in this process for SQLite, which alone serves its data folder; shared for a server store).
import type { IncomingMessage } from 'node:http';
import type { QuoteShipment } from '../contract/quote-ext';
import type { Shipment } from '../contract/v1';
import { fingerprint } from '../util/fingerprint';
import { headerValues } from './headers';

/** Records are kept at least this long; afterwards the same key is a new request. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim of a running request holds before another request may take the key over: far beyond any
 * rates call (its deadline is seconds, rating.deadline_ms), so only a claim whose holder died ever expires.
 */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;

export type IdempotencyHeader = { ok: true; key: string | null } | { ok: false };

/** A bare token or an sf-string ("…"); 1–255 printable ASCII characters; at most one header field. */
export function parseIdempotencyKey(req: IncomingMessage): IdempotencyHeader {
  const values = headerValues(req, 'idempotency-key');
  if (!values) return { ok: true, key: null };
  if (values.length !== 1) return { ok: false };
  let v = values[0]!.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  if (!/^[\x21-\x7e]{1,255}$/.test(v)) return { ok: false };
  return { ok: true, key: v };
}

/**
 * The shipment as it means, for the fingerprint: `carriers: null` and no `carriers` are the same request, and
 * so are two lists naming the same carriers in another order, case or with repeats (codes match
 * case-insensitively). A list naming every carrier stays different from no list: it would not grow with a
 * carrier switched on later.
 */
export function shipmentFingerprint(shipment: Shipment): string {
  return fingerprint(meaning(shipment));
}

/**
 * POST /ext/v1/rates (#21): the same normalisation, and the endpoint is part of what is fingerprinted, so a key
 * used on /v1/rates and then on /ext/v1/rates is a reused key (422), never a replay of the other endpoint's
 * answer. /v1's fingerprint stays as it was, so records written before #21 still replay.
 */
export function quoteFingerprint(shipment: QuoteShipment): string {
  return fingerprint({ endpoint: 'POST /ext/v1/rates', shipment: meaning(shipment) });
}

function meaning<S extends { carriers?: string[] | null | undefined }>(shipment: S): S {
  const carriers =
    shipment.carriers == null
      ? undefined
      : [...new Set(shipment.carriers.map((c) => c.toLowerCase()))].sort();
  return { ...shipment, carriers };
}
