// POST /v1/rates and POST /ext/v1/rates (#21) after authentication and rate limiting: body → schema →
// idempotency → balance → carriers → one durable charge. Nothing is charged unless a 200 is sent; a replay is
// never charged again. The two endpoints are one path: only the schema, the fingerprint and the rates' shape
// differ (RatesEndpoint), so the extension cannot drift from /v1's money and error rules.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import {
  QuoteRequest,
  toV1Rate,
  totalWeightGrams,
  type QuoteRate,
  type QuoteShipment,
} from '../contract/quote-ext';
import { Shipment, type Rate, type Unavailable } from '../contract/v1';
import { safePropertyName } from '../keys/redact';
import type { IdempotencyRecord, KeyAuthRow } from '../store/port';
import type { ApiRuntime } from './runtime';
import { isJsonContentType } from './body';
import {
  IDEMPOTENCY_RETENTION_MS,
  parseIdempotencyKey,
  quoteFingerprint,
  shipmentFingerprint,
} from './idempotency';
import { readJsonObject } from './json-body';
import { sendError, sendJson, withHeaders, type HeaderList } from './respond';

/** What differs between the rates endpoints; everything else (auth, limits, money, errors) is shared. */
export interface RatesEndpoint<S extends Shipment | QuoteShipment> {
  schema: z.ZodType<S>;
  /** The idempotency fingerprint: a key reused on the other endpoint never matches (it names the endpoint). */
  fingerprint(shipment: S): string;
  /** The rates as this endpoint sends them (and history stores them). */
  rates(rates: readonly QuoteRate[]): Array<Rate | QuoteRate>;
}

/** The spec's endpoint: the spec's Shipment, the spec's fields of each rate (toV1Rate), as before #21. */
export const V1_RATES: RatesEndpoint<Shipment> = {
  schema: Shipment,
  fingerprint: shipmentFingerprint,
  rates: (rates) => rates.map(toV1Rate),
};

/** The clerk's quote (#21): QuoteRequest in, every QuoteRate field out. */
export const EXT_RATES: RatesEndpoint<QuoteShipment> = {
  schema: QuoteRequest,
  fingerprint: quoteFingerprint,
  rates: (rates) => [...rates],
};

/** The 200 body of either endpoint (RatesResponse or QuoteResponse), fields in the spec's order. */
interface RatesBody {
  request_id: string;
  rates: Array<Rate | QuoteRate>;
  unavailable: Unavailable[];
  balance_remaining: number;
}

/**
 * Failures caused by the shipment as sent, not by the carrier's state: when every carrier failed with one of
 * these (or was never asked), a retry of the same body cannot succeed, so the answer is 422, not 503 with a
 * Retry-After that would invite a loop. "No service on this route" stays a 503: it is the carrier's current
 * offer, which does change.
 */
const SHIPMENT_FAILURES = new Set<string>([
  'city_not_found',
  'exceeds_limits',
  'postal_code_required',
  'unknown_carrier',
  'disabled',
]);

/** Seconds a client should wait after a 503 (all carriers failed), with jitter against thundering herds. */
function retryAfterUnavailable(): string {
  return String(5 + Math.floor(Math.random() * 3));
}

