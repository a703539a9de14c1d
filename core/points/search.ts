// Pickup points that take the parcel (#21): the carrier's point directory of the recipient's town (cached
// through the store, refreshed on a schedule), filtered by what the parcel needs, nearest to the town's
// centre first. One function behind POST /ext/v1/points (ApiRuntime.points) and the desk's points:search.
//
// The schedule (setting points.refresh_hours, default 24): a directory younger than that answers at once; an
// older one still answers at once while a fresh copy is fetched in the background (one fetch per town at a
// time, whoever asks); a fetch that fails keeps the old copy and is not tried again for RETRY_AFTER_MS. Only a
// town never fetched waits for the carrier, and a failure then is an error, never an empty list (an empty list
// says "no point takes this parcel").
import type { PickupPoint, PointsQuery, PointsResponse } from '../contract/points';
import { placesOf } from '../contract/quote-ext';
import {
  PointDirectoryError,
  type CarrierPointDirectory,
  type DirectoryPoint,
  type DirectoryTown,
  type StoredDirectory,
} from '../carriers/point-directory';
import { findCity, normaliseCityName } from '../locations/cities';
import type { Store } from '../store/port';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import { distanceKm, pointTakes } from './filter';

/** What the service knows of a carrier's directory. */
export type DirectoryLookup =
  | { kind: 'directory'; directory: CarrierPointDirectory }
  /** Enabled, but the carrier publishes no directory RateDesk can read (Почта России, rate cards, …). */
  | { kind: 'none' }
  /** Not a carrier of this install, or not enabled. */
  | { kind: 'unknown' };

export interface PointSearchDeps {
  store: Pick<Store, 'pointDirectories'>;
  clock: Clock;
  logger: Logger;
  /** The carrier's directory as the current settings configure it (the registry's adapter's `points`). */
  directoryOf(carrier: string): Promise<DirectoryLookup>;
  /** Setting points.refresh_hours. */
  refreshHours(): number;
}

export type PointSearchErrorKind =
  'unknown_carrier' | 'no_directory' | 'town_not_found' | 'not_configured' | 'carrier_error';

