// A local Yandex Delivery «другой день» platform API (verified-2026.md §7) for sandbox mode and tests:
// location/detect, pickup-points/list and pricing-calculator under /api/b2b/platform, Bearer token checked,
// `{code,message}` errors with 4xx (no service: 404 `no_delivery_options`), prices as "225.7 RUB" strings.
// Sandbox tariff: express courier, dear and fast (1–2 days), door and pickup point, small parcels only.
// Like Yandex (audit, "what the simulators accept"): big towns have thousands of points of the real record
// size (yandex-points.ts) and the list honours the request's filters (geo_id, the latitude/longitude window,
// ids, type, drop-off, payment); a door address without a street is refused ("Cannot parse destination
// info"); a parcel over the limits and a source taking no drop-offs are 404s, as Yandex's errors page has them.
import { allCities, type City } from '../../locations/cities';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { placeOfAddress } from './address-place';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import { chargeableGrams, modelPriceKopecks, zoneOf } from './tariff-model';
import { readBody } from './read-body';
import { pointRecord, townPoints, townRadiusKm, YANDEX_MIN_POPULATION, type SimPoint } from './yandex-points';

export { YANDEX_MIN_POPULATION } from './yandex-points';

export interface YandexSimulatorOptions {
  latencyMs?: number;
  token?: string;
}

/** The simulator's own token (the published test token belongs to Yandex's test host). */
export const YANDEX_SIM_TOKEN = 'ratedesk-sandbox-yandex-token';
/** Yandex's published test warehouse station (protocols.md §7.2): a Moscow warehouse here too. */
export const YANDEX_TEST_STATION = 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924';

const BASE = '/api/b2b/platform';
/** Modelled package ceiling: the XL box, 60 × 40 × 45 cm, and 31 kg (core/carriers/yandex/limits.ts). */
const MAX_SIDES_CM = [60, 45, 40] as const;
const MAX_WEIGHT_G = 31_000;

/** Real geo ids of a few cities (Yandex regions); the rest get stable made-up ones. */
const KNOWN_GEO_IDS: ReadonlyMap<string, number> = new Map([
  ['Москва', 213],
  ['Санкт-Петербург', 2],
  ['Новосибирск', 65],
  ['Екатеринбург', 54],
  ['Казань', 43],
]);

interface SimPlace {
  city: City & { postalCode: string };
  /** A sandbox trigger code the address carried, if any. */
  trigger: string | null;
}

interface Station extends SimPlace {
  dropoff: boolean;
  /** Takes a card on receipt (cash on delivery); warehouses and drop-off-only stations do not matter here. */
  card: boolean;
}

type Json = Record<string, unknown>;

/** A `{from, to}` range of the pickup-points/list filter. */
interface Range {
  from: number;
  to: number;
}

const POINT_TYPES: ReadonlySet<string> = new Set([
  'pickup_point',
  'terminal',
  'post_office',
  'sorting_center',
]);
const PAYMENT_METHODS: ReadonlySet<string> = new Set(['already_paid', 'card_on_receipt']);

/**
 * Whether an address goes down to the house, «город, улица, дом»: some part other than the postal code
 * carries a number ("Москва, Тверская 1", "Казань, улица Баумана, 19"). "420000, Татарстан, Казань" does not.
 */
function hasHouse(address: string): boolean {
  return address
    .split(',')
    .map((p) => p.trim())
    .some((p) => !/^\d{6}$/.test(p) && /\d/.test(p));
}

