// Boxberry's city list at its real size and encoding (audit B5) and senders without a reception point (B4),
// against a server answering like Boxberry over real HTTP: rows built from the captured shapes
// (test/fixtures/carriers/boxberry), escaped as Boxberry escapes them, thousands of them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBoxberryAdapter, type BoxberryAdapterOptions } from '../../../core/carriers/boxberry';
import { CITY_LIST_RETRY_MS } from '../../../core/carriers/boxberry/locations';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import { allCities } from '../../../core/locations/cities';
import {
  escapedJson,
  listCitiesFullRows,
  listCitiesRows,
  type BoxberryRow,
} from '../../fixtures/carriers/boxberry/city-list';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const TOKEN = 'test-token';
/** A town Boxberry serves by courier alone in these fixtures: in ListCitiesFull, not in ListCities. */
const COURIER_ONLY = 'Балашиха';
const FULL = listCitiesFullRows(3_200, [COURIER_ONLY]);
const PICKUP = listCitiesRows(FULL);
const COSTS = {
  error: false,
  result: {
    DeliveryCosts: [
      { DeliveryTypeId: 1, TotalPrice: 301.5, PriceBase: 294, PriceService: 7.5, DeliveryPeriod: 3 },
      { DeliveryTypeId: 2, TotalPrice: 451.5, PriceBase: 444, PriceService: 7.5, DeliveryPeriod: 4 },
    ],
  },
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

/** Boxberry's json.php: the lists escaped as Boxberry writes them; `over` replaces a method's answer. */
async function fakeBoxberry(over: Partial<Record<string, () => { status: number; text: string }>> = {}) {
  const counts = new Map<string, number>();
  const senders: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks).toString();
      const parsed = body ? (JSON.parse(body) as { method?: string; SenderCityId?: string }) : {};
      const method = url.searchParams.get('method') ?? parsed.method ?? '';
      counts.set(method, (counts.get(method) ?? 0) + 1);
      if (parsed.SenderCityId) senders.push(parsed.SenderCityId);
      const answer =
        over[method]?.() ??
        (method === 'ListCitiesFull'
          ? { status: 200, text: escapedJson(FULL) }
          : method === 'ListCities'
            ? { status: 200, text: escapedJson(PICKUP) }
            : method === 'ZipCheck'
              ? { status: 200, text: '[{"ExpressDelivery":1,"ZoneExpressDelivery":"1","Remoteness":0}]' }
              : { status: 200, text: escapedJson(COSTS) });
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer.text),
      });
      res.end(answer.text);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/json.php`;
  return { url, count: (m: string) => counts.get(m) ?? 0, senders };
}

function adapter(url: string, over: Partial<BoxberryAdapterOptions> = {}) {
  return createBoxberryAdapter({ baseUrl: url, token: TOKEN, ...over });
}

function route(from: string, to: string): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: from, postalCode: null },
    to: { city: to, postalCode: null },
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 150_000,
  });
}
const ctx = () => ({ signal: AbortSignal.timeout(15_000) });

/** The city list held to the 1 MiB every quote's answer gets: what a list grown past its own cap meets. */
const TIGHT = { cityListMaxBytes: MAX_CARRIER_RESPONSE_BYTES };

describe('B5: ListCitiesFull at its real size', () => {
  it('the fixture: thousands of \\u-escaped rows of about 730 bytes, over the cap', () => {
    const text = escapedJson(FULL);
    expect(FULL.length).toBeGreaterThanOrEqual(3_000);
    expect(text).toContain('"Name":"\\u041c\\u043e\\u0441\\u043a\\u0432\\u0430"');
    expect(text).not.toMatch(/[а-яё]/i);
    expect(Buffer.byteLength(text) / FULL.length).toBeGreaterThan(650);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * MAX_CARRIER_RESPONSE_BYTES);
    expect(Buffer.byteLength(escapedJson(PICKUP))).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 2);
  });

  it('over the cap, the pickup-point towns (ListCities) answer and Москва → Казань is quoted', async () => {
    const f = await fakeBoxberry();
    const out = await adapter(f.url, TIGHT).quote(route('Москва', 'Казань'), ctx());
    expect(out.ok && out.rates.map((r) => r.service_code)).toEqual(['boxberry:1', 'boxberry:2']);
    expect(f.count('ListCitiesFull')).toBe(1);
    expect(f.count('ListCities')).toBe(1);
    expect(f.senders.every((s) => s === '68')).toBe(true);
  });

  it('a town served by courier alone is then no service naming the cause, not "city not found"', async () => {
    const f = await fakeBoxberry();
    expect(await adapter(f.url, TIGHT).quote(route('Москва', COURIER_ONLY), ctx())).toMatchObject({
      ok: false,
      kind: 'no_service',
      detail: expect.stringMatching(/not among Boxberry's pickup-point towns.*ListCitiesFull/),
    });
  });

  it('with its own cap (the default), ListCitiesFull loads whole: the courier-only town is quoted', async () => {
    const f = await fakeBoxberry();
    const out = await adapter(f.url).quote(route('Москва', COURIER_ONLY), ctx());
    expect(out.ok).toBe(true);
    expect(f.count('ListCities')).toBe(0);
  });
});

describe('B5: a failed download is remembered, not asked again by every quote', () => {
  it.each([
    ['HTTP 500', { ListCitiesFull: () => ({ status: 500, text: '<html>500</html>' }) }, /HTTP 500/],
    [
      'both lists over the cap',
      { ListCities: () => ({ status: 200, text: escapedJson([...PICKUP, ...FULL]) }) },
      /both over the limit/,
    ],
  ])('%s: asked once per CITY_LIST_RETRY_MS', async (_name, over, detail) => {
    let now = 1_000_000;
    const f = await fakeBoxberry(over);
    const a = adapter(f.url, { nowMs: () => now, ...TIGHT });
    for (let i = 0; i < 3; i++) {
      expect(await a.quote(route('Москва', 'Казань'), ctx())).toMatchObject({
        ok: false,
        kind: 'carrier_error',
        detail: expect.stringMatching(detail),
      });
    }
    expect(f.count('ListCitiesFull')).toBe(1);
    now += CITY_LIST_RETRY_MS - 1;
    await a.quote(route('Москва', 'Самара'), ctx());
    expect(f.count('ListCitiesFull')).toBe(1);
    now += 2;
    await a.quote(route('Москва', 'Самара'), ctx());
    expect(f.count('ListCitiesFull')).toBe(2);
    expect(f.count('DeliveryCalculation')).toBe(0);
  });
});

describe('B4: senders without a reception point', () => {
  const noReception = FULL.find((r) => r.PickupPoint === '1' && r.Reception === '0') as BoxberryRow;

  it('a sender town where Boxberry takes no parcels: no service naming the cause, no calculator call', async () => {
    expect(noReception).toBeDefined();
    const f = await fakeBoxberry();
    const town = allCities().find((c) => c.kladrId === noReception.Kladr)!;
    expect(await adapter(f.url).quote(route(town.name, 'Казань'), ctx())).toEqual({
      ok: false,
      kind: 'no_service',
      detail: `Boxberry takes no parcels in ${town.name}: no reception point there (city list: Reception 0)`,
    });
    expect(f.count('DeliveryCalculation')).toBe(0);
  });

  it('as a recipient the same town is priced (reception is about handing parcels in)', async () => {
    const f = await fakeBoxberry();
    const town = allCities().find((c) => c.kladrId === noReception.Kladr)!;
    expect((await adapter(f.url).quote(route('Москва', town.name), ctx())).ok).toBe(true);
  });
});
