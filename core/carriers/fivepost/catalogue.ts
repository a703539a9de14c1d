// The 5Post pickup-point catalogue: downloaded page by page, kept in SQLite, refreshed on a schedule, and
// never in a quote's way for long (docs/carriers.md, "5Post", "The catalogue").
//
// - Warm (a catalogue is stored for this host): a quote reads it and makes no call. When it is older than
//   REFRESH_EVERY_MS, the quote also starts one download in the background and does not wait for it —
//   except during 5Post's bulk refresh (02:00–06:00 MSK), when the stored one serves until later.
// - Cold (none stored): the quote starts the download (or joins the one running) and waits for it, bounded
//   by its own signal, i.e. the carrier timeout. The download itself is not tied to that quote: it goes on
//   under its own DOWNLOAD_TIMEOUT_MS, so the quotes after it find the catalogue ready, and a burst of quotes
//   on a cold cache is one download, not one each.
// - 5Post's download limits (download-limits.ts) hold for every download: pages are paced under its
//   per-second window, and a download its hour or day window cannot take whole is not started.
// - A download that fails is not tried again for a while: RETRY_AFTER_MS, doubled after each further failure
//   up to MAX_RETRY_AFTER_MS, at least RATE_LIMITED_RETRY_MS after a 429, and until the windows have room
//   when they had none. Meanwhile a cold quote gets the failure as a carrier_error at once and a warm one
//   keeps using the catalogue it has. Nothing is replaced unless every page arrived and was readable.
import type { CarrierCoordinationStore } from '../../store/port';
import type { Logger } from '../../util/logger';
import { CarrierHttpError, carrierRequest } from '../http';
import { dropped, SharedDownload } from '../shared-download';
import type { CarrierFailure } from '../types';
import type { FivePostCatalogueStore } from './catalogue-store';
import {
  EXPECTED_CATALOGUE_POINTS,
  inBulkRefreshHours,
  ledgerFor,
  type DownloadLedger,
} from './download-limits';
import { isActivePoint, readPoint, type StoredPoint } from './points';
import { pointsPageBody, pointsPageUrl } from './request';
import { FivePostPointPage, fivePostErrorText } from './schema';
import type { FivePostTokenSource } from './token';

/** 5Post's bulk refresh runs nightly (02:00–05:00 MSK, FP-GUIDE): once a day is as fresh as it gets. */
export const REFRESH_EVERY_MS = 24 * 60 * 60 * 1000;
export const RETRY_AFTER_MS = 15 * 60 * 1000;
export const MAX_RETRY_AFTER_MS = 4 * 60 * 60 * 1000;
/** After a 429 the hour window is full (or another client of the same key filled it): wait it out. */
export const RATE_LIMITED_RETRY_MS = 60 * 60 * 1000;
/**
 * A whole download: about 55 MB in 125 paced pages (13 s of pacing). Ten minutes is 0.75 Mbit/s; a download cut
 * short still costs its points of 5Post's hour window, so it is given room rather than tried twice.
 */
export const DOWNLOAD_TIMEOUT_MS = 10 * 60 * 1000;
/**
 * Points per page (audit F4). The only raw capture of a point (lapaygroup/fivepost-sdk README, getPvzList;
 * the 2025 guide's point has the same fields) is 2,208 bytes as compact JSON, and the guide's cache of
 * 25,038 points is 50–60 MB, i.e. 2.0–2.4 KB a point. 500 a page (what 5Post recommends as the most) is about
 * 1.1 MB, over the HTTP client's 1 MiB cap (MAX_CARRIER_RESPONSE_BYTES): the catalogue never loaded. 200 is
 * about 0.44 MB, so a page fits even if 5Post's points are 2.4 times the captured size (longer addresses and
 * notes, several rates); 25,000 points are 125 pages, which the pace (2,000 points/s) spreads over 13 s or more.
 */
export const CATALOGUE_PAGE_SIZE = 200;
/** 100,000 points is four times 5Post's network: a catalogue that says more pages than that is a paging fault. */
const MAX_POINTS = 100_000;

export type Readiness = { ok: true } | { ok: false; failure: CarrierFailure };

