// A carrier skipped by its breaker, as the desk sees it (#17 item 4): the skip says until when, and
// «спросить сейчас» (quote:run's probe) asks it once at once, through the desk's own breaker only: an account
// of /v1 whose own breaker is open stays skipped, and the /v1 wire keeps its reason text.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeskOutput, DeskQuoteResult } from '../../../core/desk/contract';
import { FIRST_TWO_CARRIERS, SHIPMENT, startTestService, type TestService } from '../../helpers/service';

/** The sandbox CDEK's error trigger (core/carriers/cdek/descriptor.ts). */
const CDEK_FAILS = { ...SHIPMENT, to: { city: 'Казань', postal_code: '999912' } };

let ts: TestService;
beforeEach(async () => {
  ts = await startTestService({ settings: FIRST_TWO_CARRIERS });
});
afterEach(() => ts.close());

async function deskQuote(quoteKey: string, input: Record<string, unknown>): Promise<DeskQuoteResult> {
  const r = await ts.service.desk.dispatch('quote:run', { quoteKey, ...input });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as DeskOutput<'quote:run'>;
}

async function openDesksBreaker(): Promise<void> {
  for (let i = 0; i < 3; i++) await deskQuote(`fail-${i}`, { shipment: CDEK_FAILS });
}

describe('a skipped carrier on the desk', () => {
  it('says how long until it may be asked again, in the answer and in its progress; history keeps no timer', async () => {
    await openDesksBreaker();
    const progress: unknown[] = [];
    const detach = ts.service.desk.subscribe((event, payload) => {
      if (event === 'quote:progress') progress.push(payload);
    });
    const q = await deskQuote('skipped', { shipment: SHIPMENT });
    detach();
    const skipped = q.failures.find((f) => f.carrier === 'cdek');
    expect(skipped).toMatchObject({ kind: 'temporarily_skipped' });
    expect(skipped?.retryInMs).toBeGreaterThan(0);
    expect(skipped?.retryInMs).toBeLessThanOrEqual(30_000);
    expect(progress).toContainEqual({
      quoteKey: 'skipped',
      progress: expect.objectContaining({
        carrier: 'cdek',
        kind: 'temporarily_skipped',
        retryInMs: skipped?.retryInMs,
      }),
    });
    const stored = await ts.service.desk.dispatch('history:get', { id: q.quote_id });
    expect(stored.ok && stored.value).toMatchObject({
      failures: [{ carrier: 'cdek', kind: 'temporarily_skipped' }],
    });
    expect(JSON.stringify(stored)).not.toContain('retryInMs');
  });

  it('«спросить сейчас»: the probe asks it at once, and the answer closes the desk’s breaker', async () => {
    await openDesksBreaker();
    expect((await deskQuote('again', { shipment: SHIPMENT })).failures).toMatchObject([
      { carrier: 'cdek', kind: 'temporarily_skipped' },
    ]);
    const asked = await deskQuote('probe', { shipment: SHIPMENT, probe: ['cdek'] });
    expect(asked.failures).toEqual([]);
    expect(asked.rates.some((r) => r.carrier === 'cdek')).toBe(true);
    // Closed now: the next quote asks it without being told to.
    const next = await deskQuote('next', { shipment: SHIPMENT });
    expect(next.rates.some((r) => r.carrier === 'cdek')).toBe(true);
  });

  it('never opens another account’s breaker: a /v1 account that broke CDEK for itself stays skipped', async () => {
    for (let i = 0; i < 3; i++) expect((await ts.postRates(CDEK_FAILS)).status).toBe(200);
    const v1 = await ts.postRates(SHIPMENT);
    expect(v1.json.unavailable).toEqual([
      { carrier: 'cdek', reason: 'temporarily skipped after repeated failures' },
    ]);
    await openDesksBreaker();
    const asked = await deskQuote('probe', { shipment: SHIPMENT, probe: ['cdek'] });
    expect(asked.rates.some((r) => r.carrier === 'cdek')).toBe(true);
    // The /v1 wire is as it was: the same reason text, no timer.
    const after = await ts.postRates(SHIPMENT);
    expect(after.json.unavailable).toEqual([
      { carrier: 'cdek', reason: 'temporarily skipped after repeated failures' },
    ]);
  });
});
