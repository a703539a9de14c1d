// The CDEK adapter against the CDEK simulator over real HTTP on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCdekAdapter, type CdekAdapterOptions } from '../../../core/carriers/cdek';
import { SANDBOX_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import {
  startCdekSimulator,
  type CdekSimulatorHandle,
  type CdekSimulatorOptions,
} from '../../../core/carriers/simulators/cdek';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';

const sims: CdekSimulatorHandle[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

async function sim(options?: CdekSimulatorOptions): Promise<CdekSimulatorHandle> {
  const s = await startCdekSimulator(options);
  sims.push(s);
  return s;
}

function adapterFor(s: CdekSimulatorHandle, over: Partial<CdekAdapterOptions> = {}) {
  return createCdekAdapter({
    baseUrl: s.url,
    clientId: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP',
    clientSecret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
    ...over,
  });
}

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };

function request(over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return {
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Новосибирск', postalCode: '630000' },
    parcel,
    declaredValueKopecks: 0,
    ...over,
  };
}

const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

function rates(out: CarrierOutcome) {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return out.rates;
}

describe('CDEK adapter ↔ simulator', () => {
  it('quotes Москва → Новосибирск with exact kopecks and calendar days', async () => {
    const s = await sim();
    const out = rates(await adapterFor(s).quote(request(), ctx()));
    expect(out.length).toBeGreaterThanOrEqual(5);
    for (const r of out) {
      expect(r.carrier).toBe('cdek');
      expect(r.carrier_name).toBe('СДЭК');
      expect(r.service_code).toMatch(/^cdek:\d+$/);
      expect(Number.isInteger(r.price_kopecks)).toBe(true);
      expect(r.price_kopecks).toBeGreaterThan(0);
      expect(r.days_min).not.toBeNull();
      expect(r.days_max! >= r.days_min!).toBe(true);
    }
    const byCode = new Map(out.map((r) => [r.service_code, r]));
    expect(byCode.get('cdek:137')).toMatchObject({
      service_name: 'Посылка склад-дверь',
      delivery_type: 'door',
    });
    expect(byCode.get('cdek:136')).toMatchObject({ delivery_type: 'pickup_point' });
    expect(byCode.get('cdek:368')).toMatchObject({ delivery_type: 'pickup_point' });
    // Express is dearer than the plain parcel on the same route.
    expect(byCode.get('cdek:482')!.price_kopecks).toBeGreaterThan(byCode.get('cdek:137')!.price_kopecks);
  });

  it('prices match the simulator answer to the kopeck (decimal roubles)', async () => {
    const s = await sim();
    const token = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP&client_secret=RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const raw = (await fetch(`${s.url}/calculator/tarifflist`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 1,
        from_location: { postal_code: '101000', country_code: 'RU' },
        to_location: { postal_code: '630000', country_code: 'RU' },
        packages: [{ weight: 1200, length: 30, width: 20, height: 15 }],
      }),
    }).then((r) => r.json())) as { tariff_codes: Array<{ tariff_code: number; delivery_sum: number }> };
    // Roubles with decimals on the wire, as CDEK sends them.
    expect(raw.tariff_codes.some((t) => !Number.isInteger(t.delivery_sum))).toBe(true);
    const out = rates(await adapterFor(s).quote(request(), ctx()));
    for (const t of raw.tariff_codes) {
      const expected = Math.round(Number(t.delivery_sum.toFixed(2)) * 100);
      expect(out.find((r) => r.service_code === `cdek:${t.tariff_code}`)?.price_kopecks).toBe(expected);
    }
  });

  it('is deterministic', async () => {
    const s = await sim();
    const a = adapterFor(s);
    expect(await a.quote(request(), ctx())).toEqual(await a.quote(request(), ctx()));
  });

  it('heavier parcels lose tariffs; beyond every limit there is no service', async () => {
    const s = await sim();
    const a = adapterFor(s);
    const light = rates(await a.quote(request(), ctx()));
    const heavy = rates(await a.quote(request({ parcel: { ...parcel, weight_grams: 40_000 } }), ctx()));
    expect(heavy.length).toBeGreaterThan(0);
    expect(heavy.length).toBeLessThan(light.length);
    expect(heavy.every((r) => r.service_name.startsWith('Экономичная'))).toBe(true);
    expect(await a.quote(request({ parcel: { ...parcel, weight_grams: 60_000 } }), ctx())).toMatchObject({
      ok: false,
      kind: 'no_service',
    });
  });
});

