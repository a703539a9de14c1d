// Back-off on a carrier's Retry-After (#10 item 8): a carrier that answered 429 or 5xx with Retry-After is not
// called again until then. First the HTTP client on its own against a local server (no request leaves until
// the time has passed, whoever makes it), then the whole service behind the fault proxy: the carrier's
// breaker opens at once, so the next quotes skip it without a call and GET /v1/carriers shows it
// unavailable, and after the wait one probe brings it back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CARRIER_CODES } from '../../../core/carriers/types';
import {
  CarrierHttpError,
  carrierRequest,
  CONNECTIONS_PER_ORIGIN,
  onCarrierAsksToWait,
} from '../../../core/carriers/http';
import { startFaultProxy, type Fault, type FaultProxy } from '../../helpers/fault-proxy';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('carrier HTTP client', () => {
  let server: Server;
  let base = '';
  let hits = 0;
  /** What the next answers are: status and headers. */
  let answer: { status: number; headers: Record<string, string> } = { status: 200, headers: {} };

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      req.resume();
      if (req.url === '/hang') return;
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Each case gets an origin of its own (a new port), as back-off is per origin. */
  async function freshOrigin(): Promise<string> {
    const s = createServer((req, res) => server.emit('request', req, res));
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    servers.push(s);
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }
  const servers: Server[] = [];
  afterEach(async () => {
    answer = { status: 200, headers: {} };
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  it('after a 429 with Retry-After, no request reaches that origin until it has passed', async () => {
    const origin = await freshOrigin();
    answer = { status: 429, headers: { 'Retry-After': '1' } };
    const first = new AbortController();
    const told: number[] = [];
    onCarrierAsksToWait(first.signal, (ms) => told.push(ms));
    expect((await carrierRequest(`${origin}/x`, { method: 'GET', signal: first.signal })).status).toBe(429);
    expect(told).toEqual([1_000]);
    answer = { status: 200, headers: {} };
    const before = hits;
    const second = new AbortController();
    onCarrierAsksToWait(second.signal, (ms) => told.push(ms));
    await expect(carrierRequest(`${origin}/x`, { method: 'GET', signal: second.signal })).rejects.toThrow(
      /not called: the carrier asked to wait \(Retry-After\), 1 s left/,
    );
    expect(hits, 'nothing was sent').toBe(before);
    // The refused call's owner is told too, so a quote admitted before the 429 opens the breaker as well.
    expect(told).toHaveLength(2);
    expect(told[1]).toBeGreaterThan(900);
    // Another origin (another carrier) is not affected.
    expect(
      (await carrierRequest(`${base}/x`, { method: 'GET', signal: AbortSignal.timeout(5000) })).status,
    ).toBe(200);
    await sleep(1_050);
    expect(
      (await carrierRequest(`${origin}/x`, { method: 'GET', signal: AbortSignal.timeout(5000) })).status,
    ).toBe(200);
    expect(hits).toBe(before + 2);
  });

  it('503 with an HTTP-date counts too; a 5xx without Retry-After and a 4xx with one do not', async () => {
    const dated = await freshOrigin();
    answer = { status: 503, headers: { 'Retry-After': new Date(Date.now() + 2_000).toUTCString() } };
    await carrierRequest(`${dated}/x`, { method: 'GET', signal: AbortSignal.timeout(5000) });
    await expect(
      carrierRequest(`${dated}/x`, { method: 'GET', signal: AbortSignal.timeout(5000) }),
    ).rejects.toBeInstanceOf(CarrierHttpError);

    for (const a of [
      { status: 500, headers: {} as Record<string, string> },
      { status: 400, headers: { 'Retry-After': '30' } },
    ]) {
      const origin = await freshOrigin();
      answer = a;
      await carrierRequest(`${origin}/x`, { method: 'GET', signal: AbortSignal.timeout(5000) });
      const r = await carrierRequest(`${origin}/x`, { method: 'GET', signal: AbortSignal.timeout(5000) });
      expect(r.status).toBe(a.status);
    }
  });

  it(`a request waiting for one of the ${CONNECTIONS_PER_ORIGIN} connections is released by its signal at once`, async () => {
    const origin = await freshOrigin();
    const all = new AbortController();
    const busy = Array.from({ length: CONNECTIONS_PER_ORIGIN }, () =>
      carrierRequest(`${origin}/hang`, { method: 'GET', signal: all.signal }).catch(() => 'aborted'),
    );
    const started = Date.now();
    while (hits < CONNECTIONS_PER_ORIGIN && Date.now() - started < 5_000) await sleep(10);
    const queued = performance.now();
    await expect(
      carrierRequest(`${origin}/hang`, { method: 'GET', signal: AbortSignal.timeout(100) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - queued).toBeLessThan(400);
    all.abort(new Error('test over'));
    expect(new Set(await Promise.all(busy))).toEqual(new Set(['aborted']));
  }, 20_000);
});

describe('the service: a carrier asking to wait is skipped until then', () => {
  let t: TestService;
  let proxy: FaultProxy;
  let weight = 4_001;

  beforeAll(async () => {
    proxy = await startFaultProxy(CARRIER_CODES);
    t = await startTestService({ sandboxFront: proxy.front });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  /** A quote with its own tag (weight), `faults` applied to it; returns the answer and the carrier calls. */
  async function quote(faults: Partial<Record<string, Fault>> = {}) {
    const tag = weight++;
    for (const c of CARRIER_CODES) proxy.plan(tag, c, faults[c] ?? { kind: 'none' });
    const r = await t.postRates({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: tag } });
    proxy.forget(tag);
    return { r, hits: (c: string) => proxy.hits(tag, c) };
  }
  const status = async (code: string): Promise<string> =>
    ((await t.get('/v1/carriers')).json.carriers as { code: string; status: string }[]).find(
      (c) => c.code === code,
    )!.status;

  const cases: [string, () => Fault, number][] = [
    [
      '429, Retry-After in seconds',
      () => ({ kind: 'http_status', status: 429, body: 'json', retryAfter: '1' }),
      1_050,
    ],
    [
      '503, Retry-After as an HTTP date',
      // An HTTP date has whole seconds: 1.5 s ahead is 0.5–1.5 s of waiting.
      () => ({
        kind: 'http_status',
        status: 503,
        body: 'html',
        retryAfter: new Date(Date.now() + 1_500).toUTCString(),
      }),
      1_600,
    ],
  ];
  it.each(cases)('%s: one answer opens the breaker at once', async (_label, makeFault, waitMs) => {
    const fault = makeFault();
    expect((await quote()).r.status).toBe(200);
    const asked = await quote({ cdek: fault });
    expect(asked.r.status).toBe(200);
    expect(asked.r.json.unavailable).toEqual([
      { carrier: 'cdek', reason: expect.stringMatching(/^carrier error: .*\b(429|503)\b/) },
    ]);
    expect(await status('cdek')).toBe('unavailable');

    const skipped = await quote();
    expect(skipped.r.status).toBe(200);
    expect(skipped.r.json.unavailable).toEqual([
      { carrier: 'cdek', reason: 'temporarily skipped after repeated failures' },
    ]);
    expect(skipped.hits('cdek'), 'CDEK was not called').toBe(0);
    expect(skipped.hits('russian-post')).toBeGreaterThan(0);

    await sleep(waitMs);
    const back = await quote();
    expect(back.r.json.unavailable).toEqual([]);
    expect(back.hits('cdek')).toBeGreaterThan(0);
    expect(await status('cdek')).toBe('available');
  });

  it('a 429 without Retry-After is an ordinary failure: the next quote calls the carrier again', async () => {
    await quote({ cdek: { kind: 'http_status', status: 429, body: 'json' } });
    const next = await quote();
    expect(next.hits('cdek')).toBeGreaterThan(0);
    expect(next.r.json.unavailable).toEqual([]);
  });
});
