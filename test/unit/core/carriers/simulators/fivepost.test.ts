// The 5Post simulator refuses what 5Post's gateway and API refuse, in their own forms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../../../core/carriers/http';
import { allCities } from '../../../../../core/locations/cities';
import {
  REAL_POINT_COUNT,
  fivePostCatalogue,
  fivePostPoints,
} from '../../../../../core/carriers/simulators/fivepost-points';
import {
  startFivePostSimulator,
  type FivePostSimulatorHandle,
} from '../../../../../core/carriers/simulators/fivepost';

let sim: FivePostSimulatorHandle;
beforeAll(async () => {
  sim = await startFivePostSimulator({ apiKey: 'K' });
});
afterAll(() => sim.close());

async function jwt(
  query = '?apikey=K',
  body = 'subject=OpenAPI&audience=A122019!',
  type = 'application/x-www-form-urlencoded',
) {
  const res = await fetch(`${sim.url}/jwt-generate-claims/rs256/1${query}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function page(body: unknown, token?: string, url = sim.url) {
  const res = await fetch(`${url}/api/v1/pickuppoints/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('5Post simulator', () => {
  it('issues a JWT with an exp an hour ahead for the right key and form', async () => {
    const { status, json } = await jwt();
    expect(status).toBe(200);
    const claims = JSON.parse(Buffer.from(String(json.jwt).split('.')[1]!, 'base64url').toString()) as {
      exp: number;
      iat: number;
    };
    expect(claims.exp - claims.iat).toBe(3600);
    expect((await jwt('?apikey=K', '')).status).toBe(200); // an empty body works too (FP-GUIDE)
  });

  it('refuses a missing or wrong key with the gateway fault, and a JSON body', async () => {
    expect(await jwt('')).toMatchObject({
      status: 401,
      json: { fault: { detail: { errorcode: 'steps.oauth.v2.FailedToResolveAPIKey' } } },
    });
    expect(await jwt('?apikey=x')).toMatchObject({
      status: 401,
      json: { fault: { faultstring: 'Invalid ApiKey' } },
    });
    expect((await jwt('?apikey=K', '{"subject":"OpenAPI"}', 'application/json')).status).toBe(400);
  });

  it('serves the catalogue in pages only with a valid JWT and a page size up to 2000', async () => {
    const token = String((await jwt()).json.jwt);
    expect(await page({ pageSize: 10, pageNumber: 0 })).toMatchObject({
      status: 401,
      json: { fault: { faultstring: 'Invalid access token' } },
    });
    expect((await page({ pageSize: 2001, pageNumber: 0 }, token)).status).toBe(400);
    expect((await page({ pageSize: 2000, pageNumber: 0 }, token)).status).toBe(200);
    expect((await page({ pageNumber: 0 }, token)).status).toBe(400);
    expect((await page({ pageSize: 10, pageNumber: -1 }, token)).status).toBe(400);
    const first = await page({ pageSize: 10, pageNumber: 0 }, token);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      totalElements: fivePostPoints().length,
      numberOfElements: 10,
      totalPages: Math.ceil(fivePostPoints().length / 10),
    });
    const beyond = await page({ pageSize: 10, pageNumber: 10_000 }, token);
    expect(beyond.json).toMatchObject({ content: [], numberOfElements: 0 });
    sim.expireTokens();
    expect(await page({ pageSize: 10, pageNumber: 0 }, token)).toMatchObject({
      status: 401,
      json: { fault: { faultstring: 'Access Token expired' } },
    });
  });

  it('has points in big western cities only, and the planted trigger points', () => {
    const cities = new Set(fivePostPoints().map((p) => (p.address as { city: string }).city));
    // Written the way 5Post's catalogue writes towns (lapaygroup README capture: «Зеленодольск г»).
    expect(cities.has('Казань г')).toBe(true);
    expect(cities.has('Екатеринбург г')).toBe(true);
    expect(cities.has('Новосибирск г')).toBe(false);
    expect(cities.has('Владивосток г')).toBe(false);
    const zips = (zip: string) =>
      fivePostPoints().filter((p) => (p.address as { zipCode: string }).zipCode === zip);
    expect(zips('999973')[0]).toMatchObject({ rate: [] });
    expect(zips('999972')[0]).toMatchObject({ rate: [{ rateValueWithVat: 'по запросу' }] });
    expect(zips('999912')).toEqual([]); // another carrier's trigger is nothing special here
    // VAT is stated with every rate, 22 % as in 5Post's 2026 examples (the adapter reads …WithVat, never a rate).
    const rates = fivePostPoints().flatMap(
      (p) => p.rate as Array<{ vat?: number; rateValueWithVat: unknown }>,
    );
    const numeric = rates.filter((r) => typeof r.rateValueWithVat === 'number');
    expect(numeric.length).toBeGreaterThan(50);
    for (const r of numeric) expect(r.vat).toBe(22);
  });

  it('writes points like 5Post’s capture: its fields, its size, towns «Казань г», inactive points, odd zips', () => {
    const points = fivePostPoints().filter((p) => !String(p.name).startsWith('Песочница'));
    for (const p of points) {
      // lapaygroup README capture: 2,208 bytes as compact JSON.
      const bytes = Buffer.byteLength(JSON.stringify(p));
      expect(bytes).toBeGreaterThan(1_900);
      expect(bytes).toBeLessThan(2_700);
      expect(p).toMatchObject({
        workHours: expect.arrayContaining([expect.objectContaining({ day: 'SUN' })]),
        additional: expect.any(String),
        localityFiasCode: expect.any(String),
        lastMileWarehouse: expect.any(Object),
        address: expect.objectContaining({
          cityType: 'г',
          street: expect.any(String),
          house: expect.any(String),
        }),
      });
    }
    const kazan = points.filter((p) => (p.address as { city: string }).city === 'Казань г');
    expect(kazan[0]!.address).toMatchObject({ region: 'Татарстан республика', regionType: 'республика' });
    expect(kazan.some((p) => p.extStatus !== 'ACTIVE')).toBe(true);
    // No point of Казань at its main index: a quote by 420000 must find the town, not the index.
    expect(kazan.map((p) => (p.address as { zipCode: string }).zipCode)).not.toContain('420000');
    // Their FIAS code is the town's, except the tobacco point's (matched by name).
    const fias = allCities().find((c) => c.name === 'Казань')!.fiasId;
    expect(kazan.filter((p) => p.localityFiasCode !== fias).map((p) => p.type)).toEqual(['TOBACCO']);
  });

  it('serves 5Post’s real count on request, page by page, the same every time', async () => {
    const real = await startFivePostSimulator({ apiKey: 'K', points: REAL_POINT_COUNT });
    try {
      const token = await fetch(`${real.url}/jwt-generate-claims/rs256/1?apikey=K`, { method: 'POST' });
      const jwt = String(((await token.json()) as { jwt: string }).jwt);
      const last = await page({ pageSize: 200, pageNumber: 125 }, jwt, real.url);
      expect(last.json).toMatchObject({
        totalElements: REAL_POINT_COUNT,
        totalPages: 126,
        numberOfElements: 38,
      });
      expect(fivePostCatalogue(REAL_POINT_COUNT).slice(25_000, 38)).toEqual(last.json.content);
      const zero = JSON.stringify(fivePostCatalogue(REAL_POINT_COUNT).slice(0, 200));
      expect(Buffer.byteLength(zero)).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 2);
      // 2,000 points a page at most; two at once are over 3,000 a second: Apigee's spike arrest.
      expect((await page({ pageSize: 2000, pageNumber: 1 }, jwt, real.url)).status).toBe(200);
      expect(await page({ pageSize: 2000, pageNumber: 2 }, jwt, real.url)).toMatchObject({
        status: 429,
        json: { fault: { detail: { errorcode: 'policies.ratelimit.SpikeArrestViolation' } } },
      });
      expect(real.rateLimited()).toBe(1);
      expect(real.pointsServed()).toBe(2_038);
    } finally {
      await real.close();
    }
  });

  it('keeps the hour window (Apigee’s quota violation beyond it)', async () => {
    const small = await startFivePostSimulator({ apiKey: 'K', limits: { perHour: 250 } });
    try {
      const token = await fetch(`${small.url}/jwt-generate-claims/rs256/1?apikey=K`, { method: 'POST' });
      const jwt = String(((await token.json()) as { jwt: string }).jwt);
      expect((await page({ pageSize: 200, pageNumber: 0 }, jwt, small.url)).status).toBe(200);
      expect(await page({ pageSize: 200, pageNumber: 0 }, jwt, small.url)).toMatchObject({
        status: 429,
        json: { fault: { detail: { errorcode: 'policies.ratelimit.QuotaViolation' } } },
      });
    } finally {
      await small.close();
    }
  });
});
