// The one way adapters talk to carriers: fixed base URLs from settings (never from the request), a size cap,
// no redirects, keep-alive connections, the caller's AbortSignal for timeouts, and a carrier's Retry-After
// obeyed (docs/carriers.md, "Circuit breaker, back-off and cache").
// undici (the Node.js project's HTTP/1.1 client, the one under fetch) rather than node:http: against the
// simulator, Russian Post's five concurrent GETs take 2.3× less CPU and answer 0.65 ms sooner at 20 ms of
// carrier latency (docs/benchmarks.md); fetch itself costs about a millisecond more per request on Node 20.
import type * as UndiciModule from 'undici';
import type { Dispatcher } from 'undici';

/** What one answer may weigh, unless its call says otherwise: every quote's answer is far smaller. */
export const MAX_CARRIER_RESPONSE_BYTES = 1024 * 1024;
/**
 * The most any call may ask for (`maxBytes`): a carrier's whole directory in one answer, such as Boxberry's
 * ListCitiesFull (thousands of \u-escaped rows, over 2 MB). The pool enforces it as a backstop.
 */
export const LARGEST_CARRIER_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * Connections per carrier origin. Each request holds a connection of its own until it is answered or
 * aborted, so a carrier that hangs on some route ties up as many as there are requests hung on it (five per
 * Russian Post quote). With 32, seven hung quotes made every other quote of that carrier wait for a free
 * connection until its timeout (#10). 256 covers 51 hung Russian Post quotes; past that, requests wait in
 * the pool's queue, and their AbortSignal still ends the wait at the carrier's timeout. Every carrier is its
 * own origin, so one carrier's connections never block another's.
 */
export const CONNECTIONS_PER_ORIGIN = 256;

/** The longest Retry-After obeyed: a carrier (or a proxy in front of it) asking for a day is not obeyed for a day. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

export interface CarrierHttpResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was not JSON. */
  json: unknown;
  text: string;
}

export class CarrierHttpError extends Error {}

type Undici = typeof UndiciModule;

/**
 * undici and its keep-alive pool (per carrier origin; a body over the cap is cut off as it streams in) load
 * on the first carrier call, not at start: undici's index costs `serve` ~25 ms before it can print its URL,
 * and most admin commands never call a carrier at all (docs/benchmarks.md, "Startup").
 */
let client: Promise<{ undici: Undici; dispatcher: Dispatcher }> | undefined;
function carrierClient(): Promise<{ undici: Undici; dispatcher: Dispatcher }> {
  client ??= import('undici').then((undici) => ({
    undici,
    dispatcher: new undici.Agent({
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: 4_000,
      maxResponseSize: LARGEST_CARRIER_RESPONSE_BYTES,
    }),
  }));
  return client;
}

/**
 * Loads undici and creates its pool now, for the service's background warm-up (core/platform/warm-up.ts):
 * the first quote after start then does not evaluate undici's index (≈ 80 ms of it, docs/benchmarks.md
 * "First quote after start"). Still not at start, for the reason above; makes no connection.
 */
export async function preloadCarrierClient(): Promise<void> {
  await carrierClient();
}

/**
 * Origins that asked to be left alone (429 or 5xx with Retry-After), until when (performance.now()). Kept per
 * process like the connection pools: whoever calls that origin next, for whichever quote, waits.
 */
const quietUntil = new Map<string, number>();

/** Told how long a carrier asked to be left alone, for the call whose AbortSignal it was registered on. */
export type WaitListener = (retryAfterMs: number) => void;
const waitListeners = new WeakMap<AbortSignal, WaitListener>();

/**
 * The aggregator registers the signal it gives an adapter, so a Retry-After on any request of that call (or a
 * request refused because an earlier answer asked to wait) opens the carrier's breaker for that long. Keyed
 * by the signal rather than passed as a parameter, so that adapters need no change: they already pass their
 * context's signal to carrierRequest.
 */
export function onCarrierAsksToWait(signal: AbortSignal, listener: WaitListener): void {
  waitListeners.set(signal, listener);
}

