// Russian Post adapter: tariff.pochta.ru v2, one GET per product, concurrently (protocols.md §1). Speaks
// the live protocol unchanged, so the same code runs against production and the local simulator.
import { mainPostalCode } from '../cities/cities';
import { CarrierHttpError, carrierRequest } from '../http';
import type { CarrierAdapter, CarrierOutcome, CarrierQuoteRequest, QuoteLocation } from '../types';
import {
  combineResults,
  interpretTariffResponse,
  RUSSIAN_POST_CODE,
  RUSSIAN_POST_NAME,
  type ObjectResult,
} from './mapper';
import { objectCodesFor } from './objects';
import { buildTariffUrl } from './request';

export interface RussianPostAdapterOptions {
  /** https://tariff.pochta.ru in production, the simulator's URL in sandbox mode. */
  baseUrl: string;
  /** Clock for the request's `date`/`time`; injectable for tests. */
  now?: () => Date;
}

/** The carrier only takes indexes: the given one, else the city's main index from our table. */
function postalCodeOf(location: QuoteLocation): string | null {
  return location.postalCode ?? mainPostalCode(location.city);
}

export function createRussianPostAdapter(options: RussianPostAdapterOptions): CarrierAdapter {
  const now = options.now ?? (() => new Date());

  async function quoteObject(
    object: number,
    request: CarrierQuoteRequest,
    from: string,
    to: string,
    signal: AbortSignal,
  ): Promise<ObjectResult> {
    const url = buildTariffUrl(options.baseUrl, {
      object,
      from,
      to,
      weightGrams: request.parcel.weight_grams,
      parcel: request.parcel,
      ...(request.declaredValueKopecks > 0 ? { declaredValueKopecks: request.declaredValueKopecks } : {}),
      now: now(),
    });
    try {
      return interpretTariffResponse(object, await carrierRequest(url, { method: 'GET', signal }));
    } catch (err) {
      // A network fault is this object's error; an abort (timeout, deadline) ends the whole quote.
      if (err instanceof CarrierHttpError && !signal.aborted)
        return { kind: 'error', detail: `Russian Post: ${err.message}` };
      throw err;
    }
  }

  return {
    code: RUSSIAN_POST_CODE,
    name: RUSSIAN_POST_NAME,
    async quote(request, { signal }): Promise<CarrierOutcome> {
      const from = postalCodeOf(request.from);
      const to = postalCodeOf(request.to);
      if (from === null || to === null) return { ok: false, kind: 'postal_code_required' };
      signal.throwIfAborted();
      const codes = objectCodesFor(request.declaredValueKopecks);
      const results = await Promise.all(codes.map((code) => quoteObject(code, request, from, to, signal)));
      return combineResults(results);
    },
  };
}
