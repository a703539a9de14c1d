// POST /v1/rates after authentication and rate limiting: body → schema → idempotency → balance → carriers →
// one durable charge. Nothing is charged unless a 200 is sent; a replay is never charged again.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { Shipment, type RatesResponse } from '../contract/v1';
import { chargeInTx } from '../billing/charge';
import { safePropertyName } from '../keys/redact';
import type { KeyAuthRow } from '../store/keys';
import type { ApiRuntime } from './runtime';
import { decodeUtf8, isJsonContentType, readBody } from './body';
import { IDEMPOTENCY_RETENTION_MS, parseIdempotencyKey, shipmentFingerprint } from './idempotency';
import { sendError, sendJson, withHeaders, type HeaderList } from './respond';

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

export async function handleRates(
  rt: ApiRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  auth: KeyAuthRow,
  requestId: string,
  headers: HeaderList,
): Promise<void> {
  if (!isJsonContentType(req)) return sendError(res, 'unsupported_media_type', requestId, headers);
  const idem = parseIdempotencyKey(req);
  if (!idem.ok) return sendError(res, 'invalid_idempotency_key', requestId, headers);
  const read = await readBody(req, res);
  if (!read.ok) {
    if (read.reason === 'too_large') return sendError(res, 'payload_too_large', requestId, headers);
    return;
  }
  const text = decodeUtf8(read.body);
  if (text === undefined) return sendError(res, 'invalid_json', requestId, headers);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return sendError(res, 'invalid_json', requestId, headers);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return sendError(res, 'invalid_json', requestId, headers);
  }
  const parsed = Shipment.safeParse(raw);
  if (!parsed.success) {
    return sendError(res, 'validation_failed', requestId, headers, {
      details: issuesToDetails(parsed.error),
    });
  }
  const shipment = parsed.data;
  const accountId = auth.account_id;
  const key = idem.key;
  const fp = key === null ? '' : shipmentFingerprint(shipment);

  if (key !== null) {
    const record = rt.store.idempotency.get(accountId, key);
    const fresh = record && record.created_at_ms > rt.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS;
    if (record && fresh) {
      if (record.fingerprint !== fp) return sendError(res, 'idempotency_key_reused', requestId, headers);
      // Byte-for-byte replay, including the original request_id (also in X-Request-Id).
      return sendJson(
        res,
        record.status,
        record.body,
        withHeaders(headers, { 'X-Request-Id': record.request_id, 'Idempotent-Replayed': 'true' }),
      );
    }
    const running = rt.inFlight.get(accountId, key);
    if (running !== undefined) {
      if (running !== fp) return sendError(res, 'idempotency_key_reused', requestId, headers);
      return sendError(res, 'idempotency_key_in_use', requestId, headers, {
        headers: { 'Retry-After': '1' },
      });
    }
  }

  // Check and hold one request of balance in the same synchronous step, so parallel calls cannot overdraw.
  const balance = rt.store.accounts.balance(accountId) ?? 0;
  const reserved = rt.reservations.get(accountId) ?? 0;
  if (balance - reserved < 1) return sendError(res, 'insufficient_balance', requestId, headers);
  // The reservations are the account's calls in flight. Past its bound the client is told to slow down, as the
  // spec says for 429: one account's hung calls must not hold every connection to a carrier (#16).
  if (reserved >= rt.maxInFlightPerAccount()) {
    return sendError(res, 'rate_limit_exceeded', requestId, headers, {
      headers: { 'Retry-After': '1' },
      details: [
        { path: '(account)', message: `at most ${rt.maxInFlightPerAccount()} rates calls in flight at once` },
      ],
    });
  }
  rt.reservations.set(accountId, reserved + 1);
  if (key !== null) rt.inFlight.claim(accountId, key, fp);

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
    // Checked again inside the transaction: the commit is the last moment the client can still be spared.
    const charged = await rt.committer.run(() =>
      gone.signal.aborted
        ? ({ ok: false, reason: 'client_gone' } as const)
        : chargeInTx(rt.store, {
            accountId,
            requestId,
            now,
            body: (balanceRemaining) => {
              const body: RatesResponse = {
                request_id: requestId,
                rates: result.rates,
                unavailable: result.unavailable,
                balance_remaining: balanceRemaining,
              };
              return JSON.stringify(body);
            },
            ...(key !== null ? { idempotency: { key, fingerprint: fp, createdAtMs: now.getTime() } } : {}),
            history: (body) => ({
              request_id: requestId,
              source: 'api',
              created_at: now.toISOString(),
              from_city: shipment.from.city,
              to_city: shipment.to.city,
              weight_grams: shipment.parcel.weight_grams,
              cheapest_kopecks: result.rates[0]?.price_kopecks ?? null,
              carriers: [...new Set(result.rates.map((r) => r.carrier))].join(','),
              sandbox: rt.isSandbox() ? 1 : 0,
              shipment_json: JSON.stringify(shipment),
              result_json: body,
            }),
          }),
    );
    if (!charged.ok) {
      if (charged.reason === 'client_gone') return;
      return sendError(res, 'insufficient_balance', requestId, headers);
    }
    rt.onBalanceChanged(accountId, charged.balance);
    if (charged.lowBalance) rt.onLowBalance(charged.lowBalance);
    sendJson(res, 200, charged.body, headers);
  } finally {
    res.off('close', onClose);
    const left = (rt.reservations.get(accountId) ?? 1) - 1;
    if (left > 0) rt.reservations.set(accountId, left);
    else rt.reservations.delete(accountId);
    if (key !== null) rt.inFlight.release(accountId, key);
  }
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