/** Why no list could be given; the operation and /ext/v1 word it for their callers. */
export class PointSearchError extends Error {
  override readonly name = 'PointSearchError';
  constructor(
    readonly kind: PointSearchErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export type PointSearch = (query: PointsQuery, signal?: AbortSignal) => Promise<PointsResponse>;

export interface PointSearchHandle extends PointSearch {
  /** Settles when no background refresh is under way (tests, shutdown). */
  idle(): Promise<void>;
}

/** After a failed fetch, the old copy serves this long before the carrier is asked again. */
export const RETRY_AFTER_MS = 15 * 60 * 1000;
/** One directory fetch's own bound: a caller that gives up does not cancel it for the others. */
export const FETCH_TIMEOUT_MS = 60_000;

const HOUR_MS = 60 * 60 * 1000;

export function createPointSearch(deps: PointSearchDeps): PointSearchHandle {
  const fetching = new Map<string, Promise<StoredDirectory>>();
  const failedAt = new Map<string, number>();

  function fetchNow(
    directory: CarrierPointDirectory,
    townKey: string,
    town: DirectoryTown,
  ): Promise<StoredDirectory> {
    const id = JSON.stringify([directory.namespace, townKey]);
    const running = fetching.get(id);
    if (running) return running;
    const task = (async (): Promise<StoredDirectory> => {
      try {
        const points = await directory.fetch(town, AbortSignal.timeout(FETCH_TIMEOUT_MS));
        const fetched: StoredDirectory = { fetchedAtMs: deps.clock.now().getTime(), points };
        failedAt.delete(id);
        try {
          await deps.store.pointDirectories.put(directory.namespace, townKey, fetched);
        } catch (err) {
          // A busy or read-only store costs the next search a fetch, never this one its answer.
          deps.logger.warn('pickup-point directory not stored', {
            namespace: directory.namespace,
            error: String(err),
          });
        }
        return fetched;
      } catch (err) {
        failedAt.set(id, deps.clock.now().getTime());
        throw err;
      }
    })();
    fetching.set(id, task);
    const forget = (): void => {
      if (fetching.get(id) === task) fetching.delete(id);
    };
    task.then(forget, forget);
    return task;
  }

  async function directoryFor(
    directory: CarrierPointDirectory,
    townKey: string,
    town: DirectoryTown,
    signal: AbortSignal | undefined,
  ): Promise<StoredDirectory> {
    const now = deps.clock.now().getTime();
    const stored = await deps.store.pointDirectories.get(directory.namespace, townKey);
    const refreshMs = Math.max(1, deps.refreshHours()) * HOUR_MS;
    if (stored) {
      const id = JSON.stringify([directory.namespace, townKey]);
      const lastFailure = failedAt.get(id);
      const stale = now - stored.fetchedAtMs >= refreshMs;
      const resting = lastFailure !== undefined && now - lastFailure < RETRY_AFTER_MS;
      if (stale && !resting) {
        fetchNow(directory, townKey, town).catch((err: unknown) => {
          deps.logger.warn('pickup-point directory refresh failed; the old copy serves', {
            namespace: directory.namespace,
            town: townKey,
            error: err instanceof Error ? err.message : String(err),
          });
        });
      }
      return stored;
    }
    try {
      return await untilAborted(fetchNow(directory, townKey, town), signal);
    } catch (err) {
      if (err instanceof PointDirectoryError) {
        throw new PointSearchError(err.kind === 'town_not_found' ? 'town_not_found' : err.kind, err.message);
      }
      if (signal?.aborted) throw err;
      throw new PointSearchError('carrier_error', err instanceof Error ? err.message : String(err));
    }
  }

  const search = async (query: PointsQuery, signal?: AbortSignal): Promise<PointsResponse> => {
    const lookup = await deps.directoryOf(query.carrier);
    if (lookup.kind === 'unknown') {
      throw new PointSearchError('unknown_carrier', `Carrier ${query.carrier} is not enabled`);
    }
    if (lookup.kind === 'none') {
      throw new PointSearchError(
        'no_directory',
        `Carrier ${query.carrier} publishes no pickup-point directory RateDesk can read`,
      );
    }
    const { town, townKey } = townOf(query.to.city, query.to.postal_code ?? null);
    const stored = await directoryFor(lookup.directory, townKey, town, signal);
    const needs = { boxes: placesOf(query), cod: query.cod_kopecks > 0, card: query.card };
    let filteredOut = 0;
    const taking: PickupPoint[] = [];
    for (const point of stored.points) {
      if (!pointTakes(point, needs)) {
        filteredOut += 1;
        continue;
      }
      taking.push(toPickupPoint(query.carrier, point, town.centre));
    }
    taking.sort(nearestFirst);
    return {
      points: taking.slice(0, query.limit),
      filtered_out: filteredOut,
      directory_fetched_at: new Date(stored.fetchedAtMs).toISOString(),
    };
  };

  return Object.assign(search, {
    async idle(): Promise<void> {
      while (fetching.size > 0) await Promise.allSettled([...fetching.values()]);
    },
  });
}

/** The town as the directories are asked for it, and its cache key (the city table's row when it knows it). */
export function townOf(city: string, postalCode: string | null): { town: DirectoryTown; townKey: string } {
  const row = findCity(city, postalCode);
  if (row) {
    return {
      town: {
        city: row.name,
        region: row.region,
        postalCode: postalCode ?? row.postalCode,
        centre: { lat: row.lat, lon: row.lon },
        kladrId: row.kladrId,
      },
      townKey: `${normaliseCityName(row.name)}|${normaliseCityName(row.region)}`,
    };
  }
  const typed = city.trim();
  return {
    town: { city: typed, region: null, postalCode, centre: null, kladrId: null },
    townKey: `?${normaliseCityName(typed)}|${postalCode ?? ''}`,
  };
}

function toPickupPoint(
  carrier: string,
  point: DirectoryPoint,
  centre: { lat: number; lon: number } | null,
): PickupPoint {
  return {
    carrier,
    code: point.code,
    kind: point.kind,
    name: point.name,
    address: point.address,
    hours: point.hours,
    lat: point.lat,
    lon: point.lon,
    distance_km:
      centre && point.lat !== null && point.lon !== null
        ? distanceKm(centre, { lat: point.lat, lon: point.lon })
        : null,
    max_weight_grams: point.max_weight_grams,
    max_dimensions_cm: point.max_dimensions_cm,
    cod: point.cod,
    card: point.card,
  };
}

/** Nearest first; points without coordinates last; the carrier's code breaks ties (a stable order). */
function nearestFirst(a: PickupPoint, b: PickupPoint): number {
  const da = a.distance_km ?? Number.POSITIVE_INFINITY;
  const db = b.distance_km ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da < db ? -1 : 1;
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
