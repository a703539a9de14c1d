// 5Post's pickup-point directory (#21): 5Post has no per-town call, its whole catalogue (pickuppoints/query,
// protocols.md §8.2) is what quotes already keep in the store's pickupCatalogue (catalogue.ts), so a town's
// points are read from there, found as quotes find them (town.ts: by the city table's FIAS code, then by name).
// Limits are the point's `cellLimits` (mm and mg: 15 kg, verified-2026 §8 "15000000 means 15 kg"); cash and
// card its `cashAllowed`/`cardAllowed` (the capture's fields, kept in ReadablePoint.place). Inactive points
// never reach the catalogue (points.ts, audit F8).
//
// No catalogue yet: against the simulator it is downloaded now (as the warm-up does); against 5Post itself it
// is not, because the catalogue is ~55 MB under a few daily downloads and the first 5Post quote fetches it —
// the points under a 5Post rate are asked after that quote.
import { findCity } from '../../locations/cities';
import { PointDirectoryError, type CarrierPointDirectory, type DirectoryPoint } from '../point-directory';
import type { CarrierAdapter } from '../types';
import type { FivePostCatalogueStore } from './catalogue-store';
import type { StoredPoint } from './points';
import { fiasKey, townNameKey } from './town';

export interface FivePostDirectoryOptions {
  baseUrl: string;
  store: FivePostCatalogueStore;
  /** Talks to the simulator: a missing catalogue may be downloaded now. */
  simulated: boolean;
  /** The adapter whose warm-up downloads the catalogue (simulator only). */
  adapter: () => CarrierAdapter;
}

export function fivePostPointDirectory(options: FivePostDirectoryOptions): CarrierPointDirectory {
  // The adapter's catalogue namespace (adapter.ts): the simulator's points never answer for api-omni.x5.ru.
  const catalogue = `5post ${options.baseUrl.replace(/\/+$/, '')}`;
  return {
    namespace: `5post points ${options.baseUrl.replace(/\/+$/, '')}`,
    async fetch(town, signal) {
      const { store } = options;
      if (!(await store.meta(catalogue))) {
        const prepare = options.adapter().prepare;
        if (options.simulated && prepare) await prepare({ signal, live: false });
        if (!(await store.meta(catalogue))) {
          throw new PointDirectoryError(
            'carrier_error',
            "5Post's pickup-point catalogue is not downloaded yet: the first 5Post quote fetches it",
          );
        }
      }
      const city = findCity(town.region ? `${town.city}, ${town.region}` : town.city, town.postalCode);
      const found = new Map<string, StoredPoint>();
      for (const key of [...(city ? [fiasKey(city)] : []), townNameKey(city?.name ?? town.city)]) {
        for (const p of await store.byCity(catalogue, key)) {
          // By name only: a namesake elsewhere is not this town (5Post writes regions its own way, town.ts).
          if (city && key !== fiasKey(city) && p.region && !sameRegionWord(p.region, city.region)) continue;
          found.set(p.id, p);
        }
      }
      return [...found.values()].flatMap(toPoint);
    },
  };
}

function toPoint(stored: StoredPoint): DirectoryPoint[] {
  const p = stored.point;
  if (!p) return [];
  const cell = p.cell;
  return [
    {
      code: stored.id,
      kind: p.type.toUpperCase() === 'POSTAMAT' ? 'postamat' : 'pvz',
      name: p.name,
      address: p.place?.address ?? '',
      hours: p.place?.hours ?? '',
      lat: p.place?.lat ?? null,
      lon: p.place?.lon ?? null,
      max_weight_grams: cell ? Math.floor(cell.maxWeightMg / 1000) : null,
      max_dimensions_cm: cell ? [cell.sidesMm[0] / 10, cell.sidesMm[1] / 10, cell.sidesMm[2] / 10] : null,
      cod: p.place?.cash ?? false,
      card: p.place?.card ?? false,
    },
  ];
}

function sameRegionWord(theirs: string, ours: string): boolean {
  const words = (s: string): string[] =>
    s
      .toLowerCase()
      .split(/[\s.,()-]+/)
      .filter((w) => w.length > 3);
  const a = words(theirs);
  return words(ours).some((w) => a.includes(w));
}