export function startYandexSimulator(options: YandexSimulatorOptions = {}): Promise<SimulatorHandle> {
  const expected = `Bearer ${options.token ?? YANDEX_SIM_TOKEN}`;
  const geos = new Map<number, SimPlace>();
  const geoOfPlace = new Map<string, number>();
  const stations = new Map<string, Station>();

  allCities().forEach((city, i) => {
    if (!city.postalCode) return;
    const id = KNOWN_GEO_IDS.get(city.name) ?? 100_000 + i;
    if (geos.has(id)) return;
    geos.set(id, { city: { ...city, postalCode: city.postalCode }, trigger: null });
    geoOfPlace.set(`${city.name}|${city.region}|`, id);
  });
  const moscow = geos.get(213)!;
  stations.set(YANDEX_TEST_STATION, { ...moscow, dropoff: true, card: false });

  function geoIdFor(place: SimPlace): number {
    const key = `${place.city.name}|${place.city.region}|${place.trigger ?? ''}`;
    let id = geoOfPlace.get(key);
    if (id === undefined) {
      id = 900_000 + geoOfPlace.size;
      geoOfPlace.set(key, id);
      geos.set(id, place);
    }
    return id;
  }

  /** A geo's points, made once and remembered (as stations the calculator knows). */
  const pointsByGeo = new Map<number, SimPoint[]>();
  function pointsOf(geoId: number): SimPoint[] {
    let points = pointsByGeo.get(geoId);
    if (points) return points;
    const place = geos.get(geoId);
    points = place ? townPoints(geoId, place.city, place.trigger) : [];
    for (const p of points)
      stations.set(p.id, { city: p.city, trigger: p.trigger, dropoff: p.dropoff, card: p.card });
    pointsByGeo.set(geoId, points);
    return points;
  }

  /** Towns (not trigger geos) whose points may lie in the window: their centre within reach of it. */
  function geosNear(lat: Range | null, lon: Range | null): number[] {
    const out: number[] = [];
    for (const [id, place] of geos) {
      if (place.trigger !== null || place.city.population < YANDEX_MIN_POPULATION) continue;
      const reach = townRadiusKm(place.city.population) + 1;
      const dLat = reach / 111.32;
      const dLon = reach / (111.32 * Math.cos((place.city.lat * Math.PI) / 180));
      if (lat && (place.city.lat + dLat < lat.from || place.city.lat - dLat > lat.to)) continue;
      if (lon && (place.city.lon + dLon < lon.from || place.city.lon - dLon > lon.to)) continue;
      out.push(id);
    }
    return out;
  }

  function json(send: SimulatorExchange['send'], status: number, body: Json): void {
    send(status, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8' });
  }

  const err = (code: string, message: string): Json => ({ code, message });

  function placeOf(address: string): SimPlace | null {
    const p = placeOfAddress(address);
    if (!p.city || !p.city.postalCode) return null;
    const trigger = p.postalCode && ALL_TRIGGER_CODES.has(p.postalCode) ? p.postalCode : null;
    return { city: { ...p.city, postalCode: p.city.postalCode }, trigger };
  }

  function detect(body: Json): [number, Json] {
    if (typeof body.location !== 'string' || body.location.trim() === '') {
      return [400, err('validation_error', 'location is required')];
    }
    const place = placeOf(body.location);
    if (!place) return [200, { variants: [] }];
    return [
      200,
      {
        variants: [{ geo_id: geoIdFor(place), address: `Россия, ${place.city.region}, ${place.city.name}` }],
      },
    ];
  }

  function range(value: unknown): Range | null | 'bad' {
    if (value === undefined) return null;
    const r = value as Partial<Range> | null;
    if (typeof r !== 'object' || r === null || typeof r.from !== 'number' || typeof r.to !== 'number')
      return 'bad';
    return r.from <= r.to ? { from: r.from, to: r.to } : 'bad';
  }

  function pickupPoints(body: Json): [number, Json] {
    if (body.geo_id !== undefined && !Number.isInteger(body.geo_id)) {
      return [400, err('validation_error', 'geo_id must be an integer')];
    }
    const lat = range(body.latitude);
    const lon = range(body.longitude);
    if (lat === 'bad' || lon === 'bad')
      return [400, err('validation_error', 'latitude and longitude are {from, to} ranges, from ≤ to')];
    // The capture's own wording for an unknown enum value (3p id 57384569655), code and all.
    if (body.type !== undefined && !POINT_TYPES.has(String(body.type)))
      return [400, err('400', `Value of 'type' (${String(body.type)}) is not parseable into enum`)];
    if (body.payment_method !== undefined && !PAYMENT_METHODS.has(String(body.payment_method)))
      return [
        400,
        err('400', `Value of 'payment_method' (${String(body.payment_method)}) is not parseable into enum`),
      ];
    const ids = Array.isArray(body.pickup_point_ids) ? body.pickup_point_ids.map(String) : null;
    let points: SimPoint[];
    if (body.geo_id !== undefined) points = pointsOf(body.geo_id as number);
    else if (ids) points = [];
    else points = geosNear(lat, lon).flatMap(pointsOf); // no geo_id: every town in reach (all, unfiltered)
    if (ids) {
      const wanted = new Set(ids);
      const known = [...pointsByGeo.values()].flat().filter((p) => wanted.has(p.id));
      points = body.geo_id === undefined ? known : points.filter((p) => wanted.has(p.id));
    }
    const inside = (r: Range | null, x: number): boolean => r === null || (x >= r.from && x <= r.to);
    points = points.filter(
      (p) =>
        inside(lat, p.lat) &&
        inside(lon, p.lon) &&
        (body.type === undefined || p.type === body.type) &&
        (body.available_for_dropoff !== true || p.dropoff) &&
        (body.payment_method !== 'card_on_receipt' || p.card),
    );
    return [200, { points: points.map(pointRecord) }];
  }

  function pricing(body: Json): [number, Json] | 'hang' {
    const source = body.source as Json | undefined;
    const destination = body.destination as Json | undefined;
    if (typeof source?.platform_station_id !== 'string') {
      return [400, err('validation_error', 'source.platform_station_id is required')];
    }
    if (!destination || typeof destination !== 'object')
      return [400, err('validation_error', 'destination is required')];
    if (body.tariff !== 'time_interval' && body.tariff !== 'self_pickup') {
      return [400, err('validation_error', 'tariff must be one of time_interval, self_pickup')];
    }
    if (!Number.isInteger(body.total_weight) || (body.total_weight as number) < 0) {
      return [400, err('validation_error', 'total_weight must be an integer number of grams')];
    }
    for (const f of ['total_assessed_price', 'client_price'] as const) {
      if (body[f] !== undefined && !Number.isInteger(body[f])) {
        return [400, err('validation_error', `${f} must be an integer number of kopecks`)];
      }
    }
    // The payment: the documented enum (already_paid, card_on_receipt), worded as Yandex words an enum error.
    const payment = body.payment_method ?? 'already_paid';
    if (!PAYMENT_METHODS.has(String(payment)))
      return [400, err('400', `Value of 'payment_method' (${String(payment)}) is not parseable into enum`)];
    const cod = (body.client_price as number | undefined) ?? 0;
    // Modelled (Yandex does not publish it): a sum to collect needs a method that collects it.
    if (cod > 0 && payment === 'already_paid')
      return [400, err('validation_error', 'client_price requires payment_method card_on_receipt')];
    // Every place on its own against the package ceiling; the weight priced is all of them (total_weight).
    const places: Array<{ grams: number; sides: number[] }> = [];
    if (body.places !== undefined) {
      if (!Array.isArray(body.places)) return [400, err('validation_error', 'places must be an array')];
      for (const place of body.places as unknown[]) {
        const d = (place as Json | null)?.physical_dims as Json | undefined;
        if (!d) return [400, err('validation_error', 'places[].physical_dims is required')];
        for (const k of ['weight_gross', 'dx', 'dy', 'dz'] as const) {
          if (d[k] !== undefined && !Number.isInteger(d[k])) {
            return [400, err('validation_error', `physical_dims.${k} must be an integer`)];
          }
        }
        places.push({
          grams: (d.weight_gross as number | undefined) ?? 0,
          sides: (['dx', 'dy', 'dz'] as const).map((k) => (d[k] as number | undefined) ?? 0),
        });
      }
    }
    // One place is the whole parcel: the total weight is its weight when it says more.
    if (places.length === 1) places[0]!.grams = Math.max(places[0]!.grams, body.total_weight as number);
    const weight = Math.max(
      body.total_weight as number,
      places.reduce((sum, p) => sum + p.grams, 0),
    );
    // Yandex's errors page: an id it cannot resolve is 400 "Cant get station id for point"; a station that
    // ships nothing is 404 "No dropoff available". Their `code` values are not published: the HTTP status as
    // a string, as Yandex's own enum error has it ({"code":"400",…}, 3p id 57384569655).
    const from = stations.get(source.platform_station_id);
    if (!from) return [400, err('validation_error', 'Cant get station id for point')];
    if (!from.dropoff) return [404, err('404', 'No dropoff available')];

    let to: SimPlace | null;
    if (body.tariff === 'self_pickup') {
      if (typeof destination.platform_station_id !== 'string') {
        return [400, err('validation_error', 'destination.platform_station_id is required for self_pickup')];
      }
      const station = stations.get(destination.platform_station_id);
      if (!station) return [400, err('validation_error', 'Cant get station id for point')];
      // Modelled: a point that takes no card cannot collect the payment.
      if (payment === 'card_on_receipt' && !station.card)
        return [404, err('no_delivery_options', 'No delivery options')];
      to = station;
    } else {
      if (typeof destination.address !== 'string') {
        return [400, err('validation_error', 'destination.address is required for time_interval')];
      }
      to = placeOf(destination.address);
      if (!to) return [400, err('validation_error', 'Cannot parse destination info')];
    }

    switch (sandboxBehaviour('yandex', to.trigger)) {
      case 'timeout':
        return 'hang';
      case 'error':
        return [500, err('internal_error', 'Internal server error')];
      case 'no_service':
        return [404, err('no_delivery_options', 'No delivery options')];
      case 'ok':
        break;
    }
    // After the triggers, so a trigger index still reaches its behaviour through a town-level address.
    if (body.tariff === 'time_interval' && !hasHouse(destination.address as string))
      return [400, err('validation_error', 'Cannot parse destination info')];
    const overLimit = (grams: number, sides: number[]): boolean => {
      const sorted = [...sides].sort((a, b) => b - a);
      return grams > MAX_WEIGHT_G || sorted.some((s, i) => s > (MAX_SIDES_CM[i] ?? 0));
    };
    if (places.some((p) => overLimit(p.grams, p.sides)) || (places.length === 0 && overLimit(weight, []))) {
      return [404, err('404', 'Dimensions should not exceed limit')];
    }
    const zone = zoneOf(from.city.postalCode, to.city.postalCode);
    const door = body.tariff === 'time_interval';
    // Each place's volumetric weight, the larger of it and its own weight, all places together.
    const grams = Math.max(
      weight,
      places.reduce((sum, p) => {
        const [l = 1, h = 1, w = 1] = p.sides;
        return sum + chargeableGrams(p.grams, l, w, h);
      }, 0),
    );
    // Express: dear (×2.4 door, ×1.9 pickup point of the shared model) and fast; each place after the first
    // handled for 50 ₽.
    const base = modelPriceKopecks(zone, grams, door ? 2.4 : 1.9) + Math.max(0, places.length - 1) * 5_000;
    const insurance = Math.round(((body.total_assessed_price as number | undefined) ?? 0) * 0.005);
    // Tens of kopecks, so prices read like the documented "225.7 RUB".
    const pricing = Math.round((base + insurance + 70) / 10) * 10;
    if (payment === 'already_paid')
      return [200, { pricing_total: `${formatRoubles(pricing)} RUB`, delivery_days: zone <= 2 ? 1 : 2 }];
    // Taking the payment: 2.2 % of the sum collected (the percentage of the platform's documented example),
    // answered as clients' models of this answer carry it (schema.ts).
    const commission = Math.round((cod * 22) / 1000);
    return [
      200,
      {
        pricing_total: `${formatRoubles(pricing + commission)} RUB`,
        pricing: `${formatRoubles(pricing)} RUB`,
        pricing_commission_on_delivery_payment: '2.2%',
        pricing_commission_on_delivery_payment_amount: `${formatRoubles(commission)} RUB`,
        delivery_days: zone <= 2 ? 1 : 2,
      },
    ];
  }

  async function handle({ req, send }: SimulatorExchange): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const text = await readBody(req);
    const route = url.pathname;
    const known = ['/location/detect', '/pickup-points/list', '/pricing-calculator'].map((p) => BASE + p);
    if (!known.includes(route)) return json(send, 404, err('not_found', `No handler for ${route}`));
    if (req.method !== 'POST') return json(send, 405, err('method_not_allowed', 'Use POST'));
    if (req.headers.authorization !== expected) return json(send, 401, err('unauthorized', 'Access denied'));
    if (text === null) return json(send, 413, err('validation_error', 'Request body too large'));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(send, 400, err('validation_error', 'Request body is not valid JSON'));
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return json(send, 400, err('validation_error', 'Request body must be an object'));
    }
    const asked = body as Json;
    const answer =
      route === `${BASE}/location/detect`
        ? detect(asked)
        : route === `${BASE}/pickup-points/list`
          ? pickupPoints(asked)
          : pricing(asked);
    if (answer === 'hang') return; // never answered; close() destroys the socket
    json(send, answer[0], answer[1]);
  }

  return startSimulatorServer(handle, {
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    onError: ({ send }) => json(send, 500, err('internal_error', 'Internal server error')),
  });
}

/** 22570 → "225.7", 22500 → "225", 22555 → "225.55": as few decimals as the amount needs. */
export function formatRoubles(kopecks: number): string {
  const whole = Math.floor(kopecks / 100);
  const frac = String(kopecks % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}
