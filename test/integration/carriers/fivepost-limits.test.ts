// 5Post's download limits against the simulator, which enforces them as 5Post does (integration guide §3.1:
// 3,000 points a second, 50,000 an hour, 150,000 a day, 429 beyond; bulk refresh 02:00–05:00 MSK). Windows
// are lowered here so a small catalogue reaches them.
import { afterEach, describe, expect, it } from 'vitest';
import { createFivePostAdapter, memoryCatalogueStore } from '../../../core/carriers/fivepost';
import type { FivePostAdapterOptions } from '../../../core/carriers/fivepost';
import { RATE_LIMITED_RETRY_MS, RETRY_AFTER_MS } from '../../../core/carriers/fivepost/catalogue';
import { ledgerFor } from '../../../core/carriers/fivepost/download-limits';
import {
  startFivePostSimulator,
  type FivePostSimulatorHandle,
  type FivePostSimulatorOptions,
} from '../../../core/carriers/simulators/fivepost';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const KEY = 'limits-key';
const sims: FivePostSimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function sim(over: FivePostSimulatorOptions = {}): Promise<FivePostSimulatorHandle> {
  const s = await startFivePostSimulator({ apiKey: KEY, ...over });
  sims.push(s);
  return s;
}

function adapter(url: string, over: Partial<FivePostAdapterOptions> = {}) {
  return createFivePostAdapter({ baseUrl: url, apiKey: KEY, store: memoryCatalogueStore(), ...over });
}

const REQUEST: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Казань', postalCode: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });
const detail = (out: CarrierOutcome): string => (!out.ok && 'detail' in out ? (out.detail ?? '') : '');
/** 12:00 MSK, away from the bulk refresh hours. */
const NOON = Date.parse('2026-11-24T09:00:00Z');
const MINUTE = 60_000;

describe('the per-second window', () => {
  it('is kept by pacing pages: the simulator never says 429', async () => {
    const s = await sim({ limits: { perSecond: 150 } });
    const started = performance.now();
    const out = await adapter(s.url, { pageSize: 100, pointsPerSecond: 100 }).quote(REQUEST, ctx());
    expect(out).toMatchObject({ ok: true });
    expect(s.pageRequests()).toBe(2);
    expect(s.rateLimited()).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990); // the second page waited its turn
  });

  it('unpaced, 5Post answers 429 (Apigee’s spike arrest) and the quote says so', async () => {
    const s = await sim({ limits: { perSecond: 150 } });
    const out = await adapter(s.url, { pageSize: 100, pointsPerSecond: 100_000 }).quote(REQUEST, ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(detail(out)).toMatch(/page 1: HTTP 429 Spike arrest violation.*download limit/);
    expect(s.rateLimited()).toBe(1);
  });
});

describe('the hour and day windows', () => {
  it('a 429 is not tried again for an hour, where other failures wait 15 minutes', async () => {
    const s = await sim({ limits: { perHour: 150 } });
    let now = NOON;
    const a = adapter(s.url, { pageSize: 100, nowMs: () => now });
    const first = await a.quote(REQUEST, ctx());
    expect(detail(first)).toMatch(/page 1: HTTP 429 Rate limit quota violation/);
    expect(s.pageRequests()).toBe(2);
    now += RETRY_AFTER_MS;
    const held = await a.quote(REQUEST, ctx());
    expect(detail(held)).toMatch(/HTTP 429 .*\(not tried again for 45 minutes\)$/);
    expect(s.pageRequests()).toBe(2);
    now = NOON + RATE_LIMITED_RETRY_MS;
    await a.quote(REQUEST, ctx());
    expect(s.pageRequests()).toBe(3);
  });

  it('a cold download the last hour cannot take whole is not started, and waits until it can', async () => {
    const s = await sim();
    let now = NOON;
    // Another adapter of this host (this process) downloaded 40,000 points just now; the catalogue is
    // assumed to be the guide's 25,000 until one is known.
    await ledgerFor(`5post ${s.url}`).take(40_000, now, ctx().signal);
    const a = adapter(s.url, { nowMs: () => now });
    const out = await a.quote(REQUEST, ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(detail(out)).toMatch(/not downloaded: 5Post allows 50000 catalogue points an hour; 40000 were/);
    expect(s.requestCount()).toBe(0);
    now += 30 * MINUTE;
    expect(detail(await a.quote(REQUEST, ctx()))).toMatch(/not tried again for 30 minutes/);
    expect(s.requestCount()).toBe(0);
    now = NOON + 60 * MINUTE + 1;
    expect(await a.quote(REQUEST, ctx())).toMatchObject({ ok: true });
  });
});

describe('a failing catalogue', () => {
  it('is tried again after 15, then 30 minutes, not on every quote', async () => {
    const s = await sim();
    s.setCatalogueBehaviour('error');
    let now = NOON;
    const a = adapter(s.url, { nowMs: () => now });
    const tries: number[] = [];
    for (const minutes of [0, 5, 15, 30, 44, 45]) {
      now = NOON + minutes * MINUTE;
      await a.quote(REQUEST, ctx());
      tries.push(s.pageRequests());
    }
    expect(tries).toEqual([1, 1, 2, 2, 2, 3]);
  });
});

describe('the daily refresh', () => {
  it('waits out 5Post’s bulk refresh (02:00–06:00 MSK), serving the stored catalogue meanwhile', async () => {
    const s = await sim();
    let now = NOON;
    const a = adapter(s.url, { nowMs: () => now });
    expect(await a.quote(REQUEST, ctx())).toMatchObject({ ok: true });
    expect(s.pageRequests()).toBe(1);
    now = Date.parse('2026-11-25T23:30:00Z'); // 02:30 MSK, a day and more later
    expect(await a.quote(REQUEST, ctx())).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 100));
    expect(s.pageRequests()).toBe(1);
    now = Date.parse('2026-11-26T04:00:00Z'); // 07:00 MSK
    expect(await a.quote(REQUEST, ctx())).toMatchObject({ ok: true });
    await expect.poll(() => s.pageRequests()).toBe(2);
  });
});
