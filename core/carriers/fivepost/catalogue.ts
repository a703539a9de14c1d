// The 5Post pickup-point catalogue: downloaded page by page, kept in SQLite, refreshed on a schedule, and
// never in a quote's way for long (docs/carriers.md, "5Post", "The catalogue").
//
// - Warm (a catalogue is stored for this host): a quote reads it and makes no call. When it is older than
//   REFRESH_EVERY_MS, the quote also starts one download in the background and does not wait for it.
// - Cold (none stored): the quote starts the download (or joins the one running) and waits for it, bounded
//   by its own signal, i.e. the carrier timeout. The download itself is not tied to that quote: it goes on
//   under its own DOWNLOAD_TIMEOUT_MS, so the quotes after it find the catalogue ready, and a burst of quotes
//   on a cold cache is one download, not one each.
// - A download that fails is not tried again for RETRY_AFTER_MS (5Post allows about three full downloads a
//   day, verified-2026 §8.5); meanwhile a cold quote gets the failure as a carrier_error and a warm one keeps
//   using the catalogue it has. Nothing is replaced unless every page arrived and was readable.
import type { Logger } from '../../util/logger';
import { CarrierHttpError, carrierRequest } from '../http';
import type { CarrierFailure } from '../types';
import type { FivePostCatalogueStore } from './catalogue-store';
import { readPoint, type StoredPoint } from './points';
import { pointsPageBody, pointsPageUrl } from './request';
import { FivePostPointPage, fivePostErrorText } from './schema';
import type { FivePostTokenSource } from './token';

/** 5Post's bulk refresh runs nightly (02:00–05:00 MSK, FP-GUIDE): once a day is as fresh as it gets. */
export const REFRESH_EVERY_MS = 24 * 60 * 60 * 1000;
export const RETRY_AFTER_MS = 15 * 60 * 1000;
export const DOWNLOAD_TIMEOUT_MS = 5 * 60 * 1000;
/**
 * Points per page: 5Post serves up to 2000 and recommends ≤ 500 (FP-LAP README). 500 also keeps a page of
 * full point records (addresses, hours, rates) well under the HTTP client's 1 MB answer cap.
 */
export const CATALOGUE_PAGE_SIZE = 500;
/** 200 pages of 500 is 100 000 points, several times 5Post's network: more means a paging fault. */
const MAX_PAGES = 200;

export type Readiness = { ok: true } | { ok: false; failure: CarrierFailure };

export interface FivePostCatalogueOptions {
  baseUrl: string;
  namespace: string;
  store: FivePostCatalogueStore;
  tokens: FivePostTokenSource;
  logger: Logger;
  nowMs: () => number;
  pageSize?: number;
}

export class FivePostCatalogue {
  private flight: Promise<Readiness> | null = null;
  private lastFailure: { atMs: number; detail: string } | null = null;

  constructor(private readonly options: FivePostCatalogueOptions) {}

  /** Whether quotes can be answered now; starts or joins a download as described above. */
  async ready(signal: AbortSignal): Promise<Readiness> {
    const { store, namespace, nowMs } = this.options;
    const meta = store.meta(namespace);
    if (meta) {
      if (nowMs() - meta.refreshedAtMs >= REFRESH_EVERY_MS && this.mayTry()) void this.refresh();
      return { ok: true };
    }
    if (!this.flight && !this.mayTry()) {
      return {
        ok: false,
        failure: {
          kind: 'carrier_error',
          detail: `5Post catalogue: ${this.lastFailure!.detail} (not tried again for ${RETRY_AFTER_MS / 60_000} minutes)`,
        },
      };
    }
    return untilAborted(this.refresh(), signal);
  }

  /** One download at a time; resolves when it has stored the catalogue or failed (never rejects). */
  refresh(): Promise<Readiness> {
    this.flight ??= this.download(AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS))
      .then(
        (points): Readiness => {
          try {
            this.options.store.replace(this.options.namespace, points, this.options.nowMs());
          } catch (err) {
            // A locked data file costs this download (tried again later), never a quote its answer.
            return this.failed(`could not be stored: ${String(err)}`);
          }
          this.lastFailure = null;
          return { ok: true };
        },
        (err: unknown): Readiness =>
          this.failed(
            err instanceof CarrierHttpError || err instanceof CatalogueError
              ? err.message
              : err instanceof Error && err.name === 'TimeoutError'
                ? 'download took too long'
                : `download failed: ${String(err)}`,
          ),
      )
      .finally(() => {
        this.flight = null;
      });
    return this.flight;
  }

  private failed(detail: string): Readiness {
    this.lastFailure = { atMs: this.options.nowMs(), detail };
    this.options.logger.warn('5Post catalogue download failed', {
      namespace: this.options.namespace,
      detail,
    });
    return { ok: false, failure: { kind: 'carrier_error', detail: `5Post catalogue: ${detail}` } };
  }

  private mayTry(): boolean {
    return !this.lastFailure || this.options.nowMs() - this.lastFailure.atMs >= RETRY_AFTER_MS;
  }

  private async download(signal: AbortSignal): Promise<StoredPoint[]> {
    const pageSize = this.options.pageSize ?? CATALOGUE_PAGE_SIZE;
    const byId = new Map<string, StoredPoint>();
    let dropped = 0;
    for (let page = 0, pages = 1; page < pages; page++) {
      const body = await this.page(page, pageSize, signal);
      const parsed = FivePostPointPage.safeParse(body);
      if (!parsed.success) throw new CatalogueError(`page ${page} has an unexpected shape`);
      pages = parsed.data.totalPages;
      if (pages > MAX_PAGES) throw new CatalogueError(`5Post says ${pages} pages, more than ${MAX_PAGES}`);
      if (parsed.data.content.length === 0 && page < pages - 1)
        throw new CatalogueError(`page ${page} is empty`);
      for (const raw of parsed.data.content) {
        const point = readPoint(raw);
        if (point) byId.set(point.id, point);
        else dropped += 1;
      }
    }
    const points = [...byId.values()];
    const unreadable = points.filter((p) => p.point === null).length;
    if (unreadable > 0 || dropped > 0) {
      this.options.logger.warn('5Post catalogue has entries RateDesk cannot read', {
        namespace: this.options.namespace,
        unreadable,
        dropped,
        first_problem: points.find((p) => p.problem)?.problem,
      });
    }
    return points;
  }

  /** One page, with one retry on 401 (the JWT expired earlier than it said). */
  private async page(pageNumber: number, pageSize: number, signal: AbortSignal): Promise<unknown> {
    const { tokens, baseUrl } = this.options;
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.get(signal);
      if (!token.ok) throw new CatalogueError(token.detail);
      const res = await carrierRequest(pointsPageUrl(baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${token.jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify(pointsPageBody(pageNumber, pageSize)),
        signal,
      });
      if (res.status === 401 && attempt < 2) {
        tokens.invalidate(token.jwt);
        continue;
      }
      if (res.status !== 200) {
        const said = fivePostErrorText(res.json);
        throw new CatalogueError(`page ${pageNumber}: HTTP ${res.status}${said ? ` ${said}` : ''}`);
      }
      return res.json;
    }
  }
}

class CatalogueError extends Error {}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}