export async function carrierRequest(
  url: string,
  init: {
    method: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    signal: AbortSignal;
    /** This call's own cap (a whole directory); MAX_CARRIER_RESPONSE_BYTES by default. */
    maxBytes?: number;
  },
): Promise<CarrierHttpResponse> {
  const { signal } = init;
  const maxBytes = Math.min(init.maxBytes ?? MAX_CARRIER_RESPONSE_BYTES, LARGEST_CARRIER_RESPONSE_BYTES);
  signal.throwIfAborted();
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new CarrierHttpError(`unsupported URL ${target.protocol}`);
  }
  const waitMs = quietFor(target.origin);
  if (waitMs > 0) {
    waitListeners.get(signal)?.(waitMs);
    throw new CarrierHttpError(
      `not called: the carrier asked to wait (Retry-After), ${Math.ceil(waitMs / 1000)} s left`,
    );
  }
  const { undici, dispatcher } = await carrierClient();
  try {
    const res = await untilAborted(
      undici.request(target, {
        dispatcher,
        method: init.method,
        signal,
        headers: { Accept: 'application/json', 'User-Agent': 'RateDesk', ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
      }),
      signal,
    );
    const status = res.statusCode;
    if (status === 429 || status >= 500) {
      const retryAfterMs = parseRetryAfter(res.headers['retry-after'], Date.now());
      if (retryAfterMs !== null && retryAfterMs > 0) {
        const until = performance.now() + retryAfterMs;
        quietUntil.set(target.origin, Math.max(quietUntil.get(target.origin) ?? 0, until));
        waitListeners.get(signal)?.(retryAfterMs);
      }
    }
    if (status >= 300 && status < 400) {
      discard(res.body);
      throw new CarrierHttpError(`unexpected redirect (HTTP ${status})`);
    }
    if (Number(res.headers['content-length'] ?? '0') > maxBytes) {
      discard(res.body);
      throw new CarrierHttpError('response too large');
    }
    const text = await readCapped(res.body, maxBytes);
    let json: unknown;
    try {
      json = text.length ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status, json, text };
  } catch (err) {
    if (err instanceof CarrierHttpError) throw err;
    if (signal.aborted) throw signal.reason;
    if (err instanceof undici.errors.ResponseExceededMaxSizeError)
      throw new CarrierHttpError('response too large');
    const code = (err as NodeJS.ErrnoException).code;
    const said = code ? NETWORK_ERRORS[code] : undefined;
    throw new CarrierHttpError(
      `network error: ${said ? `${said} (${code})` : (code ?? (err instanceof Error ? err.message : String(err)))}`,
    );
  }
}

/**
 * What the usual socket failures mean, for the `carrier error: …` reason a person reads; the code stays in
 * brackets for whoever searches logs (undici's own codes, like UND_ERR_SOCKET, say nothing to a clerk).
 */
const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  UND_ERR_SOCKET: 'connection closed in the middle of the answer',
  ECONNRESET: 'connection reset by the carrier',
  ECONNREFUSED: 'connection refused',
  UND_ERR_CONNECT_TIMEOUT: 'could not connect in time',
  ENOTFOUND: 'carrier host not found',
  EAI_AGAIN: 'carrier host not found (DNS)',
  EHOSTUNREACH: 'carrier host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
};

/** How long `origin` asked to be left alone from now; 0 when it did not or the time has passed. */
function quietFor(origin: string): number {
  const until = quietUntil.get(origin);
  if (until === undefined) return 0;
  const left = until - performance.now();
  if (left > 0) return left;
  quietUntil.delete(origin);
  return 0;
}

/**
 * Retry-After as milliseconds from `nowMs` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), capped at
 * MAX_RETRY_AFTER_MS; null when absent or unreadable (then the answer is an ordinary failure).
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // Date.parse reads "-5" or "1.5" as dates too: an HTTP-date always names its day and month.
    const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/**
 * undici settles a request still queued for a connection only once it is dispatched, even when its signal
 * has fired: the caller is released at the abort instead, and whatever undici later settles with is dropped.
 */
function untilAborted<T extends { body: Dispatcher.ResponseData['body'] }>(
  pending: Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason);
      pending.then(
        (late) => discard(late.body),
        () => {},
      );
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        resolve(res);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** The body as text, refused as soon as it streams past `maxBytes` (no length declared, or a false one). */
async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw new CarrierHttpError('response too large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Drops an unread body (and its connection); the stream's own abort error is expected, not a fault. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}
