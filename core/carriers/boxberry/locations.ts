// Our place → Boxberry's city code (protocols.md §3.5): Boxberry's calculator wants its own `Code` from
// ListCitiesFull. The list is downloaded once per adapter (the official plugin caches it for 24 h) and matched
// the way the plugin's LocationFinder does, by name and region, but first by KLADR, which our table and
// Boxberry share (hflabs/city `kladr_id` is Boxberry's 13-digit `Kladr`). The resolver caches each answer in
// SQLite under the host's namespace, so the list is rarely needed for a code.
//
// Size (audit B5). Boxberry writes Cyrillic as \uXXXX (a captured answer in the iamwildtuna/boxberry-sdk
// README), so a ListCitiesFull row shaped like gwinn/boxberry-sdk tests/Response/listCitiesFull.json is about
// 730 bytes and the HTTP client's 1 MiB cap holds about 1,430 rows; the list has thousands ("towns with pickup
// points + towns Boxberry delivers to", iamwildtuna README; «большого размера json», iamwildtuna/boxberry-sdk
// #8). Without a larger cap for this one call (http.ts takes none yet: `get` below is where the catalogue
// passes one), a ListCitiesFull over the cap falls back to ListCities, the towns with pickup points, in the
// same row shape: every town a parcel can be handed in (a sender needs a reception point) and every
// pickup-point destination is there; only towns Boxberry serves by courier alone are missing, and the adapter
// says so. A failed download is remembered for CITY_LIST_RETRY_MS instead of being asked again by every quote.
import { findCity, normaliseCityName } from '../../locations/cities';
import type { CarrierDirectory, DirectoryAnswer, DirectoryQuery } from '../../locations/resolver';
import { CarrierHttpError, carrierRequest } from '../http';
import { dropped, SharedDownload } from '../shared-download';
import { boxberryErrorText } from './errors';
import { listCitiesUrl, listCitiesFullUrl } from './request';
import { BoxberryCity, BoxberryCityList } from './schema';

export interface BoxberryCityEntry {
  code: string;
  name: string;
  region: string;
  kladr: string;
  /** Boxberry takes shops' parcels in the town (`Reception` 1); null when the row does not say. */
  reception: boolean | null;
}

/** Which list answered: the full one, or only the towns with pickup points (the full one over the cap). */
export type CityListCoverage = 'full' | 'pickup_points';

/**
 * The city lists' own answer cap (http.ts maxBytes): ListCitiesFull is thousands of rows with Cyrillic written
 * as \uXXXX, about 730 bytes a row, so the whole of Russia is past the 1 MiB every quote's answer is held to.
 */
export const CITY_LIST_MAX_BYTES = 8 * 1024 * 1024;

/** How long a downloaded city list is used before it is asked for again (the official plugin's 24 h). */
export const CITY_LIST_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a failed download is answered from memory before the list is asked for again (as 5Post does). */
export const CITY_LIST_RETRY_MS = 15 * 60 * 1000;

/** The shared download's own bound: longer than any quote waits, so a slow list still arrives for the next. */
const CITY_LIST_DOWNLOAD_MS = 30_000;

const TOO_LARGE = 'response too large';

export interface BoxberryCityDirectory extends CarrierDirectory {
  /** The list in use, once one was loaded. */
  coverage(): CityListCoverage | null;
  /** Whether Boxberry takes parcels in the town of `code`; null when unknown (no list, no flag). */
  reception(code: string, signal: AbortSignal): Promise<boolean | null>;
  /**
   * Loads the list now (the service's warm-up), sharing the download with quotes; dropped when `signal` fires
   * before a quote joined (shared-download.ts). A failure is kept as a quote's would be, and said by the next
   * quote.
   */
  preload(signal: AbortSignal): Promise<void>;
}

type Loaded = { cities: BoxberryCityEntry[]; coverage: CityListCoverage };

