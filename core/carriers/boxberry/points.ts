// Boxberry's pickup-point directory (#21): `?token=…&method=ListPoints&CityCode=…&prepaid=1` on json.php
// (protocols.md §3.5), the town's points mapped to the search's point.
//
// Fields (gwinn/boxberry-sdk src/Model/Response/Geography/ListPointsResponse.php with its Russian doc comments;
// IrinaRomas/PickpointClient PointBoxberry.swift, every field a string): `Code`, `Name`, `Address`,
// `WorkShedule` (sic), `GPS` ("55.755,37.617"), `LoadLimit` (kg), `VolumeLimit` (m³), `OnlyPrepaidOrders`
// ("Yes": the point hands out only prepaid parcels, so no cash on delivery), `Acquiring` ("Yes": card
// payment), `Postamat` (boolean, gwinn). Boxberry publishes no box sides per point, only the volume, so a
// point's box is null and the volume is filtered on instead.
// `prepaid=1` lists the prepaid-only points too (the search filters by OnlyPrepaidOrders itself); what ListPoints
// leaves out without it is documented only by SDK comments (unverified, docs/carriers.md). City code from the
// location resolver (ListCitiesFull, cached), as quotes get it.
import { z } from 'zod';
import { createLocationResolver } from '../../locations/resolver';
import { CarrierHttpError, carrierRequest, LARGEST_CARRIER_RESPONSE_BYTES } from '../http';
import { PointDirectoryError, type CarrierPointDirectory, type DirectoryPoint } from '../point-directory';
import type { BoxberryAdapterOptions } from './adapter';
import { boxberryErrorText } from './errors';
import { boxberryCityDirectory } from './locations';

const Text = z.union([z.string(), z.number()]).transform(String);
const Flag = z
  .union([z.string(), z.boolean(), z.number()])
  .transform((v) => (typeof v === 'string' ? /^(yes|да|1|true)$/i.test(v.trim()) : Boolean(v)));

const BoxberryPoint = z.looseObject({
  Code: Text.pipe(z.string().min(1)),
  Name: Text.optional().catch(undefined),
  Address: Text.optional().catch(undefined),
  WorkShedule: Text.optional().catch(undefined),
  GPS: Text.optional().catch(undefined),
  LoadLimit: Text.optional().catch(undefined),
  VolumeLimit: Text.optional().catch(undefined),
  OnlyPrepaidOrders: Flag.optional().catch(undefined),
  Acquiring: Flag.optional().catch(undefined),
  Postamat: Flag.optional().catch(undefined),
});
type BoxberryPoint = z.infer<typeof BoxberryPoint>;

export function listPointsUrl(baseUrl: string, token: string, cityCode: string): string {
  const q = new URLSearchParams({ token, method: 'ListPoints', CityCode: cityCode, prepaid: '1' });
  return `${baseUrl}?${q.toString()}`;
}

/** A positive decimal ("15", "0,3", "0.125"), else null. */
function decimal(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text.trim().replace(',', '.'));
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** One ListPoints answer → points; an error form is a failure, an unreadable entry is skipped. */
export function readListPoints(json: unknown): DirectoryPoint[] {
  const error = boxberryErrorText(json);
  if (error !== undefined) throw new PointDirectoryError('carrier_error', `Boxberry ListPoints: ${error}`);
  if (!Array.isArray(json))
    throw new PointDirectoryError('carrier_error', 'Boxberry ListPoints answered an unexpected body');
  const points: DirectoryPoint[] = [];
  for (const raw of json) {
    const parsed = BoxberryPoint.safeParse(raw);
    if (parsed.success) points.push(toPoint(parsed.data));
  }
  return points;
}

function toPoint(p: BoxberryPoint): DirectoryPoint {
  const [lat, lon] = (p.GPS ?? '').split(',').map((x) => Number(x.trim()));
  const ok = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x) && x !== 0;
  const load = decimal(p.LoadLimit);
  const volume = decimal(p.VolumeLimit);
  return {
    code: p.Code,
    kind: p.Postamat === true ? 'postamat' : 'pvz',
    name: p.Name ?? p.Code,
    address: p.Address ?? '',
    hours: p.WorkShedule ?? '',
    lat: ok(lat) && ok(lon) ? lat : null,
    lon: ok(lat) && ok(lon) ? lon : null,
    max_weight_grams: load === null ? null : Math.round(load * 1000),
    max_dimensions_cm: null,
    max_volume_cm3: volume === null ? null : Math.round(volume * 1_000_000),
    cod: p.OnlyPrepaidOrders === false,
    card: p.Acquiring === true,
  };
}

export function createBoxberryPointDirectory(options: BoxberryAdapterOptions): CarrierPointDirectory {
  const baseUrl = options.baseUrl;
  const namespace = `boxberry points ${baseUrl}`;
  const token = options.token?.trim() ?? '';
  if (token === '') {
    return {
      namespace,
      fetch: () => Promise.reject(new PointDirectoryError('not_configured', 'Boxberry token is not set')),
    };
  }
  const resolver = options.locations ?? createLocationResolver();
  const cities = boxberryCityDirectory(baseUrl, token, options.nowMs ?? Date.now, options.cityListMaxBytes);
  return {
    namespace,
    async fetch(town, signal) {
      const place = {
        city: town.region ? `${town.city}, ${town.region}` : town.city,
        postalCode: town.postalCode,
      };
      const code = await resolver.resolve(place, 'boxberry_city_code', { directory: cities, signal });
      if (!code.ok) {
        throw new PointDirectoryError(
          code.kind === 'carrier_error' ? 'carrier_error' : 'town_not_found',
          code.detail,
        );
      }
      try {
        const res = await carrierRequest(listPointsUrl(baseUrl, token, code.value), {
          method: 'GET',
          signal,
          maxBytes: LARGEST_CARRIER_RESPONSE_BYTES,
        });
        if (res.status !== 200)
          throw new PointDirectoryError('carrier_error', `Boxberry ListPoints failed: HTTP ${res.status}`);
        return readListPoints(res.json);
      } catch (err) {
        if (err instanceof CarrierHttpError && !signal.aborted) {
          throw new PointDirectoryError('carrier_error', `Boxberry: ${err.message}`);
        }
        throw err;
      }
    },
  };
}
