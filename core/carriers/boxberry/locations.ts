// Our place → Boxberry's city code (protocols.md §3.5): Boxberry's calculator wants its own `Code` from
// ListCitiesFull. The list is downloaded once per adapter (the official plugin caches it for 24 h) and matched
// the way the plugin's LocationFinder does, by name and region, but first by KLADR, which our table and
// Boxberry share (hflabs/city `kladr_id` is Boxberry's 13-digit `Kladr`). The resolver caches each answer in
// SQLite under the host's namespace, so the list is rarely needed at all.
import { findCity, normaliseCityName } from '../../locations/cities';
import type { CarrierDirectory, DirectoryAnswer, DirectoryQuery } from '../../locations/resolver';
import { CarrierHttpError, carrierRequest } from '../http';
import { listCitiesFullUrl } from './request';
import { boxberryErrorText } from './errors';
import { BoxberryCity, BoxberryCityList } from './schema';

export interface BoxberryCityEntry {
  code: string;
  name: string;
  region: string;
  kladr: string;
}

/** How long a downloaded city list is used before it is asked for again (the official plugin's 24 h). */
export const CITY_LIST_TTL_MS = 24 * 60 * 60 * 1000;

/** The shared download's own bound: longer than any quote waits, so a slow list still arrives for the next. */
const CITY_LIST_DOWNLOAD_MS = 30_000;

export function boxberryCityDirectory(
  baseUrl: string,
  token: string,
  nowMs: () => number = Date.now,
): CarrierDirectory {
  let list: { at: number; cities: BoxberryCityEntry[] } | null = null;
  let flight: Promise<BoxberryCityEntry[] | { error: string }> | null = null;

  async function download(signal: AbortSignal): Promise<BoxberryCityEntry[] | { error: string }> {
    let res;
    try {
      res = await carrierRequest(listCitiesFullUrl(baseUrl, token), { method: 'GET', signal });
    } catch (err) {
      if (err instanceof CarrierHttpError) return { error: `Boxberry city list: ${err.message}` };
      throw err;
    }
    if (res.status !== 200) return { error: `Boxberry city list: HTTP ${res.status}` };
    const errorText = boxberryErrorText(res.json);
    if (errorText !== undefined) return { error: `Boxberry city list: ${errorText}` };
    const parsed = BoxberryCityList.safeParse(res.json);
    if (!parsed.success) return { error: 'Boxberry city list: unexpected body' };
    const cities: BoxberryCityEntry[] = [];
    for (const raw of parsed.data) {
      const city = BoxberryCity.safeParse(raw);
      if (!city.success) continue; // one odd row must not cost every other city
      if (city.data.CountryCode !== undefined && String(city.data.CountryCode) !== '643') continue;
      cities.push({
        code: String(city.data.Code),
        name: city.data.Name,
        region: city.data.Region ?? '',
        kladr: city.data.Kladr ?? '',
      });
    }
    list = { at: nowMs(), cities };
    return cities;
  }

  async function cities(signal: AbortSignal): Promise<BoxberryCityEntry[] | { error: string }> {
    if (list && nowMs() - list.at < CITY_LIST_TTL_MS) return list.cities;
    // Concurrent quotes on a cold adapter share one download, which is not tied to the first quote's
    // signal (its timeout must not fail the others); each quote stops waiting at its own abort.
    flight ??= download(AbortSignal.timeout(CITY_LIST_DOWNLOAD_MS)).finally(() => {
      flight = null;
    });
    return untilAborted(flight, signal);
  }

  return {
    namespace: `boxberry ${baseUrl}`,
    async lookup(query: DirectoryQuery, signal: AbortSignal): Promise<DirectoryAnswer> {
      const all = await cities(signal);
      if ('error' in all) return { error: all.error };
      const match = matchCity(all, query);
      return match ? { found: true, value: match.code } : { found: false };
    },
  };
}

/** KLADR first (exact), else the name, preferring the one whose region shares a distinctive word. */
export function matchCity(
  cities: readonly BoxberryCityEntry[],
  query: DirectoryQuery,
): BoxberryCityEntry | undefined {
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

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
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
        reject(e as Error);
      },
    );
  });
}
