// Our place → PEK's warehouse GUID, through POST /branches/findzonebyaddress/ {address} (verified-2026.md
// §5.2): `mainWarehouseId` is the main department's warehouse of the branch serving the address; an empty
// answer means the address is outside PEK's zone. The resolver caches answers (SQLite in the service), keyed
// by host, so the simulator's warehouse ids never answer for kabinet.pecom.ru.
import type { CarrierDirectory, DirectoryAnswer, DirectoryQuery } from '../../locations/resolver';
import type { PekApi } from './api';
import { PekErrorBody, PekZone } from './schema';

/**
 * PEK geocodes address strings written «страна, регион, район, населенный пункт, улица, дом, квартира»,
 * comma-separated, and forbids anything that is not part of the address (glook/pecom-php-sdk
 * `generated/Model/AddressBlock.php`; its findzonebyaddress help gives «Самарская область, город Отрадный»).
 * RateDesk knows the country, the region (the table's), the town and perhaps a postal code: no district, no
 * street (audit P5).
 */
export const PEK_ADDRESS_COUNTRY = 'Россия';

/**
 * Whether the postal code goes into the address, and where. PEK's order has no slot for it and no source
 * says whether its geocoder reads one (unverified): it is written right after the country, never first, as
 * Russian addresses written from the country down do ("Россия, 420000, Республика Татарстан, Казань"). It
 * tells namesakes apart and carries the sandbox triggers to the simulator; `omit` leaves it out.
 */
export type PekPostalCodeInAddress = 'after_country' | 'omit';
export const PEK_POSTAL_CODE_IN_ADDRESS: PekPostalCodeInAddress = 'after_country';

/** "Россия, 420000, Республика Татарстан, Казань"; a federal city is its own region: "Россия, 101000, Москва". */
export function pekAddress(
  query: Pick<DirectoryQuery, 'city' | 'region' | 'postalCode'>,
  postalCode: PekPostalCodeInAddress = PEK_POSTAL_CODE_IN_ADDRESS,
): string {
  const region = query.region === query.city ? null : query.region;
  const index = postalCode === 'after_country' ? query.postalCode : null;
  return [PEK_ADDRESS_COUNTRY, index, region, query.city]
    .map((p) => p?.trim())
    .filter((p): p is string => Boolean(p))
    .join(', ');
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
      const error = PekErrorBody.safeParse(json);
      // PEK's own words, so a person reading "carrier error" sees what PEK said (a refused address form, say).
      const words = error.success
        ? [error.data.error.title, error.data.error.message].filter(Boolean).join(': ')
        : '';
      const said = words ? `: ${words}` : '';
      if (status === 401 || status === 403)
        return { error: `PEK rejected the credentials (HTTP ${status})${said}` };
      if (status < 200 || status >= 300) return { error: `PEK zone lookup failed: HTTP ${status}${said}` };
      if (error.success) return { error: `PEK zone lookup failed: ${words || 'error'}` };
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
