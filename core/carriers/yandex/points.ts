// Pickup points of a town (POST /api/b2b/platform/pickup-points/list), bounded so that a big city's answer
// stays far below the HTTP client's 1 MiB cap (audit Y6).
//
// Why a window: the endpoint has no paging, a point carries its address, contact, schedule, instruction and
// flags (C# SDK `PickupStation`, 3p id 53104091641; Go client, 3p id 68602958989), and a whole geo_id of
// Moscow or St Petersburg is thousands of them, Market and 5Post points included (3p id 54215658594); the Go
// client calls the unfiltered list "tens of MB". The request's documented filters (page 2.02, the C# SDK's
// `PickupPointFilter`, 3p id 53293598643; a TS type of the same page) include `latitude`/`longitude`
// `{from,to}`, and two working clients query by such windows: the Twinpx Bitrix module (3p id 8565947211)
// and a shop's map that asks 0.05° × 0.1° tiles, "no more than 300 points a tile even in central Moscow"
// (3p id 71069013443). So the list is asked for a small window around the town's centre (the city table's
// coordinates), then a wider one only when the small one holds no point.
//
// `geo_id` is sent with the window (YANDEX_WINDOW_WITH_GEO_ID): every source lists both as fields of one
// filter, so the answer is the town's points inside the window, and never a neighbouring town's. No source
// shows the two together: if Yandex ignored the window next to geo_id, the answer is the whole town again
// and the lookup fails as "response too large" — the quote keeps its door rate, and `carriers check yandex`
// (step `size`) shows it. A town the table does not know has no coordinates: geo_id alone (small towns).
import { findCity } from '../../locations/cities';
import type {
  CarrierDirectory,
  DirectoryAnswer,
  DirectoryQuery,
  LocationResolver,
} from '../../locations/resolver';
import { CarrierHttpError } from '../http';
import type { YandexApi } from './locations';
import { YandexPickupPoints } from './schema';

export const YANDEX_POINTS_PATH = '/api/b2b/platform/pickup-points/list';

/**
 * Half-widths of the windows asked in turn, in km. 1.5 km: about 9 km², ~70 points at the tile client's
 * central-Moscow density (300 in ~35 km²), ~140 KB at the captured ~2 KB a point (a seventh of the cap). A
 * wider window is asked only when the narrower one held no point, so the town is sparse there (under one point
 * in 9 km², then in 36 km²): doubling the side keeps the next answer small where a jump straight to a whole
 * town could meet a dense ring just outside an empty centre.
 */
export const YANDEX_POINT_WINDOWS_KM: readonly number[] = [1.5, 3, 6];

/** Send geo_id together with the window (see the header); false sends the window alone. */
export const YANDEX_WINDOW_WITH_GEO_ID: boolean = true;

/**
 * What a point is looked up for: any pickup point for a prepaid parcel; one taking a card on receipt for cash
 * on delivery (#21: `payment_method: card_on_receipt`, the filter of the documented request); one taking
 * drop-offs for the source.
 */
export type PointPurpose = 'pickup' | 'pickup_card' | 'dropoff';

export interface PointWindow {
  latitude: { from: number; to: number };
  longitude: { from: number; to: number };
}

const KM_PER_DEGREE = 111.32;

