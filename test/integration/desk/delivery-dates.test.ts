// A desk quote's delivery dates (#21 item 3), end to end: the real service on a temp data folder, the sandbox
// carriers' simulators, the service clock at 18:00 Moscow on Wednesday 30 December 2026 (the New Year
// break ahead). Every rate's dates must be its days counted from its ship date in its kind of days; a cut-off
// set for one carrier moves only that carrier; a year imported through calendar:import moves the dates of
// the next quote, with no restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskChannels, type DeskChannel, type DeskInput, type DeskOutput } from '../../../core/desk/contract';
import type { QuoteRate } from '../../../core/contract/quote-ext';
import { SHIPPED_YEARS } from '../../../core/quote/calendar/data';
import { createRatingService, type RatingService } from '../../../core/service';
import { openDataFolder } from '../../../core/store/data-folder';
import { SHIPMENT } from './harness';

/** 18:00 in Moscow. */
const NOW = new Date('2026-12-30T15:00:00Z');

// The oracle, written out from the decrees (1466 for 2026, 1187 for 2027) rather than read from the code.
const HOLIDAYS = new Set([
  '2026-12-31',
  '2027-01-01',
  '2027-01-04',
  '2027-01-05',
  '2027-01-06',
  '2027-01-07',
  '2027-01-08',
  '2027-02-22',
  '2027-02-23',
  '2027-03-08',
]);
const WORKED_SATURDAYS = new Set(['2027-02-20']);
const plus = (d: string, n: number): string =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
function isOff(d: string, extra: ReadonlySet<string>): boolean {
  if (d > '2027-03-31') throw new Error(`the oracle does not reach ${d}`);
  const weekday = new Date(`${d}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return !WORKED_SATURDAYS.has(d);
  return HOLIDAYS.has(d) || extra.has(d);
}
function expected(rate: QuoteRate, ship: string, extra: ReadonlySet<string> = new Set()) {
  const count = (days: number | null | undefined): string | null => {
    if (days === null || days === undefined) return null;
    if (rate.days_kind === 'calendar') return plus(ship, days);
    let d = ship;
    for (let left = days; left > 0;) {
      d = plus(d, 1);
      if (!isOff(d, extra)) left--;
    }
    return d;
  };
  return { delivery_date_min: count(rate.days_min), delivery_date_max: count(rate.days_max) };
}

let dir = '';
let service: RatingService;
async function ok<C extends DeskChannel>(channel: C, input: DeskInput<C>): Promise<DeskOutput<C>> {
  const r = await service.desk.dispatch(channel, input);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  const parsed = deskChannels[channel].output.safeParse(r.value);
  expect(parsed.error?.issues ?? []).toEqual([]);
  return r.value as DeskOutput<C>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ratedesk-dates-'));
  const store = openDataFolder(dir);
  await store.settings.write(
    [
      { name: 'listener.enabled', value: 'off' },
      // Generous: on a loaded machine a carrier past the default deadline would be missing from the quote.
      { name: 'rating.deadline_ms', value: '30000' },
      { name: 'rating.carrier_timeout_ms', value: '30000' },
      // Boxberry counts working days: after its 17:00 cut-off, 31 December (a day off) and the break.
      { name: 'carriers.boxberry.cutoff', value: '17:00' },
      // PEK counts calendar days and its cut-off is not reached at 18:00.
      { name: 'carriers.pek.cutoff', value: '19:00' },
    ],
    NOW.toISOString(),
  );
  await store.close();
  service = await createRatingService({
    dataDir: dir,
    appVersion: '9.9.9-test',
    logger: { info() {}, warn() {}, error() {} },
    clock: { now: () => NOW, monotonicMs: () => performance.now() },
  });
});
afterAll(async () => {
  await service?.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

function byCarrier(rates: QuoteRate[], carrier: string): QuoteRate[] {
  const mine = rates.filter((r) => r.carrier === carrier);
  expect(mine.length, `${carrier} rates`).toBeGreaterThan(0);
  return mine;
}

describe('a desk quote on 30 December 2026 at 18:00 Moscow', () => {
  let rates: QuoteRate[] = [];

  beforeAll(async () => {
    const quoted = await ok('quote:run', { quoteKey: 'dates-1', shipment: SHIPMENT });
    // Every sandbox carrier answers this route: a failure here is the machine, not the dates.
    expect(quoted.failures).toEqual([]);
    rates = quoted.rates;
  }, 60_000);

  it('gives every rate dates that are its days from its ship date, in its kind of days', () => {
    expect(rates.length).toBeGreaterThan(5);
    for (const r of rates) {
      expect(r, r.service_code).toMatchObject(expected(r, r.ship_date));
      if (r.days_min !== null && r.days_min !== undefined) expect(r.delivery_date_min).not.toBeNull();
    }
    expect(rates.some((r) => r.days_kind === 'working' && r.days_min != null)).toBe(true);
    expect(rates.some((r) => r.days_kind === 'calendar' && r.days_min != null)).toBe(true);
  });

  it("takes each carrier's kind of days and cut-off", () => {
    for (const r of byCarrier(rates, 'boxberry')) {
      // Past the cut-off → 31 December, a day off → the first working day of 2027.
      expect(r).toMatchObject({ days_kind: 'working', ship_date: '2027-01-11' });
    }
    for (const r of byCarrier(rates, 'pek'))
      expect(r).toMatchObject({ days_kind: 'calendar', ship_date: '2026-12-30' });
    for (const r of byCarrier(rates, 'russian-post'))
      expect(r).toMatchObject({ days_kind: 'calendar', ship_date: '2026-12-30' });
  });

  it('counts from a requested ship date on a holiday (7 January 2027)', async () => {
    const asked = (
      await ok('quote:run', { quoteKey: 'dates-2', shipment: { ...SHIPMENT, ship_date: '2027-01-07' } })
    ).rates;
    for (const r of asked) expect(r, r.service_code).toMatchObject(expected(r, r.ship_date));
    for (const r of byCarrier(asked, 'boxberry')) expect(r.ship_date).toBe('2027-01-11');
    for (const r of byCarrier(asked, 'pek')) expect(r.ship_date).toBe('2027-01-07');
  }, 60_000);

  it('moves the next quote when a year is imported (calendar:import), with no restart', async () => {
    const y2027 = SHIPPED_YEARS.find((y) => y.year === 2027)!;
    const imported = await ok('calendar:import', {
      year: 2027,
      source: 'integration test: 11 January 2027 off as well (not a real decree)',
      days_off: [...Object.keys(y2027.daysOff), '2027-01-11'],
      working_days: Object.keys(y2027.workingDays),
    });
    expect(imported).toMatchObject({
      year: 2027,
      status: 'imported',
      overrides_shipped: true,
      replaced: false,
    });
    const info = await ok('calendar:info', undefined);
    expect(info.years.map((y) => [y.year, y.status])).toEqual([
      [2025, 'decreed'],
      [2026, 'decreed'],
      [2027, 'imported'],
    ]);

    const after = (await ok('quote:run', { quoteKey: 'dates-3', shipment: SHIPMENT })).rates;
    const extra = new Set(['2027-01-11']);
    for (const r of after) expect(r, r.service_code).toMatchObject(expected(r, r.ship_date, extra));
    for (const r of byCarrier(after, 'boxberry')) expect(r.ship_date).toBe('2027-01-12');
  }, 60_000);
});