export async function handleRates<S extends Shipment | QuoteShipment>(
  rt: ApiRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  auth: KeyAuthRow,
  requestId: string,
  headers: HeaderList,
  endpoint: RatesEndpoint<S>,
): Promise<void> {
  if (!isJsonContentType(req)) return sendError(res, 'unsupported_media_type', requestId, headers);
  const idem = parseIdempotencyKey(req);
  if (!idem.ok) return sendError(res, 'invalid_idempotency_key', requestId, headers);
  const raw = await readJsonObject(req, res, requestId, headers);
  if (raw === undefined) return;
  const parsed = endpoint.schema.safeParse(raw);
  if (!parsed.success) {
    return sendError(res, 'validation_failed', requestId, headers, {
      details: issuesToDetails(parsed.error),
    });
  }
  const shipment = parsed.data;
  const accountId = auth.account_id;
  const key = idem.key;
  const fp = key === null ? '' : endpoint.fingerprint(shipment);

  let releaseClaim: (() => void) | null = null;
  // Nobody waits for a release: one that fails (a lost connection) expires with its lease instead.
  const quietly = (release: () => Promise<void>) => (): void =>
    void release().catch((error: unknown) =>
      rt.logger.warn('a hold or claim release failed; it expires with its lease', { error: String(error) }),
    );
  if (key !== null) {
    const claim = await rt.store.claimIdempotency({
      accountId,
      key,
      fingerprint: fp,
      nowMs: rt.clock.now().getTime(),
      retentionMs: IDEMPOTENCY_RETENTION_MS,
      leaseMs: rt.idempotencyLeaseMs,
    });
    if (claim.state === 'mismatch') return sendError(res, 'idempotency_key_reused', requestId, headers);
    if (claim.state === 'done') return replay(res, claim.record, headers);
    if (claim.state === 'in_flight') {
      return sendError(res, 'idempotency_key_in_use', requestId, headers, {
        headers: { 'Retry-After': '1' },
      });
    }
    releaseClaim = quietly(claim.release);
  }

  // Holds one request of balance while the carriers are asked, so parallel calls cannot overdraw.
  let hold: Awaited<ReturnType<ApiRuntime['store']['reserve']>>;
  try {
    hold = await rt.store.reserve(accountId, rt.maxInFlightPerAccount());
  } catch (error) {
    releaseClaim?.();
    throw error;
  }
  if (!hold.ok) {
    releaseClaim?.();
    if (hold.reason === 'insufficient_balance')
      return sendError(res, 'insufficient_balance', requestId, headers);
    // The holds are the account's calls in flight. Past its bound the client is told to slow down, as the
    // spec says for 429: one account's hung calls must not hold every connection to a carrier (#16).
    return sendError(res, 'rate_limit_exceeded', requestId, headers, {
      headers: { 'Retry-After': '1' },
      details: [
        { path: '(account)', message: `at most ${rt.maxInFlightPerAccount()} rates calls in flight at once` },
      ],
    });
  }
  const release = quietly(hold.release);

  // A client that disconnects before its charge commits is charged nothing, and its carrier calls stop: an
  // answer nobody receives must not cost a request that, without an Idempotency-Key, could never be fetched.
  const gone = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) gone.abort(new Error('client disconnected'));
  };
  res.once('close', onClose);
  try {
    const result = await rt.quote(shipment, String(accountId), gone.signal);
    if (gone.signal.aborted) return;
    if (result.nothingQueried) {
      return sendError(res, 'no_queryable_carrier', requestId, headers, { unavailable: result.unavailable });
    }
    if (result.rates.length === 0 && result.failures.every((f) => SHIPMENT_FAILURES.has(f.kind))) {
      return sendError(res, 'shipment_not_served', requestId, headers, { unavailable: result.unavailable });
    }
    if (result.rates.length === 0) {
      return sendError(res, 'rates_unavailable', requestId, headers, {
        unavailable: result.unavailable,
        headers: { 'Retry-After': retryAfterUnavailable() },
      });
    }
    const now = rt.clock.now();
    // The signal is checked again inside the write: the commit is the last moment the client can be spared.
    const charged = await rt.store.charge({
      signal: gone.signal,
      hold,
      accountId,
      requestId,
      now,
      body: (balanceRemaining) => {
        const body: RatesBody = {
          request_id: requestId,
          // /v1: the spec's fields only; fees, dates and customer prices are the extension's (/ext/v1/rates).
          rates: endpoint.rates(result.rates),
          unavailable: result.unavailable,
          balance_remaining: balanceRemaining,
        };
        return JSON.stringify(body);
      },
      ...(key !== null
        ? {
            idempotency: {
              key,
              fingerprint: fp,
              createdAtMs: now.getTime(),
              notBeforeMs: now.getTime() - IDEMPOTENCY_RETENTION_MS,
            },
          }
        : {}),
      history: (body) => ({
        request_id: requestId,
        source: 'api',
        created_at: now.toISOString(),
        from_city: shipment.from.city,
        to_city: shipment.to.city,
        // Every place, counts expanded (a /v1 shipment: its one parcel, as before #21).
        weight_grams: totalWeightGrams(shipment),
        cheapest_kopecks: result.rates[0]?.price_kopecks ?? null,
        carriers: [...new Set(result.rates.map((r) => r.carrier))].join(','),
        sandbox: rt.isSandbox() ? 1 : 0,
        shipment_json: JSON.stringify(shipment),
        result_json: body,
        author: null,
        warehouse: null,
      }),
    });
    if (!charged.ok) {
      if (charged.reason === 'client_gone') return;
      if (charged.reason === 'already_done') {
        if (charged.record.fingerprint !== fp)
          return sendError(res, 'idempotency_key_reused', requestId, headers);
        return replay(res, charged.record, headers);
      }
      return sendError(res, 'insufficient_balance', requestId, headers);
    }
    rt.onBalanceChanged(accountId, charged.balance);
    if (charged.lowBalance) rt.onLowBalance(charged.lowBalance);
    sendJson(res, 200, charged.body, headers);
  } finally {
    res.off('close', onClose);
    release();
    releaseClaim?.();
  }
}

/** Byte-for-byte replay of a completed request, including its request_id (also in X-Request-Id). */
function replay(res: ServerResponse, record: IdempotencyRecord, headers: HeaderList): void {
  sendJson(
    res,
    record.status,
    record.body,
    withHeaders(headers, { 'X-Request-Id': record.request_id, 'Idempotent-Replayed': 'true' }),
  );
}

/** zod issues as `{path, message}` with a JSON-pointer-like dotted path (`parcel.weight_grams`, `carriers[0]`). */
export function issuesToDetails(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.flatMap((issue) => {
    const base = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({
        path: base ? `${base}.${safePropertyName(k)}` : safePropertyName(k),
        message: 'unknown property',
      }));
    }
    return [{ path: base || '(root)', message: issue.message }];
  });
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path)
    out += typeof p === 'number' ? `[${p}]` : out ? `.${safePropertyName(p)}` : safePropertyName(p);
  return out;
}