describe('CDEK tokens', () => {
  it('caches the token across 5 quotes', async () => {
    const s = await sim();
    const a = adapterFor(s);
    for (let i = 0; i < 5; i++) rates(await a.quote(request(), ctx()));
    expect(s.tokenRequests()).toBe(1);
  });

  it('refreshes once the cached token nears expiry (injected clock)', async () => {
    const s = await sim({ tokenTtlSeconds: 3600 });
    let now = 1_000_000;
    const a = adapterFor(s, { nowMs: () => now });
    rates(await a.quote(request(), ctx()));
    now += (3600 - 61) * 1000; // still outside the 60 s safety margin
    rates(await a.quote(request(), ctx()));
    expect(s.tokenRequests()).toBe(1);
    now += 2000; // inside the margin: refresh before CDEK would refuse it
    rates(await a.quote(request(), ctx()));
    expect(s.tokenRequests()).toBe(2);
    rates(await a.quote(request(), ctx()));
    expect(s.tokenRequests()).toBe(2);
  });

  it('concurrent quotes on a cold cache share one token request', async () => {
    const s = await sim({ latencyMs: 30 });
    const a = adapterFor(s);
    const outs = await Promise.all(Array.from({ length: 8 }, () => a.quote(request(), ctx())));
    outs.forEach(rates);
    expect(s.tokenRequests()).toBe(1);
  });

  it('a 401 from the calculator drops the token and retries exactly once', async () => {
    const s = await sim();
    const a = adapterFor(s);
    rates(await a.quote(request(), ctx()));
    const before = s.requestCount();
    s.revokeTokens();
    rates(await a.quote(request(), ctx()));
    expect(s.tokenRequests()).toBe(2);
    // tarifflist (401) + token + tarifflist
    expect(s.requestCount() - before).toBe(3);
  });

  it('a token that expires early by the server clock is replaced transparently', async () => {
    const s = await sim({ tokenTtlSeconds: 1 });
    const a = adapterFor(s, { nowMs: () => 0 }); // the adapter believes the token is still fresh
    rates(await a.quote(request(), ctx()));
    await new Promise((r) => setTimeout(r, 1100));
    rates(await a.quote(request(), ctx()));
    expect(s.tokenRequests()).toBe(2);
  });

  it('gives up after one retry when CDEK keeps answering 401', async () => {
    let calls = 0;
    const url = await fakeCdek((req, res) => {
      calls += 1;
      if (req.url?.endsWith('/oauth/token')) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: `t${calls}`, expires_in: 3599 }));
      } else {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
      }
    });
    const out = await createCdekAdapter({ baseUrl: url, clientId: 'id', clientSecret: 'secret' }).quote(
      request(),
      ctx(),
    );
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(calls).toBe(4); // token, 401, token, 401
  });

  it('wrong credentials → carrier_error saying CDEK rejected them', async () => {
    const s = await sim();
    const out = await adapterFor(s, { clientSecret: 'wrong' }).quote(request(), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    if (!out.ok && out.kind === 'carrier_error')
      expect(out.detail).toContain('CDEK rejected the credentials');
  });

  it('custom simulator credentials are enforced', async () => {
    const s = await sim({ clientId: 'me', clientSecret: 'pw' });
    expect(await adapterFor(s).quote(request(), ctx())).toMatchObject({ ok: false, kind: 'carrier_error' });
    rates(await adapterFor(s, { clientId: 'me', clientSecret: 'pw' }).quote(request(), ctx()));
  });

  it('accepts the token parameters in the query string too, like the official plugin sends them', async () => {
    const s = await sim();
    const res = await fetch(
      `${s.url}/oauth/token?grant_type=client_credentials&client_id=wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP&client_secret=RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5`,
      { method: 'POST' },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'bearer', expires_in: 3599 });
    const bad = await fetch(
      `${s.url}/oauth/token?grant_type=client_credentials&client_id=x&client_secret=y`,
      { method: 'POST' },
    );
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('not configured → not_configured without any network call', async () => {
    let calls = 0;
    const url = await fakeCdek((_req, res) => {
      calls += 1;
      res.end();
    });
    for (const creds of [
      { clientId: null, clientSecret: 'x' },
      { clientId: 'x', clientSecret: null },
      { clientId: '', clientSecret: '  ' },
    ]) {
      const out = await createCdekAdapter({ baseUrl: url, ...creds }).quote(request(), ctx());
      expect(out).toMatchObject({ ok: false, kind: 'not_configured' });
    }
    expect(calls).toBe(0);
  });
});

