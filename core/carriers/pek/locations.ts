// Our place → PEK's warehouse GUID, through POST /branches/findzonebyaddress/ {address} (verified-2026.md
// §5.2): `mainWarehouseId` is the main department's warehouse of the branch serving the address; an empty
// answer means the address is outside PEK's zone. The resolver caches answers (SQLite in the service), keyed
// by host, so the simulator's warehouse ids never answer for kabinet.pecom.ru.
import type { CarrierDirectory, DirectoryAnswer, DirectoryQuery } from '../../locations/resolver';
import type { PekApi } from './api';
import { PekErrorBody, PekZone } from './schema';

/** "420000, Республика Татарстан, Казань": postal code first when known, then region and city, as PEK geocodes. */
export function pekAddress(query: Pick<DirectoryQuery, 'city' | 'region' | 'postalCode'>): string {
  // Federal cities are their own region ("Москва, Москва" says nothing twice).
  const region = query.region === query.city ? null : query.region;
  return [query.postalCode, region, query.city].filter((p) => p && p.trim()).join(', ');
}

export function pekWarehouseDirectory(api: PekApi, namespace: string): CarrierDirectory {
  return {
    namespace,
    async lookup(query, signal): Promise<DirectoryAnswer> {
      const { status, json, text } = await api.post(
        '/branches/findzonebyaddress/',
        { address: pekAddress(query) },
        signal,
      );
      if (status === 401 || status === 403) return { error: `PEK rejected the credentials (HTTP ${status})` };
      if (status < 200 || status >= 300) return { error: `PEK zone lookup failed: HTTP ${status}` };
      const error = PekErrorBody.safeParse(json);
      if (error.success) {
        const said = [error.data.error.title, error.data.error.message].filter(Boolean).join(': ');
        return { error: `PEK zone lookup failed: ${said || 'error'}` };
      }
      if (json === undefined && text.trim() !== '')
        return { error: 'PEK zone lookup answered without valid JSON' };
      if (isEmptyAnswer(json)) return { found: false };
      const zone = PekZone.safeParse(json);
      if (!zone.success) return { error: 'PEK zone lookup answered an unexpected body' };
      return { found: true, value: zone.data.mainWarehouseId };
    },
  };
}

/** Nothing, null, {} or []: "this address is outside PEK's zone". */
function isEmptyAnswer(json: unknown): boolean {
  if (json === undefined || json === null) return true;
  if (Array.isArray(json)) return json.length === 0;
  return typeof json === 'object' && Object.keys(json).length === 0;
}
