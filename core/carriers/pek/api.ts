// Authorised calls to PEK's cabinet API: every method is POST /<group>/<method>/ (trailing slash) with a JSON
// body and HTTP Basic (cabinet login : API key), verified-2026.md §5.1. Each call takes a slot of the
// account's rate limit first (rate-limit.ts).
import { carrierRequest, type CarrierHttpResponse } from '../http';
import type { RateLimiter } from './rate-limit';

export interface PekApi {
  post(path: string, body: unknown, signal: AbortSignal): Promise<CarrierHttpResponse>;
  /** The one GET of the API, /typesOfDelivery/all/ (verified-2026 §5.1): the live check's cheapest call. */
  get(path: string, signal: AbortSignal): Promise<CarrierHttpResponse>;
}

export function basicAuthorization(login: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${login}:${apiKey}`, 'utf8').toString('base64')}`;
}

/**
 * Who a call is for, keyed by the call's signal: a quote's directory lookups reach the API through the location
 * resolver, which knows nothing of accounts, but they carry the quote's signal.
 */
const askers = new WeakMap<AbortSignal, string>();
export function askFor(signal: AbortSignal, asker: string): void {
  askers.set(signal, asker);
}

/**
 * Throws CarrierHttpError (network, size), PekRateLimited (PEK's minute, or this asker's share of it, used up)
 * and the signal's reason (abort).
 */
export function createPekApi(baseUrl: string, authorization: string, limiter: RateLimiter): PekApi {
  const slot = (signal: AbortSignal): Promise<void> => limiter.acquire(signal, askers.get(signal));
  return {
    async post(path, body, signal) {
      await slot(signal);
      return carrierRequest(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(body),
        signal,
      });
    },
    async get(path, signal) {
      await slot(signal);
      return carrierRequest(`${baseUrl}${path}`, { method: 'GET', headers: { authorization }, signal });
    },
  };
}
