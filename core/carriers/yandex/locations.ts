// Our place → what Yandex's platform wants (verified-2026.md §7.2 helpers): a `geo_id` from POST
// location/detect, then pickup points of that geo_id from POST pickup-points/list: any point for a
// self_pickup destination, a point with `available_for_dropoff` as the source when the account has no
// warehouse station of its own. All three are directories of the location resolver (cached in SQLite,
// namespaced by host), so a city costs these calls once a month, not once a quote.
import type {
  CarrierDirectory,
  DirectoryAnswer,
  DirectoryQuery,
  LocationResolver,
} from '../../locations/resolver';
import type { carrierRequest } from '../http';
import { YandexDetect, YandexPickupPoints } from './schema';

export interface YandexApi {
  post(path: string, body: unknown, signal: AbortSignal): ReturnType<typeof carrierRequest>;
}

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
      const { status, json } = await api.post(
        '/api/b2b/platform/location/detect',
        { location: yandexAddress(query) },
        signal,
      );
      if (status < 200 || status >= 300) return { error: `Yandex location/detect failed: HTTP ${status}` };
      const parsed = YandexDetect.safeParse(json);
      if (!parsed.success) return { error: 'Yandex location/detect answered an unexpected body' };
      const first = parsed.data.variants[0];
      return first ? { found: true, value: String(first.geo_id) } : { found: false };
    },
  };
}

/** Pickup points of the place's geo_id: any (destination) or those taking drop-offs (source). */
export function pointDirectory(
  api: YandexApi,
  baseUrl: string,
  resolver: LocationResolver,
  geo: CarrierDirectory,
  purpose: 'pickup' | 'dropoff',
): CarrierDirectory {
  return {
    namespace: `yandex ${purpose} ${baseUrl}`,
    async lookup(query, signal): Promise<DirectoryAnswer> {
      const place = {
        city: query.region ? `${query.city}, ${query.region}` : query.city,
        postalCode: query.postalCode,
      };
      const geoId = await resolver.resolve(place, 'terminal_id', { directory: geo, signal });
      if (!geoId.ok) return geoId.kind === 'carrier_error' ? { error: geoId.detail } : { found: false };
      const { status, json } = await api.post(
        '/api/b2b/platform/pickup-points/list',
        {
          geo_id: Number(geoId.value),
          type: 'pickup_point',
          payment_method: 'already_paid',
          ...(purpose === 'dropoff' ? { available_for_dropoff: true } : {}),
        },
        signal,
      );
      if (status < 200 || status >= 300) return { error: `Yandex pickup-points/list failed: HTTP ${status}` };
      const parsed = YandexPickupPoints.safeParse(json);
      if (!parsed.success) return { error: 'Yandex pickup-points/list answered an unexpected body' };
      const point =
        purpose === 'dropoff'
          ? parsed.data.points.find((p) => p.available_for_dropoff !== false)
          : parsed.data.points[0];
      return point ? { found: true, value: point.id } : { found: false };
    },
  };
}