export interface FivePostCatalogueOptions {
  baseUrl: string;
  namespace: string;
  store: FivePostCatalogueStore;
  tokens: FivePostTokenSource;
  logger: Logger;
  nowMs: () => number;
  pageSize?: number;
  /** The per-second pace (tests); PACE_POINTS_PER_SECOND by default, shared per host. */
  pointsPerSecond?: number;
  /**
   * A company server's shared carrier state: one instance downloads while the others wait for its catalogue,
   * so 5Post's few daily downloads are the company's, not each instance's.
   */
  coordination?: Pick<CarrierCoordinationStore, 'exclusive'>;
}

interface Failure {
  detail: string;
  retryAtMs: number;
}

export class FivePostCatalogue {
  /** One download at a time; the warm-up's is dropped if it stops before a quote joined (shared-download.ts). */
  private readonly downloads = new SharedDownload<Readiness>(
    (signal) => this.downloadAndStore(signal),
    DOWNLOAD_TIMEOUT_MS,
  );
  private lastFailure: Failure | null = null;
  private failuresInRow = 0;
  private readonly ledger: DownloadLedger;

  constructor(private readonly options: FivePostCatalogueOptions) {
    this.ledger = ledgerFor(options.namespace, options.pointsPerSecond);
  }

  /**
   * Whether quotes can be answered now; starts or joins a download as described above. `ahead`: the service's
   * warm-up asking (its download is dropped if the warm-up stops before a quote needed it).
   */
  async ready(signal: AbortSignal, ahead = false): Promise<Readiness> {
    const { store, namespace, nowMs } = this.options;
    const meta = await store.meta(namespace);
    if (meta) {
      const now = nowMs();
      if (now - meta.refreshedAtMs >= REFRESH_EVERY_MS && this.mayTry() && !inBulkRefreshHours(now))
        void this.refresh();
      return { ok: true };
    }
    if (!this.downloads.running && !this.mayTry()) {
      const minutes = Math.max(1, Math.ceil((this.lastFailure!.retryAtMs - nowMs()) / 60_000));
      return {
        ok: false,
        failure: {
          kind: 'carrier_error',
          detail: `5Post catalogue: ${this.lastFailure!.detail} (not tried again for ${minutes} minutes)`,
        },
      };
    }
    return this.downloads.join(signal, ahead);
  }

  /** One download at a time; resolves when it has stored the catalogue or failed (never rejects). */
  refresh(): Promise<Readiness> {
    return this.downloads.start();
  }

  private downloadAndStore(signal: AbortSignal): Promise<Readiness> {
    const shared = this.options.coordination;
    if (!shared) return this.downloadAndStoreHere(signal);
    return shared
      .exclusive(`5post catalogue ${this.options.namespace}`, async () => {
        // Another instance may have stored a fresh catalogue while this one waited its turn.
        const meta = await this.options.store.meta(this.options.namespace);
        if (meta && this.options.nowMs() - meta.refreshedAtMs < REFRESH_EVERY_MS)
          return { ok: true } as const;
        return this.downloadAndStoreHere(signal);
      })
      .catch((err: unknown) => this.failed(`the company store could not be asked: ${String(err)}`));
  }

  private downloadAndStoreHere(signal: AbortSignal): Promise<Readiness> {
    return this.download(signal).then(
      async (points): Promise<Readiness> => {
        try {
          await this.options.store.replace(this.options.namespace, points, this.options.nowMs());
        } catch (err) {
          // A locked data file costs this download (tried again later), never a quote its answer.
          return this.failed(`could not be stored: ${String(err)}`);
        }
        this.lastFailure = null;
        this.failuresInRow = 0;
        return { ok: true };
      },
      (err: unknown): Readiness =>
        // Dropped (only the warm-up wanted it): not 5Post's failure, and the next quote asks at once.
        dropped(signal)
          ? { ok: false, failure: { kind: 'carrier_error', detail: '5Post catalogue: download dropped' } }
          : err instanceof LimitError
            ? this.failed(err.message, err.untilMs)
            : this.failed(
                err instanceof CarrierHttpError || err instanceof CatalogueError
                  ? err.message
                  : err instanceof Error && err.name === 'TimeoutError'
                    ? 'download took too long'
                    : `download failed: ${String(err)}`,
              ),
    );
  }

