// 5Post's download limits as RateDesk keeps them (integration guide §3.1): 3,000 points a second, 50,000 an
// hour, 150,000 a day; the bulk refresh 02:00–05:00 MSK.
import { describe, expect, it } from 'vitest';
import {
  DownloadLedger,
  FIVEPOST_POINT_WINDOWS,
  PACE_POINTS_PER_SECOND,
  inBulkRefreshHours,
} from '../../../../../core/carriers/fivepost/download-limits';

const T0 = Date.parse('2026-11-24T09:00:00Z');
const HOUR = 3600_000;
const signal = () => AbortSignal.timeout(10_000);

describe('the pace', () => {
  it('stays under 5Post’s 3,000 points a second with room for clocks', () => {
    expect(PACE_POINTS_PER_SECOND).toBeLessThan(FIVEPOST_POINT_WINDOWS.perSecond);
  });

  it('asks for each page `points / pace` seconds after the previous page’s answer', async () => {
    const ledger = new DownloadLedger(300);
    const started = performance.now();
    await ledger.take(100, T0, signal());
    expect(performance.now() - started).toBeLessThan(300); // the first page at once
    const answeredAt = performance.now();
    ledger.answered(100);
    await ledger.take(100, T0, signal());
    expect(performance.now() - answeredAt).toBeGreaterThanOrEqual(333);
  });

  it('gives up waiting when the download is aborted', async () => {
    const ledger = new DownloadLedger(100);
    await ledger.take(100, T0, signal());
    ledger.answered(100);
    await expect(ledger.take(100, T0, AbortSignal.timeout(50))).rejects.toThrow();
  });
});

describe('the hour and day windows', () => {
  it('refuse a download the last hour cannot take whole, until enough of it has aged out', async () => {
    const ledger = new DownloadLedger();
    await ledger.take(20_000, T0, signal());
    await ledger.take(20_000, T0 + 10 * 60_000, signal());
    expect(ledger.roomFor(10_000, T0 + 20 * 60_000)).toEqual({ ok: true });
    const refused = ledger.roomFor(25_000, T0 + 20 * 60_000);
    expect(refused).toMatchObject({ ok: false, untilMs: T0 + HOUR });
    expect(!refused.ok && refused.detail).toMatch(/5Post allows 50000 catalogue points an hour; 40000 were/);
    expect(ledger.roomFor(25_000, T0 + HOUR + 1)).toEqual({ ok: true });
  });

  it('refuse a seventh download of 25,000 within a day', async () => {
    const ledger = new DownloadLedger();
    for (let i = 0; i < 6; i++) await ledger.take(25_000, T0 + i * 2 * HOUR, signal());
    const at = T0 + 12 * HOUR;
    expect(ledger.roomFor(25_000, at)).toMatchObject({ ok: false, untilMs: T0 + 24 * HOUR });
    expect(ledger.roomFor(25_000, T0 + 24 * HOUR + 1)).toEqual({ ok: true });
  });
});

describe('5Post’s bulk refresh hours', () => {
  it.each([
    ['2026-11-24T22:59:00Z', false], // 01:59 MSK
    ['2026-11-24T23:00:00Z', true], // 02:00 MSK
    ['2026-11-25T02:59:00Z', true], // 05:59 MSK
    ['2026-11-25T03:00:00Z', false], // 06:00 MSK
    ['2026-11-25T09:00:00Z', false],
  ])('%s → %s', (at, inside) => {
    expect(inBulkRefreshHours(Date.parse(at))).toBe(inside);
  });
});
