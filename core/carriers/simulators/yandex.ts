// A local Yandex Delivery «другой день» platform API (verified-2026.md §7) for sandbox mode and tests:
// location/detect, pickup-points/list and pricing-calculator under /api/b2b/platform, Bearer token checked,
// `{code,message}` errors with 4xx (no service: 404 `no_delivery_options`), prices as "225.7 RUB" strings.
// Sandbox tariff: express courier, dear and fast (1–2 days), door and pickup point, small parcels only.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allCities, type City } from '../../locations/cities';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { placeOfAddress } from './address-place';
import { answerAfter, type SimulatorHandle } from './handle';
import { chargeableGrams, modelPriceKopecks, zoneOf } from './tariff-model';
import { readBody } from './read-body';

export interface YandexSimulatorOptions {
  latencyMs?: number;
  token?: string;
}

/** The simulator's own token (the published test token belongs to Yandex's test host). */
export const YANDEX_SIM_TOKEN = 'ratedesk-sandbox-yandex-token';
/** Yandex's published test warehouse station (protocols.md §7.2): a Moscow warehouse here too. */
export const YANDEX_TEST_STATION = 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924';

const BASE = '/api/b2b/platform';
/** Towns with pickup points (and drop-off): Yandex's network is in the larger towns. */
export const YANDEX_MIN_POPULATION = 30_000;
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
}

type Json = Record<string, unknown>;

function hex32(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 32);
}

export async function startYandexSimulator(options: YandexSimulatorOptions = {}): Promise<SimulatorHandle> {
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const expected = `Bearer ${options.token ?? YANDEX_SIM_TOKEN}`;
  const timers = new Set<NodeJS.Timeout>();
  const geos = new Map<number, SimPlace>();
  const geoOfPlace = new Map<string, number>();
  const stations = new Map<string, Station>();
  let requests = 0;

  allCities().forEach((city, i) => {
    if (!city.postalCode) return;
    const id = KNOWN_GEO_IDS.get(city.name) ?? 100_000 + i;
    if (geos.has(id)) return;
    geos.set(id, { city: { ...city, postalCode: city.postalCode }, trigger: null });
    geoOfPlace.set(`${city.name}|${city.region}|`, id);
  });
  const moscow = geos.get(213)!;
  stations.set(YANDEX_TEST_STATION, { ...moscow, dropoff: true });

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

  function pointsOf(geoId: number): Array<{ id: string } & Station> {
    const place = geos.get(geoId);
    if (!place || place.city.population < YANDEX_MIN_POPULATION) return [];
    return [true, false].map((dropoff, n) => {
      const id = hex32(`yandex-pvz ${geoId} ${n}`);
      const station: Station = { ...place, dropoff };
      stations.set(id, station);
      return { id, ...station };
    });
  }

  function send(res: ServerResponse, arrivedAt: number, status: number, body: Json): void {
    answerAfter(latencyMs, arrivedAt, timers, () => {
      if (res.destroyed) return;
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
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

  function pickupPoints(body: Json): [number, Json] {
    if (body.geo_id !== undefined && !Number.isInteger(body.geo_id)) {
      return [400, err('validation_error', 'geo_id must be an integer')];
    }
    let points = body.geo_id === undefined ? [] : pointsOf(body.geo_id as number);
    if (body.available_for_dropoff === true) points = points.filter((p) => p.dropoff);
    return [
      200,
      {
        points: points.map((p) => ({
          id: p.id,
          name: `Пункт выдачи, ${p.city.name}`,
          type: 'pickup_point',
          available_for_dropoff: p.dropoff,
          position: { latitude: p.city.lat, longitude: p.city.lon },
          address: { full_address: `${p.city.name}, ${p.city.region}`, locality: p.city.name },
          payment_methods: ['already_paid'],
        })),
      },
    ];
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
    const sides: number[] = [];
    let weight = body.total_weight as number;
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
        sides.push(...(['dx', 'dy', 'dz'] as const).map((k) => (d[k] as number | undefined) ?? 0));
        weight = Math.max(weight, (d.weight_gross as number | undefined) ?? 0);
      }
    }
    const from = stations.get(source.platform_station_id);
    if (!from || !from.dropoff) return [400, err('validation_error', 'Unknown source station')];

    let to: SimPlace | null;
    if (body.tariff === 'self_pickup') {
      if (typeof destination.platform_station_id !== 'string') {
        return [400, err('validation_error', 'destination.platform_station_id is required for self_pickup')];
      }
      to = stations.get(destination.platform_station_id) ?? null;
      if (!to) return [400, err('validation_error', 'Unknown destination station')];
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
    const sorted = [...sides].sort((a, b) => b - a);
    if (weight > MAX_WEIGHT_G || sorted.some((s, i) => s > (MAX_SIDES_CM[i] ?? 0))) {
      return [400, err('validation_error', 'Dimensions should not exceed limit')];
    }
    const zone = zoneOf(from.city.postalCode, to.city.postalCode);
    const door = body.tariff === 'time_interval';
    const [l = 1, h = 1, w = 1] = sides;
    const grams = chargeableGrams(weight, l, w, h);
    // Express: dear (×2.4 door, ×1.9 pickup point of the shared model) and fast.
    const base = modelPriceKopecks(zone, grams, door ? 2.4 : 1.9);
    const insurance = Math.round(((body.total_assessed_price as number | undefined) ?? 0) * 0.005);
    // Tens of kopecks, so prices read like the documented "225.7 RUB".
    const total = Math.round((base + insurance + 70) / 10) * 10;
    return [200, { pricing_total: `${formatRoubles(total)} RUB`, delivery_days: zone <= 2 ? 1 : 2 }];
  }

  async function handle(req: IncomingMessage, res: ServerResponse, arrivedAt: number): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const text = await readBody(req);
    const route = url.pathname;
    const known = ['/location/detect', '/pickup-points/list', '/pricing-calculator'].map((p) => BASE + p);
    if (!known.includes(route)) return send(res, arrivedAt, 404, err('not_found', `No handler for ${route}`));
    if (req.method !== 'POST') return send(res, arrivedAt, 405, err('method_not_allowed', 'Use POST'));
    if (req.headers.authorization !== expected)
      return send(res, arrivedAt, 401, err('unauthorized', 'Access denied'));
    if (text === null) return send(res, arrivedAt, 413, err('validation_error', 'Request body too large'));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, arrivedAt, 400, err('validation_error', 'Request body is not valid JSON'));
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return send(res, arrivedAt, 400, err('validation_error', 'Request body must be an object'));
    }
    const json = body as Json;
    const answer =
      route === `${BASE}/location/detect`
        ? detect(json)
        : route === `${BASE}/pickup-points/list`
          ? pickupPoints(json)
          : pricing(json);
    if (answer === 'hang') return; // never answered; close() destroys the socket
    send(res, arrivedAt, answer[0], answer[1]);
  }

  const server = createServer((req, res) => {
    const arrivedAt = performance.now();
    requests++;
    void handle(req, res, arrivedAt).catch(() =>
      send(res, arrivedAt, 500, err('internal_error', 'Internal server error')),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** 22570 → "225.7", 22500 → "225", 22555 → "225.55": as few decimals as the amount needs. */
export function formatRoubles(kopecks: number): string {
  const whole = Math.floor(kopecks / 100);
  const frac = String(kopecks % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}