describe('CDEK locations', () => {
  it('a city without postal code uses the main postal code from the city table', async () => {
    const s = await sim();
    const a = adapterFor(s);
    const withCodes = rates(await a.quote(request(), ctx()));
    const before = s.requestCount();
    const noCodes = rates(
      await a.quote(
        request({
          from: { city: 'Москва', postalCode: null },
          to: { city: 'Новосибирск', postalCode: null },
        }),
        ctx(),
      ),
    );
    expect(noCodes.length).toBeGreaterThan(0);
    expect(noCodes.map((r) => r.service_code)).toEqual(withCodes.map((r) => r.service_code));
    expect(s.requestCount() - before).toBe(1); // just the tarifflist: no city lookup
  });

  it('a city missing from the table is looked up in /location/cities, then cached', async () => {
    const s = await sim();
    const a = adapterFor(s, { cityPostalCode: () => null });
    const viaCode = rates(await a.quote(request({ to: { city: 'новосибирск', postalCode: null } }), ctx()));
    expect(s.requestCount()).toBe(3); // token, /location/cities, tarifflist
    // Same route by postal code: CDEK's city code 270 leads to the same tariffs and prices.
    expect(viaCode).toEqual(rates(await a.quote(request(), ctx())));
    const before = s.requestCount();
    rates(await a.quote(request({ to: { city: 'Новосибирск', postalCode: null } }), ctx()));
    expect(s.requestCount() - before).toBe(1); // cached code: only the tarifflist
  });

  it('the simulator uses CDEK city codes (44 Москва, 137 Санкт-Петербург, 270 Новосибирск)', async () => {
    const s = await sim();
    const token = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP',
        client_secret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const auth = { authorization: `Bearer ${token.access_token}` };
    const code = async (city: string) => {
      const res = await fetch(
        `${s.url}/location/cities?${new URLSearchParams({ city, country_codes: 'RU', size: '1' })}`,
        { headers: auth },
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as Array<{ code: number }>)[0]?.code;
    };
    expect(await code('Москва')).toBe(44);
    expect(await code('Санкт-Петербург')).toBe(137);
    expect(await code('Новосибирск')).toBe(270);
    expect(await code('Нигдеград')).toBeUndefined();
    expect((await fetch(`${s.url}/location/cities?city=Москва`)).status).toBe(401);
  });

  it('a city CDEK does not know → no_service "city not found"', async () => {
    const s = await sim();
    const out = await adapterFor(s, { cityPostalCode: () => null }).quote(
      request({ to: { city: 'Нигдеград', postalCode: null } }),
      ctx(),
    );
    expect(out).toMatchObject({ ok: false, kind: 'no_service' });
    if (!out.ok && out.kind === 'no_service') expect(out.detail).toMatch(/^city not found/);
  });

  it('an unknown postal code → no_service from v2_recipient_location_not_recognized', async () => {
    const s = await sim();
    const out = await adapterFor(s).quote(request({ to: { city: 'Где-то', postalCode: '000001' } }), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'no_service' });
    if (!out.ok && out.kind === 'no_service')
      expect(out.detail).toContain('v2_recipient_location_not_recognized');
    const out2 = await adapterFor(s).quote(
      request({ from: { city: 'Где-то', postalCode: '000001' } }),
      ctx(),
    );
    if (!out2.ok && out2.kind === 'no_service')
      expect(out2.detail).toContain('v2_sender_location_not_recognized');
    else throw new Error('expected no_service');
  });
});

