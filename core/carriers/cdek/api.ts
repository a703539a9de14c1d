// Authorised calls to CDEK API v2: bearer token from the shared source, and the one retry §2.3/§10 ask
// for when CDEK answers 401 (token revoked or expired earlier than it said).
import { carrierRequest, type CarrierHttpResponse } from '../http';
import type { CarrierFailure } from '../types';
import type { CdekTokenSource } from './token';

export type ApiResult = { ok: true; response: CarrierHttpResponse } | { ok: false; failure: CarrierFailure };

export interface CdekApi {
  get(pathAndQuery: string, signal: AbortSignal): Promise<ApiResult>;
  postJson(path: string, body: unknown, signal: AbortSignal): Promise<ApiResult>;
}

/** Throws CarrierHttpError (network, size) and the signal's reason (abort); the adapter sorts them out. */
export function createCdekApi(baseUrl: string, tokens: CdekTokenSource): CdekApi {
  async function send(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<ApiResult> {
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.get(signal);
      if (!token.ok) return token;
      const headers: Record<string, string> = {
        authorization: `Bearer ${token.token}`,
        accept: 'application/json',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await carrierRequest(`${baseUrl}${pathAndQuery}`, { method, headers, body, signal });
      if (response.status !== 401) return { ok: true, response };
      tokens.invalidate(token.token);
      if (attempt >= 2) {
        return {
          ok: false,
          failure: { kind: 'carrier_error', detail: 'CDEK refused a freshly issued access token (HTTP 401)' },
        };
      }
    }
  }
  return {
    get: (pathAndQuery, signal) => send('GET', pathAndQuery, undefined, signal),
    postJson: (path, body, signal) => send('POST', path, JSON.stringify(body), signal),
  };
}
