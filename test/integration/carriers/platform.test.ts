// #10 end to end, in sandbox mode: the parcel limits the adapters declare are answered by the platform with no
// network call, and places are resolved alike for /v1 and the desk (aliases, Latin names, an unknown city is
// "city not found" for every carrier).
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierCode } from '../../../core/carriers/types';
import { FIRST_TWO_CARRIERS, startTestService, type TestService } from '../../helpers/service';
import { startDesk, type DeskHarness } from '../desk/harness';

/**
 * Counts the requests each carrier's adapter sends its simulator: one listening forwarder per carrier, passed
 * as RatingServiceOptions.sandboxFront (which must answer synchronously, so they listen before the service).
 */
async function countingFront(carriers: readonly CarrierCode[]): Promise<{
  front: (carrier: CarrierCode, simulatorUrl: string) => string;
  counts: Map<CarrierCode, number>;
  close(): Promise<void>;
}> {
  const counts = new Map<CarrierCode, number>();
  const targets = new Map<CarrierCode, URL>();
  const ports = new Map<CarrierCode, number>();
  const servers: Server[] = [];
  for (const carrier of carriers) {
    const server = createServer((req, res) => {
      counts.set(carrier, (counts.get(carrier) ?? 0) + 1);
      const target = targets.get(carrier)!;
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    servers.push(server);
    ports.set(carrier, (server.address() as AddressInfo).port);
  }
  return {
    counts,
    front(carrier, simulatorUrl) {
      const target = new URL(simulatorUrl);
      targets.set(carrier, target);
      return `http://127.0.0.1:${ports.get(carrier)}${target.pathname === '/' ? '' : target.pathname}`;
    },
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.closeAllConnections();
              s.close(() => r());
            }),
        ),
      ).then(() => undefined),
  };
}

const PALLET = { weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 };

describe('/v1/rates (#10)', () => {
  let t: TestService;
  let proxy: Awaited<ReturnType<typeof countingFront>>;
  beforeAll(async () => {
    proxy = await countingFront(['cdek', 'russian-post']);
    t = await startTestService({ settings: FIRST_TWO_CARRIERS, sandboxFront: proxy.front });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it('a 900 kg, 300×300×300 cm pallet: Russian Post "exceeds carrier limits" without a call, never "no service"', async () => {
    const before = proxy.counts.get('russian-post') ?? 0;
    const r = await t.postRates({
      from: { city: 'Москва', postal_code: '101000' },
      to: { city: 'Казань', postal_code: '420000' },
      parcel: PALLET,
    });
    expect(r.json.unavailable).toEqual([
      {
        carrier: 'russian-post',
        reason:
          'parcel exceeds carrier limits: weight 900 kg over 31.5 kg; longest side 300 cm over 150 cm; ' +
          'sum of sides 900 cm over 300 cm',
      },
    ]);
    expect(proxy.counts.get('russian-post') ?? 0).toBe(before);
    // CDEK carries freight up to 20 t: its delivery contract's Сборный груз, after the contract-type fallback.
    expect(r.status).toBe(200);
    expect(r.json.rates.map((x: { service_code: string }) => x.service_code).sort()).toEqual([
      'cdek:750',
      'cdek:751',
    ]);
    expect(JSON.stringify(r.json)).not.toContain('no service');
  });

  it('an unknown city is "city not found" for every carrier: 422 shipment_not_served, no Retry-After, nothing charged', async () => {
    const before = (await t.get('/v1/balance')).json.balance;
    const r = await t.postRates({
      from: { city: 'Москва' },
      to: { city: 'Нигдевск' },
      parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    });
    // docs/api.md: a retry of the same body cannot succeed, so no Retry-After invites one.
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('shipment_not_served');
    expect(r.headers['retry-after']).toBeUndefined();
    expect((await t.get('/v1/balance')).json.balance).toBe(before);
    expect(r.json.unavailable).toEqual([
      { carrier: 'cdek', reason: 'city not found: Нигдевск' },
      { carrier: 'russian-post', reason: 'city not found: Нигдевск' },
    ]);
    expect(r.json.rates ?? []).toEqual([]);
  });

  it.each([
    ['спб', 'Санкт-Петербург'],
    ['Saint Petersburg', 'Санкт-Петербург'],
    ['St. Petersburg', 'Санкт-Петербург'],
    ['Питер', 'Санкт-Петербург'],
    ['мск', 'Москва'],
    ['Moscow', 'Москва'],
    ['г. Москва', 'Москва'],
    ['екб', 'Екатеринбург'],
    ['Yekaterinburg', 'Екатеринбург'],
    ['Ekaterinburg', 'Екатеринбург'],
    ['нск', 'Новосибирск'],
    ['Nizhny Novgorod', 'Нижний Новгород'],
    ['Королев', 'Королёв'],
  ])('«%s» is priced as %s by both carriers', async (typed, city) => {
    const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
    const from = { city: 'Казань' };
    const [asTyped, asNamed] = await Promise.all([
      t.postRates({ from, to: { city: typed }, parcel }),
      t.postRates({ from, to: { city }, parcel }),
    ]);
    expect(asTyped.status).toBe(200);
    expect(asTyped.json.unavailable).toEqual([]);
    expect(new Set(asTyped.json.rates.map((x: { carrier: string }) => x.carrier))).toEqual(
      new Set(['cdek', 'russian-post']),
    );
    expect(asTyped.json.rates).toEqual(asNamed.json.rates);
  });
});

describe('the desk (#10)', () => {
  let desk: DeskHarness;
  beforeAll(async () => {
    desk = await startDesk(FIRST_TWO_CARRIERS);
  });
  afterAll(() => desk.close());

  it('an unknown city is city_not_found for every carrier, streamed and kept in history', async () => {
    const q = await desk.ok('quote:run', {
      quoteKey: 'nowhere',
      shipment: {
        from: { city: 'Москва' },
        to: { city: 'Нигдевск' },
        parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
      },
    });
    expect(q.rates).toEqual([]);
    expect(q.failures).toEqual([
      { carrier: 'cdek', kind: 'city_not_found', detail: 'Нигдевск' },
      { carrier: 'russian-post', kind: 'city_not_found', detail: 'Нигдевск' },
    ]);
    const streamed = desk
      .eventsOf('quote:progress')
      .filter((e) => e.quoteKey === 'nowhere')
      .flatMap((e) => (e.progress.state === 'unavailable' ? [e.progress.kind] : []));
    expect(streamed).toEqual(['city_not_found', 'city_not_found']);
    const stored = await desk.ok('history:get', { id: q.quote_id });
    expect(JSON.stringify(stored)).toContain('city_not_found');
  });

  it('a pallet is "exceeds limits" for Russian Post in the desk too', async () => {
    const q = await desk.ok('quote:run', {
      quoteKey: 'pallet',
      shipment: { from: { city: 'мск' }, to: { city: 'спб' }, parcel: PALLET },
    });
    expect(q.failures).toEqual([
      {
        carrier: 'russian-post',
        kind: 'exceeds_limits',
        detail:
          'weight 900 kg over 31.5 kg; longest side 300 cm over 150 cm; sum of sides 900 cm over 300 cm',
      },
    ]);
    expect(q.rates.every((r) => r.carrier === 'cdek')).toBe(true);
  });
});
