// Russian Post adapter: tariff.pochta.ru v2, one GET per product, concurrently (protocols.md §1). Speaks
// the live protocol unchanged, so the same code runs against production and the local simulator.
import { createLocationResolver, type LocationResolver, type Resolution } from '../../locations/resolver';
import { silentLogger, type Logger } from '../../util/logger';
import { CarrierHttpError, carrierRequest, type CarrierHttpResponse } from '../http';
import type { CarrierAdapter, CarrierFailure, CarrierOutcome, CarrierQuoteRequest } from '../types';
import { RUSSIAN_POST_LIMITS } from './limits';
import {
  combineResults,
  interpretTariffResponse,
  RUSSIAN_POST_CODE,
  RUSSIAN_POST_NAME,
  unknownCodesOf,
  type ObjectResult,
} from './mapper';
import { DEFAULT_OBJECT_CODES, objectCodesFor, type ObjectRequest } from './objects';
import { buildTariffUrl } from './request';
import { combineItems, itemKey, itemsFor, optionsOf, type PostItem } from './shipment';

export interface RussianPostAdapterOptions {
  /** https://tariff.pochta.ru in production, the simulator's URL in sandbox mode. */
  baseUrl: string;
  /** Products to quote (setting carriers.russian-post.objects), codes without declared value; today's five by default. */
  objects?: readonly number[];
  /** Clock for the request's `date`/`time`; injectable for tests. */
  now?: () => Date;
  /** Places → postal indexes; a private in-memory one when not given. */
  locations?: LocationResolver;
  /** Where error codes RateDesk does not know yet are reported. */
  logger?: Logger;
}

/** The carrier only takes indexes: a place without one (and no city we know) is never asked about. */
function failureOf(resolution: Exclude<Resolution, { ok: true }>): CarrierFailure {
  switch (resolution.kind) {
    case 'city_not_found':
      return { kind: 'city_not_found', detail: resolution.detail };
    case 'postal_code_required':
      return { kind: 'postal_code_required' };
    case 'carrier_error':
      return { kind: 'carrier_error', detail: resolution.detail };
  }
}

export function createRussianPostAdapter(options: RussianPostAdapterOptions): CarrierAdapter {
  const now = options.now ?? (() => new Date());
  const objects = options.objects && options.objects.length > 0 ? options.objects : DEFAULT_OBJECT_CODES;
  const resolver = options.locations ?? createLocationResolver();
  const logger = options.logger ?? silentLogger;

  function noteUnknownCodes(object: number, response: CarrierHttpResponse): void {
    const codes = unknownCodesOf(response);
    if (codes.length > 0) {
      logger.warn('Russian Post answered an error code RateDesk does not know', {
        codes,
        object,
        status: response.status,
      });
    }
  }

  /** One postal item (one place) of one product. */
  async function quoteItem(
    product: ObjectRequest,
    item: PostItem,
    from: string,
    to: string,
    signal: AbortSignal,
  ): Promise<ObjectResult> {
    const url = buildTariffUrl(options.baseUrl, {
      object: product.object,
      from,
      to,
      weightGrams: item.parcel.weight_grams,
      parcel: item.parcel,
      ...(product.withDeclaredValue ? { declaredValueKopecks: item.declaredValueKopecks } : {}),
      ...(product.withCod ? { codKopecks: item.codKopecks } : {}),
      now: now(),
    });
    try {
      const response = await carrierRequest(url, { method: 'GET', signal });
      noteUnknownCodes(product.object, response);
      return interpretTariffResponse(product.object, response, product);
    } catch (err) {
      // A network fault is this object's error; an abort (timeout, deadline) ends the whole quote.
      if (err instanceof CarrierHttpError && !signal.aborted)
        return { kind: 'error', detail: `Russian Post: ${err.message}` };
      throw err;
    }
  }

  /**
   * One product for the whole shipment: each place is its own postal item, priced on its own and summed
   * (shipment.ts); identical items are asked once.
   */
  async function quoteObject(
    product: ObjectRequest,
    request: CarrierQuoteRequest,
    from: string,
    to: string,
    signal: AbortSignal,
  ): Promise<ObjectResult> {
    const items = itemsFor(product, request.places, request.declaredValueKopecks, request.codKopecks);
    const asked = new Map<string, Promise<ObjectResult>>();
    const results = await Promise.all(
      items.map((item) => {
        const key = itemKey(item);
        let answer = asked.get(key);
        if (!answer) {
          answer = quoteItem(product, item, from, to, signal);
          asked.set(key, answer);
        }
        return answer;
      }),
    );
    const combined = combineItems(results);
    if (combined.kind !== 'rate') return combined;
    return {
      kind: 'rate',
      rate: { ...combined.rate, ...optionsOf(product, request.declaredValueKopecks, request.codKopecks) },
    };
  }

  return {
    code: RUSSIAN_POST_CODE,
    name: RUSSIAN_POST_NAME,
    limits: RUSSIAN_POST_LIMITS,
    async quote(request, { signal }): Promise<CarrierOutcome> {
      const [from, to] = await Promise.all([
        resolver.resolve(request.from, 'postal_code', { signal }),
        resolver.resolve(request.to, 'postal_code', { signal }),
      ]);
      if (!from.ok) return { ok: false, ...failureOf(from) };
      if (!to.ok) return { ok: false, ...failureOf(to) };
      signal.throwIfAborted();
      const products = objectCodesFor(request.declaredValueKopecks, objects, request.codKopecks);
      const results = await Promise.all(
        products.map((product) => quoteObject(product, request, from.value, to.value, signal)),
      );
      return combineResults(results);
    },
  };
}
