// #10 item 3 through the whole service: the circuit breaker as /v1 clients and the desk see it. Sandbox
// triggers make CDEK fail; the service's monotonic clock is moved instead of sleeping through cool-downs.
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import type { Clock } from '../../../core/util/clock';
import {
  FIRST_TWO_CARRIERS,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../../helpers/service';

const COOLDOWN_MS = 30_000;
const SKIPPED = { carrier: 'cdek', reason: 'temporarily skipped after repeated failures' };

/**
 * A monotonic clock (breakers, cache TTL, rate limits) that stands still unless the test moves it, so a
 * cool-down ends exactly when the test says; the wall clock is real.
 */
function steppingClock(): Clock & { advance(ms: number): void } {
  let mono = performance.now();
  return {
    now: () => new Date(),
    monotonicMs: () => mono,
    advance: (ms) => void (mono += ms),
  };
}

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

let weight = 1_000;
/** A shipment never quoted before in this file, so the rate cache cannot answer it. */
const fresh = (postal = '420000', carriers?: string[]) => ({
  ...SHIPMENT,
  to: { city: 'Казань', postal_code: postal },
  parcel: { ...SHIPMENT.parcel, weight_grams: weight++ },
  ...(carriers ? { carriers } : {}),
});

async function cdekStatus(s: TestService): Promise<string> {
  const r = await s.get('/v1/carriers');
  return (r.json.carriers as { code: string; status: string }[]).find((c) => c.code === 'cdek')!.status;
}

async function openCdek(s: TestService): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const r = await s.postRates(fresh(CARRIER_TRIGGERS.cdek.error));
    expect(r.status).toBe(200);
    expect(r.json.unavailable).toEqual([
      { carrier: 'cdek', reason: expect.stringMatching(/^carrier error: /) },
    ]);
  }
}

describe('circuit breaker over /v1', () => {
  it('opens after 3 failures: CDEK skipped at once, listed as temporarily skipped, shown unavailable; the 200 is charged once', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS, clock: steppingClock() });
    await openCdek(t);
    expect(await cdekStatus(t)).toBe('unavailable');
    const before = (await t.get('/v1/balance')).json.balance as number;
    const started = performance.now();
    const r = await t.postRates(fresh());
    expect(r.status).toBe(200);
    expect(r.json.unavailable).toEqual([SKIPPED]);
    expect(new Set((r.json.rates as { carrier: string }[]).map((x) => x.carrier))).toEqual(
      new Set(['russian-post']),
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(r.json.balance_remaining).toBe(before - 1);
    expect(await cdekStatus(t)).toBe('unavailable');
  });

  it('only the skipped carrier asked for: 503 rates_unavailable, nothing charged', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS, clock: steppingClock() });
    await openCdek(t);
    const before = (await t.get('/v1/balance')).json.balance as number;
    const r = await t.postRates(fresh('420000', ['cdek']));
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('rates_unavailable');
    expect(r.json.unavailable).toEqual([SKIPPED]);
    expect((await t.get('/v1/balance')).json.balance).toBe(before);
  });

  it('after the cool-down one probe goes through: failure re-opens, success closes', async () => {
    const clock = steppingClock();
    t = await startTestService({ settings: FIRST_TWO_CARRIERS, clock });
    await openCdek(t);
    clock.advance(COOLDOWN_MS);
    // The probe fails: open again for a whole cool-down.
    const failedProbe = await t.postRates(fresh(CARRIER_TRIGGERS.cdek.error));
    expect(failedProbe.json.unavailable[0].reason).toMatch(/^carrier error: /);
    expect((await t.postRates(fresh())).json.unavailable).toEqual([SKIPPED]);
    clock.advance(COOLDOWN_MS - 1_000);
    expect((await t.postRates(fresh())).json.unavailable).toEqual([SKIPPED]);
    clock.advance(1_000);
    // The probe answers: closed, available, and the next quotes call CDEK as usual.
    const probe = await t.postRates(fresh());
    expect(probe.json.unavailable).toEqual([]);
    expect((probe.json.rates as { carrier: string }[]).some((x) => x.carrier === 'cdek')).toBe(true);
    expect(await cdekStatus(t)).toBe('available');
    expect((await t.postRates(fresh(CARRIER_TRIGGERS.cdek.error))).json.unavailable[0].reason).toMatch(
      /^carrier error: /,
    );
  });

  it('half-open lets exactly one request through at a time', async () => {
    const clock = steppingClock();
    t = await startTestService({
      clock,
      settings: { ...FIRST_TWO_CARRIERS, 'rating.carrier_timeout_ms': '600' },
    });
    await openCdek(t);
    clock.advance(COOLDOWN_MS);
    const answers: HttpResult[] = await Promise.all(
      Array.from({ length: 4 }, () => t!.postRates(fresh(CARRIER_TRIGGERS.cdek.timeout))),
    );
    const reasons = answers.map((r) => r.json.unavailable[0]?.reason).sort();
    expect(reasons).toEqual([SKIPPED.reason, SKIPPED.reason, SKIPPED.reason, 'timeout']);
    expect((await t.postRates(fresh())).json.unavailable).toEqual([SKIPPED]);
  });

  it('the setting rating.breaker_cooldown_ms sets the cool-down', async () => {
    const clock = steppingClock();
    t = await startTestService({
      clock,
      settings: { ...FIRST_TWO_CARRIERS, 'rating.breaker_cooldown_ms': '5000' },
    });
    await openCdek(t);
    clock.advance(4_999);
    expect((await t.postRates(fresh())).json.unavailable).toEqual([SKIPPED]);
    clock.advance(1);
    expect((await t.postRates(fresh())).json.unavailable).toEqual([]);
  });

  // #16 changed this on purpose: the desk is an asker of its own. An API account's failures skip CDEK for that
  // account only; the desk's own three failures skip it for the desk, naming the kind temporarily_skipped.
  it('the desk has a breaker of its own: an API account’s failures do not skip it, its own do', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS, clock: steppingClock() });
    await openCdek(t);
    const service = t.service;
    const desk = (n: number, shipment = fresh()) =>
      service.desk.dispatch('quote:run', { quoteKey: `q${n}`, shipment });
    const failures = (r: Awaited<ReturnType<typeof desk>>) =>
      r.ok ? (r.value as { failures: unknown[] }).failures : r.error;
    expect(failures(await desk(1))).toEqual([]);
    for (let i = 2; i <= 4; i++) {
      expect(failures(await desk(i, fresh(CARRIER_TRIGGERS.cdek.error)))).toEqual([
        { carrier: 'cdek', kind: 'carrier_error', detail: expect.any(String) },
      ]);
    }
    // #17 item 4 on purpose: a skipped carrier says until when (the default cool-down, 30 s, on a stopped clock).
    expect(failures(await desk(5))).toEqual([
      { carrier: 'cdek', kind: 'temporarily_skipped', retryInMs: 30_000 },
    ]);
  });

  it('a restart gives every carrier a fresh chance (the breaker is in memory; the status is remembered)', async () => {
    t = await startTestService({ settings: FIRST_TWO_CARRIERS, clock: steppingClock() });
    await openCdek(t);
    await t.stop();
    const again = await startTestService({
      settings: FIRST_TWO_CARRIERS,
      dir: t.dir,
      clock: steppingClock(),
    });
    t = again;
    expect(await cdekStatus(again)).toBe('unavailable');
    const r = await again.postRates(fresh());
    expect(r.json.unavailable).toEqual([]);
    expect(await cdekStatus(again)).toBe('available');
  });
});
