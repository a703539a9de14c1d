// Dellin's places: 25-character KLADR city codes (protocols.md §4.5: the table's 13 digits + 12 zeros) and
// terminal ids from Dellin's own location API, POST /v1/public/request_terminals.json {appkey, code,
// direction} (a Node client and a Laravel client call it so; it answers {"terminals":[{id, name, address,
// default}]}). The terminal lookup is a CarrierDirectory, so the resolver caches its answers (SQLite in the
// running service) per host and direction: a city's sending and receiving terminals can differ.
import { findCity } from '../../locations/cities';
import type { CarrierDirectory, DirectoryAnswer, DirectoryQuery } from '../../locations/resolver';
import { CarrierHttpError, carrierRequest, type CarrierHttpResponse } from '../http';
import { kladr25 } from './request';
import { DellinTerminals } from './schema';

export const TERMINALS_PATH = '/v1/public/request_terminals.json';

export type TerminalDirection = 'derival' | 'arrival';

/** One POST /v1/public/request_terminals.json: a city's terminals for one direction (the live check's too). */
export function requestTerminals(
  baseUrl: string,
  appkey: string,
  kladr: string,
  direction: TerminalDirection,
  signal: AbortSignal,
): Promise<CarrierHttpResponse> {
  return carrierRequest(`${baseUrl}${TERMINALS_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appkey, code: kladr25(kladr), direction }),
    signal,
  });
}

export function dellinTerminalDirectory(
  baseUrl: string,
  appkey: string,
  direction: TerminalDirection,
): CarrierDirectory {
  return {
    namespace: `dellin ${baseUrl} ${direction}`,
    async lookup(query: DirectoryQuery, signal: AbortSignal): Promise<DirectoryAnswer> {
      const city = findCity(query.region ? `${query.city}, ${query.region}` : query.city, query.postalCode);
      if (!city) return { found: false };
      let res;
      try {
        res = await requestTerminals(baseUrl, appkey, city.kladrId, direction, signal);
      } catch (err) {
        if (err instanceof CarrierHttpError && !signal.aborted)
          return { error: `Dellin terminals: ${err.message}` };
        throw err;
      }
      if (res.status === 401 || res.status === 403)
        return { error: `Dellin rejected the appkey (HTTP ${res.status})` };
      if (res.status < 200 || res.status > 299) return { error: `Dellin terminals: HTTP ${res.status}` };
      const parsed = DellinTerminals.safeParse(res.json);
      if (!parsed.success) return { error: 'Dellin terminals: unexpected body' };
      // The terminal Dellin marks as the city's default, as its own site preselects it; else its first.
      const terminal = parsed.data.terminals.find((t) => t.default === true) ?? parsed.data.terminals[0];
      return terminal ? { found: true, value: String(terminal.id) } : { found: false };
    },
  };
}
