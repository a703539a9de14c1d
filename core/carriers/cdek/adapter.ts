// CDEK API v2 adapter (protocols.md §2): token → locations → tarifflist → rates. Speaks the live protocol
// unchanged, so the same code runs against api.cdek.ru, api.edu.cdek.ru and the local simulator.
import { mainPostalCode } from '../cities/cities';
import { CarrierHttpError } from '../http';
import type { CarrierAdapter, CarrierOutcome, CarrierQuoteRequest } from '../types';
import { createCdekApi } from './api';
import { createLocationResolver } from './locations';
import { CDEK_CARRIER_CODE, CDEK_CARRIER_NAME, mapTariffListResponse } from './mapper';
import { buildTariffListRequest } from './request';
import { CdekTokenSource } from './token';

export interface CdekAdapterOptions {
  /** API base, e.g. https://api.cdek.ru/v2 or https://api.edu.cdek.ru/v2 (a trailing slash is fine). */
  baseUrl: string;
  clientId: string | null;
  clientSecret: string | null;
  /** Clock for token expiry; injectable so tests can jump past a token's lifetime. */
  nowMs?: () => number;
  /**
   * Main postal code of a city without one, from our city table by default. Injectable so tests can
   * exercise CDEK's /location/cities lookup for cities the table lacks.
   */
  cityPostalCode?: (city: string) => string | null;
}

export function createCdekAdapter(options: CdekAdapterOptions): CarrierAdapter {
  const clientId = options.clientId?.trim() ?? '';
  const clientSecret = options.clientSecret?.trim() ?? '';
  if (clientId === '' || clientSecret === '') {
    const detail = `CDEK ${clientId === '' ? 'client id' : 'client secret'} is not set`;
    return {
      code: CDEK_CARRIER_CODE,
      name: CDEK_CARRIER_NAME,
      quote: async () => ({ ok: false, kind: 'not_configured', detail }),
    };
  }

  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const tokens = new CdekTokenSource({ baseUrl, clientId, clientSecret, nowMs: options.nowMs ?? Date.now });
  const api = createCdekApi(baseUrl, tokens);
  const locations = createLocationResolver(api, options.cityPostalCode ?? mainPostalCode);

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    const [from, to] = await Promise.all([
      locations.resolve(request.from, signal),
      locations.resolve(request.to, signal),
    ]);
    if (!from.ok) return { ok: false, ...from.failure };
    if (!to.ok) return { ok: false, ...to.failure };
    const body = buildTariffListRequest(from.location, to.location, request.parcel);
    const result = await api.postJson('/calculator/tarifflist', body, signal);
    if (!result.ok) return { ok: false, ...result.failure };
    return mapTariffListResponse(result.response.status, result.response.json);
  }

  return {
    code: CDEK_CARRIER_CODE,
    name: CDEK_CARRIER_NAME,
    async quote(request, { signal }) {
      try {
        return await quote(request, signal);
      } catch (err) {
        // Carrier faults become outcomes; an abort (timeout/deadline) and our own bugs propagate.
        if (err instanceof CarrierHttpError && !signal.aborted) {
          return { ok: false, kind: 'carrier_error', detail: `CDEK: ${err.message}` };
        }
        throw err;
      }
    },
  };
}
