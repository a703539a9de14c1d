// 5Post's limits on catalogue downloads (integration guide §3.1, verified-2026 §8.5): sliding windows of 3,000
// points a second, 50,000 an hour and 150,000 a day ("about three full downloads a day"), HTTP 429 beyond;
// its bulk refresh runs 02:00–05:00 MSK and the guide advises downloading after 06:00. RateDesk counts what it
// downloads per host, for the whole process (adapters are rebuilt on every settings change; the quota is
// not), paces pages under the per-second window, and does not start a download the hour or day window
// cannot take whole.

/** 5Post's windows (points). */
export const FIVEPOST_POINT_WINDOWS = { perSecond: 3_000, perHour: 50_000, perDay: 150_000 } as const;

/**
 * The pace RateDesk keeps: two thirds of 5Post's 3,000 a second, since its window is measured at its end,
 * where pages sent 1 s apart can arrive closer together.
 */
export const PACE_POINTS_PER_SECOND = 2_000;

/** The guide's count (§1, §3.1: ~25,000 active points, 25,038 in its example): assumed until one is known. */
export const EXPECTED_CATALOGUE_POINTS = 25_000;

/** Clock rounding between us and 5Post's window. */
const PACE_SLACK_MS = 5;
const HOUR_MS = 60 * 60 * 1_000;
const DAY_MS = 24 * HOUR_MS;
/** Moscow time is UTC+3 all year (no DST since 2014). */
const MSK_OFFSET_MS = 3 * HOUR_MS;

/** Whether `nowMs` falls in 5Post's bulk refresh or just after it (02:00–06:00 MSK, guide §3.1). */
export function inBulkRefreshHours(nowMs: number): boolean {
  const hour = new Date(nowMs + MSK_OFFSET_MS).getUTCHours();
  return hour >= 2 && hour < 6;
}

export type Room = { ok: true } | { ok: false; untilMs: number; detail: string };

interface Entry {
  /** Wall clock (the catalogue's nowMs): the hour and day windows. */
  atMs: number;
  points: number;
}

export class DownloadLedger {
  private entries: Entry[] = [];
  /** performance.now() before which the next page is not asked for. */
  private nextPageAtMono = 0;

  constructor(private readonly pacePerSecond: number = PACE_POINTS_PER_SECOND) {}

  /**
   * Waits (on the real clock, whatever clock the catalogue is given) until the next page may be asked for,
   * then counts its `points` in the hour and day windows.
   */
  async take(points: number, nowMs: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const wait = this.nextPageAtMono - performance.now();
    if (wait > 0) await sleep(wait, signal);
    this.entries.push({ atMs: nowMs, points });
    this.forget(nowMs);
  }

  /**
   * A page of `points` was answered: the next is asked for `points / pace` seconds after this answer, not
   * after this request. 5Post counts a page when it serves it, which is before we have its answer, so pages
   * spaced by their answers are at least that far apart at 5Post too, however long each one travelled: in
   * any second 5Post serves at most the pace plus one page (2,200 of its 3,000).
   */
  answered(points: number): void {
    this.nextPageAtMono = performance.now() + (points * 1000) / this.pacePerSecond + PACE_SLACK_MS;
  }

  /** Whether the hour and day windows can take `points` more at `nowMs`, and if not, from when. */
  roomFor(points: number, nowMs: number): Room {
    for (const [windowMs, limit, name] of [
      [HOUR_MS, FIVEPOST_POINT_WINDOWS.perHour, 'an hour'],
      [DAY_MS, FIVEPOST_POINT_WINDOWS.perDay, 'a day'],
    ] as const) {
      const inWindow = this.entries.filter((e) => e.atMs > nowMs - windowMs);
      const used = inWindow.reduce((sum, e) => sum + e.points, 0);
      if (used + points <= limit) continue;
      // The window frees up as its oldest pages age out of it.
      let freed = 0;
      let untilMs = nowMs + windowMs;
      for (const e of inWindow) {
        freed += e.points;
        if (used - freed + points <= limit) {
          untilMs = e.atMs + windowMs;
          break;
        }
      }
      return {
        ok: false,
        untilMs,
        detail:
          `5Post allows ${limit} catalogue points ${name}; ${used} were downloaded in the last ` +
          `${name === 'an hour' ? 'hour' : '24 hours'} and the catalogue needs about ${points}`,
      };
    }
    return { ok: true };
  }

  private forget(nowMs: number): void {
    if (this.entries.length > 0 && this.entries[0]!.atMs <= nowMs - DAY_MS)
      this.entries = this.entries.filter((e) => e.atMs > nowMs - DAY_MS);
  }
}

const ledgers = new Map<string, DownloadLedger>();

/** The ledger of one host (namespace), shared by every adapter of this process. */
export function ledgerFor(namespace: string, pacePerSecond?: number): DownloadLedger {
  let ledger = ledgers.get(namespace);
  if (!ledger) {
    ledger = new DownloadLedger(pacePerSecond);
    ledgers.set(namespace, ledger);
  }
  return ledger;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
