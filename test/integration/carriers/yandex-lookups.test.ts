// The Yandex adapter's lookups and refusals against servers answering like Yandex, over real HTTP (audit Y3,
// Y6, Y8): Moscow's pickup list at a realistic size (test/fixtures/carriers/yandex, built from the captured
// records) must be asked for a window, not whole; a failed pickup lookup keeps the door rate; a town-level
// address Yandex cannot place, a parcel over its dimensions and a source taking no drop-offs are no service,
// never a carrier error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import { createYandexAdapter, type YandexAdapterOptions } from '../../../core/carriers/yandex';
import type { Logger } from '../../../core/util/logger';
import { answerList, MOSCOW, moscowPickupPoints } from '../../fixtures/carriers/yandex/pickup-points';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

/** 5,000 Moscow points in the captured shape: about 8 MB unfiltered (the fixture's README). */
const MOSCOW_POINTS = moscowPickupPoints(5_000);
const STATION = 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924';
const PRICE = { status: 200, body: { pricing_total: '412.8 RUB', delivery_days: 2 } };

type Answer = { status: number; body: unknown };
interface Seen {
  path: string;
  body: Record<string, unknown>;
  bytes: number;
}

/** A server answering like Yandex: Moscow's geo id, the fixture's points filtered as asked, `price(body)`. */
async function fakeYandex(over: {
  detect?: () => Answer;
  points?: (body: Record<string, unknown>) => Answer;
  price?: (body: Record<string, unknown>) => Answer;
}) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
      const answer: Answer = path.endsWith('/location/detect')
        ? (over.detect?.() ?? {
            status: 200,
            body: { variants: [{ geo_id: MOSCOW.geoId, address: 'Москва' }] },
          })
        : path.endsWith('/pickup-points/list')
          ? (over.points?.(body) ?? { status: 200, body: answerList(MOSCOW_POINTS, body) })
          : (over.price?.(body) ?? PRICE);
      const text = JSON.stringify(answer.body);
      seen.push({ path, body, bytes: Buffer.byteLength(text) });
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function recordingLogger() {
  const warnings: Array<{ message: string; fields: unknown }> = [];
  const logger: Logger = {
    warn: (message, fields) => warnings.push({ message, fields }),
    info: () => {},
    error: () => {},
  };
  return { logger, warnings };
}

function adapter(baseUrl: string, over: Partial<YandexAdapterOptions> = {}) {
  return createYandexAdapter({ baseUrl, token: 'y2_token', sourceStationId: STATION, ...over });
}

const moscowToMoscow: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Москва', postalCode: '101000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});
const ctx = () => ({ signal: AbortSignal.timeout(15_000) });
const tariffs = (r: Awaited<ReturnType<ReturnType<typeof adapter>['quote']>>) =>
  r.ok ? r.rates.map((x) => x.service_code) : [];

describe('Y6: Moscow pickup points at a realistic size', () => {
  it('the whole town is far over the cap; the adapter asks a window, well under it, and prices both legs', async () => {
    expect(Buffer.byteLength(JSON.stringify(answerList(MOSCOW_POINTS, { geo_id: 213 })))).toBeGreaterThan(
      5 * MAX_CARRIER_RESPONSE_BYTES,
    );
    const f = await fakeYandex({});
    const r = await adapter(f.url).quote(moscowToMoscow, ctx());
    expect(tariffs(r)).toEqual(['yandex:time_interval', 'yandex:self_pickup']);

    const lists = f.seen.filter((s) => s.path.endsWith('/pickup-points/list'));
    expect(lists).toHaveLength(1);
    const asked = lists[0]!;
    expect(asked.body).toMatchObject({
      geo_id: 213,
      type: 'pickup_point',
      payment_method: 'already_paid',
      latitude: { from: expect.any(Number), to: expect.any(Number) },
      longitude: { from: expect.any(Number), to: expect.any(Number) },
    });
    expect(asked.bytes).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 4);
    // The point priced is the listed one nearest the centre (Yandex's order is not by distance).
    const listed = answerList(MOSCOW_POINTS, asked.body).points;
    const d = (p: Record<string, unknown>) => {
      const at = p.position as { latitude: number; longitude: number };
      return (at.latitude - MOSCOW.lat) ** 2 + ((at.longitude - MOSCOW.lon) * 0.563) ** 2;
    };
    const nearest = [...listed].sort((a, b) => d(a) - d(b))[0]!;
    const pvz = f.seen.find(
      (s) => s.path.endsWith('/pricing-calculator') && s.body.tariff === 'self_pickup',
    )!;
    expect(pvz.body.destination).toEqual({ platform_station_id: nearest.id });
  });

  it('without an own station, the drop-off point comes from a window too', async () => {
    const f = await fakeYandex({});
    const r = await adapter(f.url, { sourceStationId: null }).quote(moscowToMoscow, ctx());
    expect(r.ok).toBe(true);
    const dropoff = f.seen.find(
      (s) => s.path.endsWith('/pickup-points/list') && s.body.available_for_dropoff,
    );
    expect(dropoff?.body.latitude).toBeDefined();
    expect(dropoff!.bytes).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 4);
  });

  it('a window with no point is widened, never replaced by the whole town', async () => {
    const f = await fakeYandex({
      points: (body) => {
        const lat = body.latitude as { from: number; to: number };
        // Nothing within 2 km of the centre: the first window is empty.
        const wide = lat.to - lat.from > 0.04;
        return { status: 200, body: wide ? answerList(MOSCOW_POINTS, body) : { points: [] } };
      },
    });
    const r = await adapter(f.url).quote(moscowToMoscow, ctx());
    expect(tariffs(r)).toContain('yandex:self_pickup');
    const lists = f.seen.filter((s) => s.path.endsWith('/pickup-points/list'));
    expect(lists.length).toBeGreaterThan(1);
    expect(lists.every((s) => s.body.latitude !== undefined)).toBe(true);
  });
});

