// The one way adapters talk to carriers: fixed base URLs from settings (never from the request), a size cap,
// no redirects, keep-alive connections, and the caller's AbortSignal for timeouts.
// undici (the Node.js project's HTTP/1.1 client, the one under fetch) rather than node:http: against the
// simulator, Russian Post's five concurrent GETs take 2.3× less CPU and answer 0.65 ms sooner at 20 ms of
// carrier latency (docs/benchmarks.md); fetch itself costs about a millisecond more per request on Node 20.
import type * as UndiciModule from 'undici';
import type { Dispatcher } from 'undici';

export const MAX_CARRIER_RESPONSE_BYTES = 1024 * 1024;

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
      connections: 32,
      keepAliveTimeout: 4_000,
      maxResponseSize: MAX_CARRIER_RESPONSE_BYTES,
    }),
  }));
  return client;
}

export async function carrierRequest(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal: AbortSignal },
): Promise<CarrierHttpResponse> {
  const { signal } = init;
  signal.throwIfAborted();
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new CarrierHttpError(`unsupported URL ${target.protocol}`);
  }
  const { undici, dispatcher } = await carrierClient();
  try {
    const res = await undici.request(target, {
      dispatcher,
      method: init.method,
      signal,
      headers: { Accept: 'application/json', 'User-Agent': 'RateDesk', ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const status = res.statusCode;
    if (status >= 300 && status < 400) {
      discard(res.body);
      throw new CarrierHttpError(`unexpected redirect (HTTP ${status})`);
    }
    if (Number(res.headers['content-length'] ?? '0') > MAX_CARRIER_RESPONSE_BYTES) {
      discard(res.body);
      throw new CarrierHttpError('response too large');
    }
    const text = await res.body.text();
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

/** Drops an unread body (and its connection); the stream's own abort error is expected, not a fault. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}
