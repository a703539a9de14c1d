// Яндекс Доставка's pickup-point directory (#21): POST /api/b2b/platform/pickup-points/list (points.ts, the
// same call quotes make for one point) for the town's geo_id inside a window around its centre, every point
// kept with what the list shows.
//
// Record fields (the live capture the simulator follows, 3p ids 57374111878 and 57384569655; the C# SDK's
// `PickupStation`, 3p id 53104091641): `id`, `name`, `type` (pickup_point | terminal), `position{latitude,
// longitude}`, `address{full_address}`, `schedule{restrictions[{days[], time_from{hours, minutes}, time_to}]}`,
// `payment_methods[]` (already_paid, card_on_receipt, cash_on_receipt). No weight or size limit is in the
// record in any source found: a Яндекс point's limits are "not published" (null), never a made-up figure
// (docs/carriers.md). A point taking payment on receipt (card or cash) takes cash on delivery.
//
// Window: 3 km half-width (central Moscow ~290 points, ~0.6 MB at the captured ~2 KB a point, inside the
// HTTP client's 1 MiB cap), widened to 6 km where the narrower one holds fewer than MIN_POINTS. Neither
// `type` nor `payment_method` is sent, so postamats and every payment kind come back.
import { z } from 'zod';
import { createLocationResolver } from '../../locations/resolver';
import { CarrierHttpError } from '../http';
import {
  coordinates,
  PointDirectoryError,
  type CarrierPointDirectory,
  type DirectoryPoint,
} from '../point-directory';
import type { YandexAdapterOptions } from './adapter';
import { geoDirectory, yandexApi, type YandexApi } from './locations';
import { pointWindow, YANDEX_POINTS_PATH, type PointWindow } from './points';

export const DIRECTORY_WINDOWS_KM: readonly number[] = [3, 6];
const MIN_POINTS = 10;

const Time = z.looseObject({ hours: z.int().min(0).max(24), minutes: z.int().min(0).max(59) });
const YandexListedPoint = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional().catch(undefined),
  type: z.string().optional().catch(undefined),
  position: z.looseObject({ latitude: z.number(), longitude: z.number() }).optional().catch(undefined),
  address: z
    .looseObject({ full_address: z.string().optional().catch(undefined) })
    .optional()
    .catch(undefined),
  schedule: z
    .looseObject({
      restrictions: z.array(z.looseObject({ days: z.array(z.int()), time_from: Time, time_to: Time })),
    })
    .optional()
    .catch(undefined),
  payment_methods: z.array(z.string()).optional().catch(undefined),
});
const YandexPointList = z.looseObject({ points: z.array(z.unknown()) });

const DAY_NAMES = ['', 'Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'];
const hhmm = (t: { hours: number; minutes: number }): string =>
  `${String(t.hours).padStart(2, '0')}:${String(t.minutes).padStart(2, '0')}`;

/** One pickup-points/list answer → points; an unreadable entry is skipped, an unreadable body a failure. */
export function readPointList(status: number, json: unknown): DirectoryPoint[] {
  if (status < 200 || status >= 300) {
    throw new PointDirectoryError('carrier_error', `Yandex pickup-points/list failed: HTTP ${status}`);
  }
  const list = YandexPointList.safeParse(json);
  if (!list.success)
    throw new PointDirectoryError('carrier_error', 'Yandex pickup-points/list answered an unexpected body');
  const points: DirectoryPoint[] = [];
  for (const raw of list.data.points) {
    const parsed = YandexListedPoint.safeParse(raw);
    if (!parsed.success) continue;
    const p = parsed.data;
    const methods = p.payment_methods ?? [];
    const { lat, lon } = coordinates(p.position?.latitude, p.position?.longitude);
    points.push({
      code: p.id,
      kind: p.type === 'terminal' ? 'postamat' : 'pvz',
      name: p.name ?? p.id,
      address: p.address?.full_address ?? '',
      hours: (p.schedule?.restrictions ?? [])
        .map(
          (r) =>
            `${r.days.map((d) => DAY_NAMES[d] ?? String(d)).join(',')} ${hhmm(r.time_from)}-${hhmm(r.time_to)}`,
        )
        .join('; '),
      lat,
      lon,
      max_weight_grams: null,
      max_dimensions_cm: null,
      cod: methods.includes('card_on_receipt') || methods.includes('cash_on_receipt'),
      card: methods.includes('card_on_receipt'),
    });
  }
  return points;
}

async function listWindow(
  api: YandexApi,
  geoId: number,
  window: PointWindow | null,
  signal: AbortSignal,
): Promise<DirectoryPoint[]> {
  const res = await api.post(YANDEX_POINTS_PATH, { geo_id: geoId, ...(window ?? {}) }, signal);
  return readPointList(res.status, res.json);
}

export function createYandexPointDirectory(options: YandexAdapterOptions): CarrierPointDirectory {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const namespace = `yandex points ${baseUrl}`;
  const token = options.token?.trim() ?? '';
  if (token === '') {
    return {
      namespace,
      fetch: () =>
        Promise.reject(new PointDirectoryError('not_configured', 'Yandex Delivery token is not set')),
    };
  }
  const api = yandexApi(baseUrl, token);
  const geo = geoDirectory(api, baseUrl);
  const resolver = options.locations ?? createLocationResolver();
  return {
    namespace,
    async fetch(town, signal) {
      const place = {
        city: town.region ? `${town.city}, ${town.region}` : town.city,
        postalCode: town.postalCode,
      };
      const geoId = await resolver.resolve(place, 'terminal_id', { directory: geo, signal });
      if (!geoId.ok) {
        throw new PointDirectoryError(
          geoId.kind === 'carrier_error' ? 'carrier_error' : 'town_not_found',
          geoId.detail,
        );
      }
      const windows = town.centre
        ? DIRECTORY_WINDOWS_KM.map((km) => pointWindow(town.centre!.lat, town.centre!.lon, km))
        : [null];
      let best: DirectoryPoint[] | null = null;
      try {
        for (const window of windows) {
          try {
            best = await listWindow(api, Number(geoId.value), window, signal);
          } catch (err) {
            // A wider window over the size cap: the narrower one's points serve.
            if (best !== null && err instanceof CarrierHttpError && !signal.aborted) break;
            throw err;
          }
          if (best.length >= MIN_POINTS) break;
        }
      } catch (err) {
        if (err instanceof CarrierHttpError && !signal.aborted) {
          throw new PointDirectoryError('carrier_error', `Yandex: ${err.message}`);
        }
        throw err;
      }
      return best ?? [];
    },
  };
}