describe('CDEK sandbox triggers and faults', () => {
  it('error trigger → carrier_error from HTTP 500', async () => {
    const s = await sim();
    const out = await adapterFor(s).quote(
      request({ to: { city: 'Новосибирск', postalCode: SANDBOX_TRIGGERS.cdekError } }),
      ctx(),
    );
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    if (!out.ok && out.kind === 'carrier_error') expect(out.detail).toContain('v2_internal_error');
  });

  it('no-service triggers → no_service', async () => {
    const s = await sim();
    const a = adapterFor(s);
    for (const postalCode of [SANDBOX_TRIGGERS.cdekNoService, SANDBOX_TRIGGERS.allNoService]) {
      expect(await a.quote(request({ to: { city: 'Новосибирск', postalCode } }), ctx())).toMatchObject({
        ok: false,
        kind: 'no_service',
      });
    }
  });

  it('the Russian Post triggers do not affect CDEK', async () => {
    const s = await sim();
    rates(
      await adapterFor(s).quote(
        request({ to: { city: 'Новосибирск', postalCode: SANDBOX_TRIGGERS.russianPostError } }),
        ctx(),
      ),
    );
  });

  it('abort while the simulator hangs rejects promptly with the abort reason, and close() is quick', async () => {
    const s = await sim();
    const a = adapterFor(s);
    const controller = new AbortController();
    const started = Date.now();
    const pending = a.quote(
      request({ to: { city: 'Новосибирск', postalCode: SANDBOX_TRIGGERS.cdekTimeout } }),
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new DOMException('carrier timeout', 'TimeoutError')), 150);
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(1000);
    const closing = Date.now();
    await s.close();
    sims.splice(sims.indexOf(s), 1);
    expect(Date.now() - closing).toBeLessThan(500);
  });

  it('a hung simulator is closed quickly even with the request still open', async () => {
    const s = await sim();
    const pending = adapterFor(s)
      .quote(request({ to: { city: 'Новосибирск', postalCode: SANDBOX_TRIGGERS.allTimeout } }), ctx())
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const closing = Date.now();
    await s.close();
    sims.splice(sims.indexOf(s), 1);
    expect(Date.now() - closing).toBeLessThan(500);
    // The adapter sees a dropped connection: a carrier fault, not a thrown exception.
    expect(await pending).toMatchObject({ ok: false, kind: 'carrier_error' });
  });

  it('an abort during the shared token request rejects only the aborted quote', async () => {
    const s = await sim({ latencyMs: 200 });
    const a = adapterFor(s);
    const controller = new AbortController();
    const aborted = a.quote(request(), { signal: controller.signal });
    const kept = a.quote(request(), ctx());
    setTimeout(() => controller.abort(new DOMException('gone', 'AbortError')), 50);
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    rates(await kept);
    expect(s.tokenRequests()).toBe(1);
  });

  it('a quote arriving after the only waiter abandoned the token request starts a fresh one', async () => {
    const s = await sim({ latencyMs: 150 });
    const a = adapterFor(s);
    const controller = new AbortController();
    const aborted = a.quote(request(), { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 30));
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    rates(await a.quote(request(), ctx()));
    expect(s.tokenRequests()).toBe(2);
  });

  it('latencyMs delays answers', async () => {
    const s = await sim({ latencyMs: 150 });
    const started = Date.now();
    rates(await adapterFor(s).quote(request(), ctx()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290); // token + tarifflist
  });

  it('bad JSON and 5xx from a misbehaving server are carrier errors, never exceptions', async () => {
    let mode: 'html' | '503' = 'html';
    const url = await fakeCdek((req, res) => {
      if (req.url?.endsWith('/oauth/token')) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"access_token":"t","expires_in":3599}');
      } else if (mode === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
      } else {
        res.writeHead(503).end();
      }
    });
    const a = createCdekAdapter({ baseUrl: `${url}/`, clientId: 'id', clientSecret: 'secret' });
    expect(await a.quote(request(), ctx())).toMatchObject({ ok: false, kind: 'carrier_error' });
    mode = '503';
    expect(await a.quote(request(), ctx())).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'CDEK HTTP 503',
    });
  });

  it('an unreachable CDEK is a carrier error', async () => {
    const s = await sim();
    const url = s.url;
    await s.close();
    sims.splice(sims.indexOf(s), 1);
    const out = await createCdekAdapter({ baseUrl: url, clientId: 'a', clientSecret: 'b' }).quote(
      request(),
      ctx(),
    );
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
  });
});

describe('CDEK simulator validation', () => {
  async function tariffList(
    s: CdekSimulatorHandle,
    body: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const token = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP',
        client_secret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const res = await fetch(`${s.url}/calculator/tarifflist`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }

  const loc = { postal_code: '101000', country_code: 'RU' };

  it('rejects missing packages, missing weight, bad JSON, and calls without a bearer', async () => {
    const s = await sim();
    expect(await tariffList(s, { from_location: loc, to_location: loc })).toMatchObject({
      status: 400,
      json: { errors: [{ code: 'v2_field_is_empty' }] },
    });
    expect(
      await tariffList(s, { from_location: loc, to_location: loc, packages: [{ length: 10 }] }),
    ).toMatchObject({
      status: 400,
      json: {
        errors: [{ code: 'v2_field_is_empty', message: expect.stringContaining('packages[0].weight') }],
      },
    });
    expect(await tariffList(s, '{nope')).toMatchObject({
      status: 400,
      json: { errors: [{ code: 'v2_invalid_format' }] },
    });
    const anon = await fetch(`${s.url}/calculator/tarifflist`, { method: 'POST', body: '{}' });
    expect(anon.status).toBe(401);
  });

  it('accepts CDEK city codes as locations', async () => {
    const s = await sim();
    const r = await tariffList(s, {
      type: 1,
      from_location: { code: 44 },
      to_location: { code: 270 },
      packages: [{ weight: 500 }],
    });
    expect(r.status).toBe(200);
    expect((r.json as { tariff_codes: unknown[] }).tariff_codes.length).toBeGreaterThan(0);
    expect(
      await tariffList(s, {
        from_location: { code: 999_999_999 },
        to_location: { code: 270 },
        packages: [{ weight: 500 }],
      }),
    ).toMatchObject({
      status: 400,
      json: { errors: [{ code: 'v2_sender_location_not_recognized' }] },
    });
  });
});

async function fakeCdek(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
}
