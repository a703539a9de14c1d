// Turns a place as a quote names it (a city, perhaps with its region, and an optional postal code) into the
// identifier a carrier wants: a postal index, KLADR or FIAS from the built-in table, or a carrier's own code
// (a CDEK city code, a terminal id) from that carrier's directory, whose answers are cached. Adapters, rate
// cards and the UI's city field all read places through here, so "спб", "Saint Petersburg" and
// "г. Санкт-Петербург" resolve alike everywhere, and a town nobody knows is "city not found" everywhere.
import type { Logger } from '../util/logger';
import { memoryLocationCache, type LocationCache } from './cache';
import { findCity, normaliseCityName, postalIndexIn, type City } from './cities';

/** What a carrier can ask a place for. The first three come from the table, the rest from a directory. */
export const LOCATION_WANTS = [
  'postal_code',
  'kladr_id',
  'fias_id',
  'cdek_city_code',
  'terminal_id',
  'boxberry_city_code',
] as const;
export type LocationWant = (typeof LOCATION_WANTS)[number];

/** A place as the aggregator hands it to adapters. */
export interface Place {
  /** What was typed: "Казань", "спб", "Киров, Калужская обл", "г. Москва". */
  city: string;
  /** Six digits when given; it wins over the city name wherever a postal code is what is wanted. */
  postalCode: string | null;
}

export type Resolution =
  | {
      ok: true;
      value: string;
      /** Where the value came from: the request itself, the built-in table, the cache, or the carrier now. */
      source: 'request' | 'table' | 'cache' | 'carrier';
      /** The table's city, when the place is one (its canonical name and region). */
      city: City | null;
    }
  /** Neither the table nor the carrier's directory knows the place (and no postal code settles it). */
  | { ok: false; kind: 'city_not_found'; detail: string }
  /** The table knows the city but has no index for it (Аргун), and no directory was asked. */
  | { ok: false; kind: 'postal_code_required'; detail: string }
  /** The directory itself failed (HTTP 5xx, an unreadable answer): nothing is cached. */
  | { ok: false; kind: 'carrier_error'; detail: string };

/** What a directory is told about the place it is asked for. */
export interface DirectoryQuery {
  /** The table's name when the table knows the city ("Аргун"), else what was typed, without a region. */
  city: string;
  /** The table's region, or the region typed after a comma; null when neither. */
  region: string | null;
  postalCode: string | null;
}

export type DirectoryAnswer = { found: true; value: string } | { found: false } | { error: string };

/** A carrier's own location API, e.g. CDEK's GET /location/cities. */
export interface CarrierDirectory {
  /**
   * Whose identifiers these are: the carrier and its host ("cdek https://api.cdek.ru/v2"). The cache is keyed
   * by it, so a simulator's made-up codes never answer for the live API, nor the test host's for production.
   */
  namespace: string;
  lookup(query: DirectoryQuery, signal: AbortSignal): Promise<DirectoryAnswer>;
}

export interface ResolveOptions {
  /** Asked when the table cannot answer; required for carrier identifiers (cdek_city_code, terminal_id). */
  directory?: CarrierDirectory;
  signal?: AbortSignal;
}

export interface LocationResolver {
  resolve(place: Place, want: LocationWant, options?: ResolveOptions): Promise<Resolution>;
}

export interface LocationResolverOptions {
  /** The data file's in the running service (the store's `locationCache`); in memory otherwise. */
  cache?: LocationCache;
  nowMs?: () => number;
  logger?: Logger;
}

/** A carrier's answer for a place changes rarely (a city code is for good); a month keeps the cache fresh. */
export const FOUND_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** "Unknown place" is kept briefly: a typo is not asked about on every retry, a new town shows up soon. */
export const NOT_FOUND_TTL_MS = 60 * 60 * 1000;

const TABLE_WANTS: ReadonlySet<LocationWant> = new Set(['postal_code', 'kladr_id', 'fias_id']);

