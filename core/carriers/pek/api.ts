// Authorised calls to PEK's cabinet API: every method is POST /<group>/<method>/ (trailing slash) with a JSON
// body and HTTP Basic (cabinet login : API key), verified-2026.md §5.1. Each call takes a slot of the
// account's rate limit first (rate-limit.ts).
import { carrierRequest, CarrierHttpError, type CarrierHttpResponse } from '../http';
import { PekRateLimited, type RateLimiter } from './rate-limit';

export interface PekApi {
  post(path: string, body: unknown, signal: AbortSignal): Promise<CarrierHttpResponse>;
  /** The one GET of the API, /typesOfDelivery/all/ (verified-2026 §5.1): the live check's cheapest call. */
  get(path: string, signal: AbortSignal): Promise<CarrierHttpResponse>;
}

export function basicAuthorization(login: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${login}:${apiKey}`, 'utf8').toString('base64')}`;
}

/** Throws CarrierHttpError (network, size, rate limit) and the signal's reason (abort). */
export function createPekApi(baseUrl: string, authorization: string, limiter: RateLimiter): PekApi {
  async function slot(signal: AbortSignal): Promise<void> {
    try {
      await limiter.acquire(signal);
    } catch (err) {
      if (err instanceof PekRateLimited) throw new CarrierHttpError(err.message);
      throw err;
    }
  }
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