export function boxberryCityDirectory(
  baseUrl: string,
  token: string,
  nowMs: () => number = Date.now,
  maxBytes: number = CITY_LIST_MAX_BYTES,
): BoxberryCityDirectory {
  let list: (Loaded & { at: number }) | null = null;
  let failure: { at: number; error: string } | null = null;

  async function fetchList(
    method: 'ListCitiesFull' | 'ListCities',
    signal: AbortSignal,
  ): Promise<BoxberryCityEntry[] | { error: string }> {
    const url =
      method === 'ListCitiesFull' ? listCitiesFullUrl(baseUrl, token) : listCitiesUrl(baseUrl, token);
    let res;
    try {
      res = await carrierRequest(url, { method: 'GET', signal, maxBytes });
    } catch (err) {
      if (err instanceof CarrierHttpError) return { error: err.message };
      if (signal.aborted) return { error: `no answer within ${CITY_LIST_DOWNLOAD_MS / 1000} s` };
      throw err;
    }
    if (res.status !== 200) return { error: `HTTP ${res.status}` };
    const errorText = boxberryErrorText(res.json);
    if (errorText !== undefined) return { error: errorText };
    const parsed = BoxberryCityList.safeParse(res.json);
    if (!parsed.success) return { error: 'unexpected body' };
    return readRows(parsed.data);
  }

  async function download(signal: AbortSignal): Promise<Loaded | { error: string }> {
    const full = await fetchList('ListCitiesFull', signal);
    if (!('error' in full)) return { cities: full, coverage: 'full' };
    if (full.error !== TOO_LARGE) return { error: `Boxberry city list: ${full.error}` };
    const pickup = await fetchList('ListCities', signal);
    if (!('error' in pickup)) return { cities: pickup, coverage: 'pickup_points' };
    return {
      error:
        pickup.error === TOO_LARGE
          ? 'Boxberry city list: response too large (ListCitiesFull and ListCities are both over the limit)'
          : `Boxberry city list: ListCitiesFull ${TOO_LARGE}, ListCities ${pickup.error}`,
    };
  }

  // Concurrent quotes on a cold adapter share one download, which is not tied to the first quote's signal
  // (its timeout must not fail the others); each quote stops waiting at its own abort. The warm-up's
  // download is dropped if it stops before a quote needed the list (shared-download.ts).
  const shared = new SharedDownload<Loaded | { error: string }>(
    (signal) =>
      download(signal).then((loaded) => {
        if (dropped(signal)) return loaded;
        if ('error' in loaded) failure = { at: nowMs(), error: loaded.error };
        else {
          list = { ...loaded, at: nowMs() };
          failure = null;
        }
        return 'error' in loaded && list ? list : loaded;
      }),
    CITY_LIST_DOWNLOAD_MS,
  );

  async function cities(signal: AbortSignal, ahead = false): Promise<Loaded | { error: string }> {
    const now = nowMs();
    if (list && now - list.at < CITY_LIST_TTL_MS) return list;
    if (failure && now - failure.at < CITY_LIST_RETRY_MS) {
      // A list that is only old still answers: codes outlive a failed refresh.
      return (
        list ?? { error: `${failure.error} (not asked again for ${CITY_LIST_RETRY_MS / 60_000} minutes)` }
      );
    }
    return shared.join(signal, ahead);
  }

  return {
    namespace: `boxberry ${baseUrl}`,
    coverage: () => list?.coverage ?? null,
    async preload(signal) {
      await cities(signal, true);
    },
    async reception(code, signal) {
      const all = await cities(signal);
      if ('error' in all) return null;
      return all.cities.find((c) => c.code === code)?.reception ?? null;
    },
    async lookup(query: DirectoryQuery, signal: AbortSignal): Promise<DirectoryAnswer> {
      const all = await cities(signal);
      if ('error' in all) return { error: all.error };
      const match = matchCity(all.cities, query);
      return match ? { found: true, value: match.code } : { found: false };
    },
  };
}

/** Rows of Russia; one odd row must not cost every other city. */
function readRows(rows: readonly unknown[]): BoxberryCityEntry[] {
  const cities: BoxberryCityEntry[] = [];
  for (const raw of rows) {
    const city = BoxberryCity.safeParse(raw);
    if (!city.success) continue;
    if (city.data.CountryCode !== undefined && String(city.data.CountryCode) !== '643') continue;
    const reception = city.data.Reception;
    cities.push({
      code: String(city.data.Code),
      name: city.data.Name,
      region: city.data.Region ?? '',
      kladr: city.data.Kladr ?? '',
      reception: reception === undefined ? null : String(reception) === '1',
    });
  }
  return cities;
}

type Matchable = Pick<BoxberryCityEntry, 'code' | 'name' | 'region' | 'kladr'>;

/** KLADR first (exact), else the name, preferring the one whose region shares a distinctive word. */
export function matchCity<T extends Matchable>(cities: readonly T[], query: DirectoryQuery): T | undefined {
  const known = findCity(query.region ? `${query.city}, ${query.region}` : query.city, query.postalCode);
  if (known) {
    const byKladr = cities.find((c) => c.kladr === known.kladrId);
    if (byKladr) return byKladr;
  }
  const name = normaliseCityName(query.city);
  const named = cities.filter((c) => normaliseCityName(c.name) === name);
  if (named.length <= 1 || !query.region) return named[0];
  const words = distinctive(query.region);
  return named.find((c) => distinctive(c.region).some((w) => words.includes(w))) ?? named[0];
}

const GENERIC = new Set(['область', 'обл', 'край', 'республика', 'респ', 'автономный', 'округ', 'ао', 'г']);

function distinctive(region: string): string[] {
  return normaliseCityName(region.replace(/[.()/—-]/g, ' '))
    .split(' ')
    .filter((w) => w.length > 1 && !GENERIC.has(w));
}