  private failed(detail: string, notBeforeMs?: number): Readiness {
    const now = this.options.nowMs();
    this.failuresInRow += 1;
    const backoff = Math.min(RETRY_AFTER_MS * 2 ** (this.failuresInRow - 1), MAX_RETRY_AFTER_MS);
    this.lastFailure = { detail, retryAtMs: Math.max(now + backoff, notBeforeMs ?? 0) };
    this.options.logger.warn('5Post catalogue download failed', {
      namespace: this.options.namespace,
      detail,
      retry_at: new Date(this.lastFailure.retryAtMs).toISOString(),
    });
    return { ok: false, failure: { kind: 'carrier_error', detail: `5Post catalogue: ${detail}` } };
  }

  private mayTry(): boolean {
    return !this.lastFailure || this.options.nowMs() >= this.lastFailure.retryAtMs;
  }

  private async download(signal: AbortSignal): Promise<StoredPoint[]> {
    const { nowMs, store, namespace } = this.options;
    const pageSize = this.options.pageSize ?? CATALOGUE_PAGE_SIZE;
    const known = await store.meta(namespace);
    const expected = known ? known.points + known.unreadable : EXPECTED_CATALOGUE_POINTS;
    const room = this.ledger.roomFor(expected, nowMs());
    if (!room.ok) throw new LimitError(`not downloaded: ${room.detail}`, room.untilMs);
    const maxPages = Math.ceil(MAX_POINTS / pageSize);
    const byId = new Map<string, StoredPoint>();
    let dropped = 0;
    let inactive = 0;
    for (let page = 0, pages = 1; page < pages; page++) {
      const body = await this.page(page, pageSize, signal);
      const parsed = FivePostPointPage.safeParse(body);
      if (!parsed.success) throw new CatalogueError(`page ${page} has an unexpected shape`);
      pages = parsed.data.totalPages;
      if (pages > maxPages) throw new CatalogueError(`5Post says ${pages} pages, more than ${maxPages}`);
      if (parsed.data.content.length === 0 && page < pages - 1)
        throw new CatalogueError(`page ${page} is empty`);
      for (const raw of parsed.data.content) {
        if (!isActivePoint(raw)) {
          inactive += 1;
          continue;
        }
        const point = readPoint(raw);
        if (point) byId.set(point.id, point);
        else dropped += 1;
      }
    }
    const points = [...byId.values()];
    const unreadable = points.filter((p) => p.point === null).length;
    if (unreadable > 0 || dropped > 0) {
      this.options.logger.warn('5Post catalogue has entries RateDesk cannot read', {
        namespace,
        unreadable,
        dropped,
        first_problem: points.find((p) => p.problem)?.problem,
      });
    }
    this.options.logger.info('5Post catalogue downloaded', {
      namespace,
      points: points.length,
      inactive_skipped: inactive,
    });
    return points;
  }

  /** One page, paced under 5Post's windows, with one retry on 401 (the JWT expired earlier than it said). */
  private async page(pageNumber: number, pageSize: number, signal: AbortSignal): Promise<unknown> {
    const { tokens, baseUrl, nowMs } = this.options;
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.get(signal);
      if (!token.ok) throw new CatalogueError(token.detail);
      const room = this.ledger.roomFor(pageSize, nowMs());
      if (!room.ok) throw new LimitError(`stopped at page ${pageNumber}: ${room.detail}`, room.untilMs);
      await this.ledger.take(pageSize, nowMs(), signal);
      const res = await carrierRequest(pointsPageUrl(baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${token.jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify(pointsPageBody(pageNumber, pageSize)),
        signal,
      });
      this.ledger.answered(pageSize);
      if (res.status === 401 && attempt < 2) {
        tokens.invalidate(token.jwt);
        continue;
      }
      const said = fivePostErrorText(res.json);
      if (res.status === 429)
        throw new LimitError(
          `page ${pageNumber}: HTTP 429${said ? ` ${said}` : ''} (5Post's download limit)`,
          nowMs() + RATE_LIMITED_RETRY_MS,
        );
      if (res.status !== 200)
        throw new CatalogueError(`page ${pageNumber}: HTTP ${res.status}${said ? ` ${said}` : ''}`);
      return res.json;
    }
  }
}

class CatalogueError extends Error {}

/** A download 5Post's limits stop (a 429, or windows without room): not tried again before `untilMs`. */
class LimitError extends Error {
  constructor(
    message: string,
    readonly untilMs: number,
  ) {
    super(message);
  }
}