describe('Y6: a failed lookup keeps the door rate', () => {
  it.each([
    ['pickup-points/list answers 500', { points: () => ({ status: 500, body: { code: 'internal_error' } }) }],
    [
      'Yandex ignores the window: the whole town, over the cap',
      { points: () => ({ status: 200, body: answerList(MOSCOW_POINTS, {}) }) },
    ],
    ['location/detect answers 500', { detect: () => ({ status: 500, body: { code: 'internal_error' } }) }],
  ])('%s → the door rate, and the failure is logged', async (_name, over) => {
    const { logger, warnings } = recordingLogger();
    const f = await fakeYandex(over);
    const r = await adapter(f.url, { logger }).quote(moscowToMoscow, ctx());
    expect(tariffs(r)).toEqual(['yandex:time_interval']);
    expect(JSON.stringify(warnings)).toMatch(/pickup-point lookup failed/);
  });

  it('a failed lookup and a door with no service: the fault wins (the route was not really answered)', async () => {
    const f = await fakeYandex({
      points: () => ({ status: 503, body: {} }),
      price: () => ({ status: 404, body: { code: 'no_delivery_options', message: 'No delivery options' } }),
    });
    expect(await adapter(f.url).quote(moscowToMoscow, ctx())).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: expect.stringMatching(/pickup-points\/list failed: HTTP 503/),
    });
  });

  it('a failed drop-off lookup fails the quote: without a source station Yandex prices nothing', async () => {
    const f = await fakeYandex({ points: () => ({ status: 500, body: {} }) });
    expect(await adapter(f.url, { sourceStationId: null }).quote(moscowToMoscow, ctx())).toMatchObject({
      ok: false,
      kind: 'carrier_error',
    });
  });
});

describe('Y3 and Y8: route refusals are no service, never a carrier error', () => {
  it('400 "Cannot parse destination info" for the town-level door address: the pickup rate alone', async () => {
    const f = await fakeYandex({
      price: (body) =>
        body.tariff === 'time_interval'
          ? { status: 400, body: { code: 'validation_error', message: 'Cannot parse destination info' } }
          : PRICE,
    });
    expect(tariffs(await adapter(f.url).quote(moscowToMoscow, ctx()))).toEqual(['yandex:self_pickup']);
  });

  it('…and with no pickup point either: no service naming the address', async () => {
    const f = await fakeYandex({
      points: () => ({ status: 200, body: { points: [] } }),
      price: () => ({
        status: 400,
        body: { code: 'validation_error', message: 'Cannot parse destination info' },
      }),
    });
    expect(await adapter(f.url).quote(moscowToMoscow, ctx())).toEqual({
      ok: false,
      kind: 'no_service',
      detail: 'no door rate: Yandex could not place a town-level address (it asks «город, улица, дом»)',
    });
  });

  it.each([
    ['Dimensions should not exceed limit', /dimensions/],
    ['No dropoff available', /No dropoff available/],
  ])('404 "%s" is no service, and no unknown code is logged', async (message, detail) => {
    const { logger, warnings } = recordingLogger();
    const f = await fakeYandex({ price: () => ({ status: 404, body: { code: '404', message } }) });
    expect(await adapter(f.url, { logger }).quote(moscowToMoscow, ctx())).toMatchObject({
      ok: false,
      kind: 'no_service',
      detail: expect.stringMatching(detail),
    });
    expect(JSON.stringify(warnings)).not.toMatch(/does not know/);
  });
});
