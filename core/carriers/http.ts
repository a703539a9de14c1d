// The one way adapters talk to carriers: fixed base URLs from settings (never from the request), a size cap,
// no redirects, keep-alive connections, and the caller's AbortSignal for timeouts.
// node:http(s) rather than fetch: on Node 20 fetch costs about a millisecond more per request, and Russian
// Post needs one request per product (measured in docs/benchmarks.md).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export const MAX_CARRIER_RESPONSE_BYTES = 1024 * 1024;

export interface CarrierHttpResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was not JSON. */
  json: unknown;
  text: string;
}

export class CarrierHttpError extends Error {}

const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 32, keepAliveMsecs: 1000 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 32, keepAliveMsecs: 1000 }),
};

export function carrierRequest(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal: AbortSignal },
): Promise<CarrierHttpResponse> {
  const { signal } = init;
  if (signal.aborted) return Promise.reject(signal.reason);
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:')
    return Promise.reject(new CarrierHttpError(`unsupported URL ${target.protocol}`));
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  return new Promise<CarrierHttpResponse>((resolve, reject) => {
    const onAbort = (): void => {
      req.destroy();
      reject(signal.reason);
    };
    const send = secure ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: init.method,
        agent: secure ? agents.https : agents.http,
        headers: {
          Accept: 'application/json',
          'User-Agent': 'RateDesk',
          ...init.headers,
          ...(body ? { 'Content-Length': String(body.length) } : {}),
        },
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          signal.removeEventListener('abort', onAbort);
          reject(new CarrierHttpError(`unexpected redirect (HTTP ${status})`));
          return;
        }
        if (Number(res.headers['content-length'] ?? '0') > MAX_CARRIER_RESPONSE_BYTES) {
          req.destroy();
          signal.removeEventListener('abort', onAbort);
          reject(new CarrierHttpError('response too large'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_CARRIER_RESPONSE_BYTES) {
            req.destroy();
            signal.removeEventListener('abort', onAbort);
            reject(new CarrierHttpError('response too large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          signal.removeEventListener('abort', onAbort);
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text.length ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status, json, text });
        });
        res.on('error', (err) => {
          signal.removeEventListener('abort', onAbort);
          reject(signal.aborted ? signal.reason : new CarrierHttpError(`network error: ${err.message}`));
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason);
      else reject(new CarrierHttpError(`network error: ${err.code ?? err.message}`));
    });
    signal.addEventListener('abort', onAbort, { once: true });
    if (body) req.write(body);
    req.end();
  });
}