/** The square of ±halfKm around a centre, in degrees (a degree of longitude shrinks with latitude). */
export function pointWindow(lat: number, lon: number, halfKm: number): PointWindow {
  const dLat = halfKm / KM_PER_DEGREE;
  const dLon = halfKm / (KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
  const r = (x: number): number => Math.round(x * 1e6) / 1e6;
  return {
    latitude: { from: r(lat - dLat), to: r(lat + dLat) },
    longitude: { from: r(lon - dLon), to: r(lon + dLon) },
  };
}

/** The body of one lookup: pickup points paid in advance, those taking drop-offs for a source. */
export function pointListBody(
  purpose: PointPurpose,
  geoId: number | null,
  window: PointWindow | null,
): Record<string, unknown> {
  return {
    ...(geoId !== null && (window === null || YANDEX_WINDOW_WITH_GEO_ID) ? { geo_id: geoId } : {}),
    ...(window ?? {}),
    type: 'pickup_point',
    payment_method: purpose === 'pickup_card' ? 'card_on_receipt' : 'already_paid',
    ...(purpose === 'dropoff' ? { available_for_dropoff: true } : {}),
  };
}

export interface ListedPoint {
  id: string;
  lat: number | null;
  lon: number | null;
  dropoff: boolean | undefined;
}

/** One pickup-points/list call; a refusal, a fault or an unreadable answer is `{ error }`, never a throw. */
export async function listPoints(
  api: YandexApi,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ points: ListedPoint[]; bytes: number } | { error: string }> {
  let response;
  try {
    response = await api.post(YANDEX_POINTS_PATH, body, signal);
  } catch (err) {
    if (err instanceof CarrierHttpError) return { error: `Yandex pickup-points/list: ${err.message}` };
    throw err;
  }
  const { status, json, text } = response;
  if (status < 200 || status >= 300) return { error: `Yandex pickup-points/list failed: HTTP ${status}` };
  const parsed = YandexPickupPoints.safeParse(json);
  if (!parsed.success) return { error: 'Yandex pickup-points/list answered an unexpected body' };
  return {
    bytes: Buffer.byteLength(text),
    points: parsed.data.points.map((p) => ({
      id: p.id,
      lat: p.position?.latitude ?? null,
      lon: p.position?.longitude ?? null,
      dropoff: p.available_for_dropoff,
    })),
  };
}

/** The point nearest the centre (Yandex's order is not by distance); one taking drop-offs for a source. */
export function nearestPoint(
  points: readonly ListedPoint[],
  centre: { lat: number; lon: number } | null,
  purpose: PointPurpose,
): ListedPoint | undefined {
  const usable = purpose === 'dropoff' ? points.filter((p) => p.dropoff !== false) : points;
  if (!centre) return usable[0];
  const cos = Math.cos((centre.lat * Math.PI) / 180);
  const distance = (p: ListedPoint): number =>
    p.lat === null || p.lon === null
      ? Number.POSITIVE_INFINITY
      : (p.lat - centre.lat) ** 2 + ((p.lon - centre.lon) * cos) ** 2;
  let best: ListedPoint | undefined;
  for (const p of usable) if (!best || distance(p) < distance(best)) best = p;
  return best;
}

/** Pickup points of the place's geo_id, inside a window around its centre: any point, or one taking drop-offs. */
export function pointDirectory(
  api: YandexApi,
  baseUrl: string,
  resolver: LocationResolver,
  geo: CarrierDirectory,
  purpose: PointPurpose,
): CarrierDirectory {
  return {
    namespace: `yandex ${purpose} ${baseUrl}`,
    async lookup(query: DirectoryQuery, signal): Promise<DirectoryAnswer> {
      const place = {
        city: query.region ? `${query.city}, ${query.region}` : query.city,
        postalCode: query.postalCode,
      };
      const geoId = await resolver.resolve(place, 'terminal_id', { directory: geo, signal });
      if (!geoId.ok) return geoId.kind === 'carrier_error' ? { error: geoId.detail } : { found: false };
      const town = findCity(place.city, query.postalCode);
      const centre = town ? { lat: town.lat, lon: town.lon } : null;
      const windows = centre
        ? YANDEX_POINT_WINDOWS_KM.map((km) => pointWindow(centre.lat, centre.lon, km))
        : [null];
      for (const window of windows) {
        const answer = await listPoints(api, pointListBody(purpose, Number(geoId.value), window), signal);
        if ('error' in answer) return answer;
        const point = nearestPoint(answer.points, centre, purpose);
        if (point) return { found: true, value: point.id };
      }
      return { found: false };
    },
  };
}
