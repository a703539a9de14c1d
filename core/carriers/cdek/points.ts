// CDEK's pickup-point directory (#21): GET /v2/deliverypoints?city_code=… (protocols.md §2.7), the town's
// offices and postamats that hand parcels out, mapped to the search's point.
//
// Fields (CDEK API v2 "Список офисов"; a TS client's `CdekDeliveryPoint` and a widget's `CdekSelectedAddress`
// found by code search, 2026-11-27): `code`, `name`, `type` PVZ | POSTAMAT, `work_time` ("Пн-Пт 10:00-20:00,
// Сб-Вс 10:00-18:00"), `location{latitude, longitude, address, address_full, postal_code}`, `weight_min` and
// `weight_max` in kg, `dimensions[]{width, height, depth}` in cm (a postamat's cells; absent for an office),
// `have_cash`, `have_cashless` (a card terminal), `allowed_cod` (cash on delivery taken), `is_handout`.
// A postamat's largest cell (by volume) stands for its box: a parcel that fits no single cell is refused by CDEK
// anyway, and one that fits the largest may still find it taken (unverified: CDEK documents no cell counts).
//
// City code from the location resolver (CDEK's GET /location/cities, cached), as quotes get it. The answer has
// no paging in the v2 documentation RateDesk follows, and a large city's office list is megabytes (Moscow has
// thousands of offices), so this call takes the largest cap the HTTP client allows (http.ts).
import { z } from 'zod';
import { createLocationResolver } from '../../locations/resolver';
import { CarrierHttpError, carrierRequest, LARGEST_CARRIER_RESPONSE_BYTES } from '../http';
import {
  coordinates,
  PointDirectoryError,
  sortedSides,
  type CarrierPointDirectory,
  type DirectoryPoint,
} from '../point-directory';
import { tokenSlotName } from '../shared-token';
import type { CdekAdapterOptions } from './adapter';
import { createCdekApi } from './api';
import { cdekCityDirectory } from './locations';
import { CdekTokenSource } from './token';

export const CDEK_POINTS_PATH = '/deliverypoints';

const Num = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

const CdekDeliveryPoint = z.looseObject({
  code: z.string().min(1),
  name: z.string().optional().catch(undefined),
  type: z.string().optional().catch(undefined),
  work_time: z.string().optional().catch(undefined),
  location: z
    .looseObject({
      latitude: Num.optional().catch(undefined),
      longitude: Num.optional().catch(undefined),
      address: z.string().optional().catch(undefined),
      address_full: z.string().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  weight_max: Num.optional().catch(undefined),
  dimensions: z
    .array(z.looseObject({ width: Num, height: Num, depth: Num }))
    .nullable()
    .optional()
    .catch(undefined),
  have_cashless: z.boolean().optional().catch(undefined),
  allowed_cod: z.boolean().optional().catch(undefined),
  is_handout: z.boolean().optional().catch(undefined),
});
type CdekDeliveryPoint = z.infer<typeof CdekDeliveryPoint>;

/** The query of one town: every kind of point that hands parcels out. */
export function deliveryPointsPath(cityCode: string): string {
  const params = new URLSearchParams({ city_code: cityCode, type: 'ALL', is_handout: 'true' });
  return `${CDEK_POINTS_PATH}?${params.toString()}`;
}

/** One deliverypoints answer → points; entries that cannot be read are skipped, never the whole list. */
export function readDeliveryPoints(json: unknown): DirectoryPoint[] {
  if (!Array.isArray(json))
    throw new PointDirectoryError('carrier_error', 'CDEK deliverypoints answered an unexpected body');
  const points: DirectoryPoint[] = [];
  for (const raw of json) {
    const parsed = CdekDeliveryPoint.safeParse(raw);
    if (!parsed.success || parsed.data.is_handout === false) continue;
    points.push(toPoint(parsed.data));
  }
  return points;
}

function toPoint(p: CdekDeliveryPoint): DirectoryPoint {
  const cells = (p.dimensions ?? []).map((d) => sortedSides(d.width, d.height, d.depth));
  const largest = cells.reduce<[number, number, number] | null>(
    (best, c) => (best === null || c[0] * c[1] * c[2] > best[0] * best[1] * best[2] ? c : best),
    null,
  );
  const { lat, lon } = coordinates(p.location?.latitude, p.location?.longitude);
  return {
    code: p.code,
    kind: p.type?.toUpperCase() === 'POSTAMAT' ? 'postamat' : 'pvz',
    name: p.name ?? p.code,
    address: p.location?.address_full ?? p.location?.address ?? '',
    hours: p.work_time ?? '',
    lat,
    lon,
    max_weight_grams: p.weight_max !== undefined && p.weight_max > 0 ? Math.round(p.weight_max * 1000) : null,
    max_dimensions_cm: largest,
    cod: p.allowed_cod === true,
    card: p.have_cashless === true,
  };
}

export function createCdekPointDirectory(options: CdekAdapterOptions): CarrierPointDirectory {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const namespace = `cdek points ${baseUrl}`;
  const clientId = options.clientId?.trim() ?? '';
  const clientSecret = options.clientSecret?.trim() ?? '';
  if (clientId === '' || clientSecret === '') {
    return {
      namespace,
      fetch: () => Promise.reject(new PointDirectoryError('not_configured', 'CDEK account is not set')),
    };
  }
  const tokens = new CdekTokenSource({
    baseUrl,
    clientId,
    clientSecret,
    nowMs: options.nowMs ?? Date.now,
    ...(options.coordination
      ? {
          shared: {
            coordination: options.coordination,
            name: tokenSlotName('cdek', baseUrl, clientId, clientSecret),
          },
        }
      : {}),
  });
  const resolver = options.locations ?? createLocationResolver();
  // The same namespace as the adapter's: a city code found for quotes answers here too.
  const cities = cdekCityDirectory(createCdekApi(baseUrl, tokens), `cdek ${baseUrl}`);

  async function get(pathAndQuery: string, signal: AbortSignal): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.get(signal);
      if (!token.ok) throw new PointDirectoryError('carrier_error', token.failure.detail);
      const response = await carrierRequest(`${baseUrl}${pathAndQuery}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${token.token}`, accept: 'application/json' },
        signal,
        maxBytes: LARGEST_CARRIER_RESPONSE_BYTES,
      });
      if (response.status === 401 && attempt < 2) {
        tokens.invalidate(token.token);
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        throw new PointDirectoryError('carrier_error', `CDEK deliverypoints failed: HTTP ${response.status}`);
      }
      return response.json;
    }
  }

  return {
    namespace,
    async fetch(town, signal) {
      const place = {
        city: town.region ? `${town.city}, ${town.region}` : town.city,
        postalCode: town.postalCode,
      };
      const code = await resolver.resolve(place, 'cdek_city_code', { directory: cities, signal });
      if (!code.ok) {
        throw new PointDirectoryError(
          code.kind === 'carrier_error' ? 'carrier_error' : 'town_not_found',
          code.detail,
        );
      }
      try {
        return readDeliveryPoints(await get(deliveryPointsPath(code.value), signal));
      } catch (err) {
        if (err instanceof CarrierHttpError && !signal.aborted) {
          throw new PointDirectoryError('carrier_error', `CDEK: ${err.message}`);
        }
        throw err;
      }
    },
  };
}
