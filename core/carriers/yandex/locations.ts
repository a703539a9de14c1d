// Our place → what Yandex's platform wants (verified-2026.md §7.2 helpers): a `geo_id` from POST
// location/detect, then pickup points of that geo_id from POST pickup-points/list (points.ts): any point for
// a self_pickup destination, a point with `available_for_dropoff` as the source when the account has no
// warehouse station of its own. All three are directories of the location resolver (cached in SQLite,
// namespaced by host), so a city costs these calls once a month, not once a quote.
import type { CarrierDirectory, DirectoryAnswer, DirectoryQuery } from '../../locations/resolver';
import { CarrierHttpError, carrierRequest } from '../http';
import { YandexDetect } from './schema';

export interface YandexApi {
  post(path: string, body: unknown, signal: AbortSignal): ReturnType<typeof carrierRequest>;
}

/** POSTs to the platform API as every client does: Bearer token, JSON, `Accept-Language: ru`. */
export function yandexApi(baseUrl: string, token: string): YandexApi {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    post: (path, body, signal) =>
      carrierRequest(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'accept-language': 'ru',
        },
        body: JSON.stringify(body),
        signal,
      }),
  };
}

/**
 * Whether the door leg (time_interval) is asked with the only address a quote has, the town (audit Y3).
 * Yandex documents `destination.address` «с указанием города, улицы и номера дома» and answers 400
 * "Cannot parse destination info" for an address it cannot place (errors page, 3p id 54149231025); whether
 * it prices «индекс, регион, город» without a street is unverified (docs/carriers.md, smoke test step 1).
 * true: ask, and read that refusal as "no door rate" for the quote (mapper.ts), never a carrier error.
 * false: never ask for the door (one call less per quote) once a live test shows Yandex always refuses.
 */
export const YANDEX_DOOR_BY_TOWN_ADDRESS: boolean = true;

/** "420000, Республика Татарстан, Казань": the address form Yandex geocodes; postal code first when known. */
export function yandexAddress(query: Pick<DirectoryQuery, 'city' | 'region' | 'postalCode'>): string {
  // Federal cities are their own region ("Москва, Москва" says nothing twice).
  const region = query.region === query.city ? null : query.region;
  return [query.postalCode, region, query.city].filter((p) => p && p.trim()).join(', ');
}

export function geoDirectory(api: YandexApi, baseUrl: string): CarrierDirectory {
  return {
    namespace: `yandex geo ${baseUrl}`,
    async lookup(query, signal): Promise<DirectoryAnswer> {
      let response;
      try {
        response = await api.post(
          '/api/b2b/platform/location/detect',
          { location: yandexAddress(query) },
          signal,
        );
      } catch (err) {
        // A fault of this lookup is the lookup's failure, not the quote's: the door leg needs no geo_id.
        if (err instanceof CarrierHttpError) return { error: `Yandex location/detect: ${err.message}` };
        throw err;
      }
      const { status, json } = response;
      if (status < 200 || status >= 300) return { error: `Yandex location/detect failed: HTTP ${status}` };
      const parsed = YandexDetect.safeParse(json);
      if (!parsed.success) return { error: 'Yandex location/detect answered an unexpected body' };
      const first = parsed.data.variants[0];
      return first ? { found: true, value: String(first.geo_id) } : { found: false };
    },
  };
}