export function createLocationResolver(options: LocationResolverOptions = {}): LocationResolver {
  const cache = options.cache ?? memoryLocationCache();
  const nowMs = options.nowMs ?? Date.now;
  const logger = options.logger;

  /** A cache that cannot be read or written (a locked file) costs a directory call, never the quote. */
  async function cached(
    namespace: string,
    want: LocationWant,
    key: string,
  ): Promise<string | null | undefined> {
    try {
      return (await cache.get(namespace, want, key, nowMs()))?.value;
    } catch (err) {
      logger?.warn('location cache could not be read', { namespace, want, error: String(err) });
      return undefined;
    }
  }

  async function remember(
    namespace: string,
    want: LocationWant,
    key: string,
    value: string | null,
  ): Promise<void> {
    try {
      await cache.put({
        namespace,
        want,
        key,
        value,
        nowMs: nowMs(),
        ttlMs: value === null ? NOT_FOUND_TTL_MS : FOUND_TTL_MS,
      });
    } catch (err) {
      logger?.warn('location cache could not be written', { namespace, want, error: String(err) });
    }
  }

  async function fromDirectory(
    place: Place,
    want: LocationWant,
    city: City | null,
    directory: CarrierDirectory,
    signal: AbortSignal,
  ): Promise<Resolution> {
    const typed = splitRegion(place.city);
    const query: DirectoryQuery = {
      city: city?.name ?? typed.name,
      region: city?.region ?? typed.region,
      postalCode: place.postalCode,
    };
    const key = placeKey(query);
    const hit = await cached(directory.namespace, want, key);
    if (hit !== undefined) {
      return hit === null ? notFound(place) : { ok: true, value: hit, source: 'cache', city };
    }
    const answer = await directory.lookup(query, signal);
    if ('error' in answer) return { ok: false, kind: 'carrier_error', detail: answer.error };
    await remember(directory.namespace, want, key, answer.found ? answer.value : null);
    return answer.found ? { ok: true, value: answer.value, source: 'carrier', city } : notFound(place);
  }

  return {
    async resolve(place, want, { directory, signal = new AbortController().signal } = {}) {
      signal.throwIfAborted();
      // An index written where the city goes («420111», no postal code) is the postal code, and its town.
      const postal = place.postalCode?.trim() || postalIndexIn(place.city) || null;
      if (want === 'postal_code' && postal) return { ok: true, value: postal, source: 'request', city: null };
      // The postal code, when given, also picks among namesakes (Киров 610000 vs Киров 249440).
      const city = place.city.trim() === '' ? null : findCity(place.city, postal);
      if (TABLE_WANTS.has(want) && city) {
        const value =
          want === 'postal_code' ? city.postalCode : want === 'kladr_id' ? city.kladrId : city.fiasId;
        if (value) return { ok: true, value, source: 'table', city };
      }
      if (directory) return fromDirectory({ ...place, postalCode: postal }, want, city, directory, signal);
      if (!TABLE_WANTS.has(want)) throw new Error(`resolving ${want} needs the carrier's directory`);
      if (city) return { ok: false, kind: 'postal_code_required', detail: city.name };
      return notFound(place);
    },
  };
}

function notFound(place: Place): Resolution {
  return { ok: false, kind: 'city_not_found', detail: place.city.trim() || '(no city)' };
}

/** "Киров, Калужская обл" → name and region; the region is what follows the first comma. */
function splitRegion(text: string): { name: string; region: string | null } {
  const comma = text.indexOf(',');
  if (comma < 0) return { name: text.trim(), region: null };
  const region = text.slice(comma + 1).trim();
  return { name: text.slice(0, comma).trim(), region: region === '' ? null : region };
}

/** One cache key however the place was spelt: "г. Аргун", "аргун" and "Аргун" are the same place. */
export function placeKey(query: DirectoryQuery): string {
  return [normaliseCityName(query.city), normaliseCityName(query.region ?? ''), query.postalCode ?? ''].join(
    '|',
  );
}
