// DPD's pickup-point directory (#21): getParcelShops of the geography2 SOAP service (protocols.md §6.2,
// verified-2026 §6 "Limits are per pickup point"), the town's parcel shops and postamats with their limits.
//
// Shapes: the request `getParcelShops{request{auth, countryCode, regionCode, cityCode, cityName}}` and the
// answer's `parcelShop{code, parcelShopType, state, address{…}, brand, geoCoordinates, limits{maxShipmentWeight,
// maxWeight, maxLength, maxWidth, maxHeight, dimensionSum}, schedule[{operation, timetable[{weekDays,
// workTime}]}], extraService[{esCode, params}], services{serviceCode}}` in namespace
// http://dpd.ru/ws/geography/2015-05-20 are a Go client's wsdl2go types and its captured answer (DP-VI,
// vseinstrumentiru/dpd; code-search ids 37847565715 and 37948800241): kg and cm, `cityCode` the 11-digit KLADR
// prefix ("78000000000" for St Petersburg, "42000009000" Кемерово), `regionCode` its first two digits.
// Cash on delivery: extraService `НПП` (наложенный платёж, with `sum_npp` its ceiling); card: a schedule of
// operation `PaymentByBankCard`; hours: the `SelfDelivery` schedule. `parcelShopType` "ПВП" is a pickup point;
// "П" is taken for a postamat (seen in plugins, unverified: docs/carriers.md).
import { findCity } from '../../locations/cities';
import { CarrierHttpError, carrierRequest, LARGEST_CARRIER_RESPONSE_BYTES } from '../http';
import {
  coordinates,
  PointDirectoryError,
  sortedSides,
  type CarrierPointDirectory,
  type DirectoryPoint,
  type DirectoryTown,
} from '../point-directory';
import { DPD_SOAP_HEADERS, dpdAccount, type DpdAdapterOptions } from './adapter';
import { buildSoapRequest, isRecord, readSoap, type XmlTree } from './soap';

export const DPD_GEOGRAPHY_PATH = '/geography2';
export const DPD_GEOGRAPHY_NS = 'http://dpd.ru/ws/geography/2015-05-20';

export function parcelShopsEnvelope(
  account: { clientNumber: string; clientKey: string },
  town: DirectoryTown,
): string {
  const kladr = town.kladrId ?? findCity(town.city, town.postalCode)?.kladrId ?? null;
  const request: XmlTree = {
    auth: { clientNumber: account.clientNumber, clientKey: account.clientKey },
    countryCode: 'RU',
    ...(kladr ? { regionCode: kladr.slice(0, 2), cityCode: kladr.slice(0, 11) } : { cityName: town.city }),
  };
  return buildSoapRequest('getParcelShops', DPD_GEOGRAPHY_NS, { request });
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const text = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
const positive = (v: unknown): number | null => {
  const n = Number(text(v));
  return text(v) !== '' && Number.isFinite(n) && n > 0 ? n : null;
};

/** One getParcelShops answer (HTTP status and text) → points. A Fault or an unreadable body is a failure. */
export function readParcelShops(status: number, body: string): DirectoryPoint[] {
  const reading = readSoap(body);
  if (reading.kind === 'fault') {
    throw new PointDirectoryError(
      'carrier_error',
      `DPD getParcelShops: ${reading.faultstring || reading.faultcode}`,
    );
  }
  if (reading.kind === 'unreadable' || status !== 200) {
    const why = reading.kind === 'unreadable' ? reading.why : `HTTP ${status}`;
    throw new PointDirectoryError('carrier_error', `DPD getParcelShops failed: ${why}`);
  }
  const response = reading.body.getParcelShopsResponse;
  if (!isRecord(response))
    throw new PointDirectoryError('carrier_error', 'DPD getParcelShops answered an unexpected body');
  const points: DirectoryPoint[] = [];
  for (const ret of list(response.return)) {
    if (!isRecord(ret)) continue;
    for (const shop of list(ret.parcelShop)) {
      if (!isRecord(shop)) continue;
      const point = toPoint(shop);
      if (point) points.push(point);
    }
  }
  return points;
}

function toPoint(shop: Record<string, unknown>): DirectoryPoint | null {
  const code = text(shop.code);
  const state = text(shop.state);
  if (code === '' || (state !== '' && state.toLowerCase() !== 'open')) return null;
  const address = isRecord(shop.address) ? shop.address : {};
  const geo = isRecord(shop.geoCoordinates) ? shop.geoCoordinates : {};
  const limits = isRecord(shop.limits) ? shop.limits : {};
  const schedules = list(shop.schedule).filter(isRecord);
  const hoursOf = (operation: string): string =>
    schedules
      .filter((s) => text(s.operation) === operation)
      .flatMap((s) => list(s.timetable).filter(isRecord))
      .map((t) => `${text(t.weekDays)}: ${text(t.workTime)}`)
      .join('; ');
  const [l, w, h] = [positive(limits.maxLength), positive(limits.maxWidth), positive(limits.maxHeight)];
  const weight = positive(limits.maxWeight);
  const shipment = positive(limits.maxShipmentWeight);
  const sum = positive(limits.dimensionSum);
  const type = text(shop.parcelShopType);
  const street = [text(address.streetAbbr), text(address.street)].filter(Boolean).join(' ');
  const house = text(address.houseNo);
  const { lat, lon } = coordinates(text(geo.latitude), text(geo.longitude));
  return {
    code,
    kind: type === 'П' || /постамат/i.test(type) ? 'postamat' : 'pvz',
    name: text(shop.brand) || `DPD ${code}`,
    address: [text(address.index), text(address.cityName), street, house].filter(Boolean).join(', '),
    hours: hoursOf('SelfDelivery'),
    lat,
    lon,
    max_weight_grams: weight === null ? null : Math.round(weight * 1000),
    max_dimensions_cm: l !== null && w !== null && h !== null ? sortedSides(l, w, h) : null,
    max_dimension_sum_cm: sum,
    max_shipment_weight_grams: shipment === null ? null : Math.round(shipment * 1000),
    cod: list(shop.extraService).some((e) => isRecord(e) && text(e.esCode) === 'НПП'),
    card: schedules.some((s) => text(s.operation) === 'PaymentByBankCard'),
  };
}

export function createDpdPointDirectory(options: DpdAdapterOptions): CarrierPointDirectory {
  const base = options.baseUrl.replace(/\/+$/, '');
  const namespace = `dpd points ${base}`;
  const account = dpdAccount(options);
  if (!account.ok) {
    const missing = account.missing;
    return { namespace, fetch: () => Promise.reject(new PointDirectoryError('not_configured', missing)) };
  }
  return {
    namespace,
    async fetch(town, signal) {
      try {
        const res = await carrierRequest(`${base}${DPD_GEOGRAPHY_PATH}`, {
          method: 'POST',
          headers: { ...DPD_SOAP_HEADERS },
          body: parcelShopsEnvelope(account, town),
          signal,
          maxBytes: LARGEST_CARRIER_RESPONSE_BYTES,
        });
        return readParcelShops(res.status, res.text);
      } catch (err) {
        if (err instanceof CarrierHttpError && !signal.aborted) {
          throw new PointDirectoryError('carrier_error', `DPD: ${err.message}`);
        }
        throw err;
      }
    },
  };
}
