// A bulk run (#21 item 6): every row quoted as a desk quote, at the pace of an account's limits. The pace is
// the account's own: a token from the same bucket /v1 takes from (store.takeToken, keyed as /v1 keys it, so
// the run and the account's integrations share one limit), waited for rather than refused, and at most the
// in-flight bound of rows asked at once. The limit, not RateDesk, bounds the run: with fast carriers a run
// goes at the account's rps (scripts/bench/bulk.ts measures it). A cancel stops new rows; rows in flight
// finish and are kept, like every row before them (each is in history the moment it is quoted).
import type { BulkRowResult, BulkRunResult, BulkShipment } from '../contract/operations';
import { totalWeightGrams, type QuoteRate, type QuoteShipment } from '../contract/quote-ext';
import type { CarrierFailure } from '../contract/unavailable';
import type { BucketLimits, Store } from '../store/port';

/** One row's quote, stored in history: what the operation layer hands the run. */
export type QuoteRow = (shipment: QuoteShipment) => Promise<{
  quote_id: number;
  sandbox: boolean;
  rates: QuoteRate[];
  failures: CarrierFailure[];
}>;

export interface BulkPace {
  /** The account whose bucket the run takes tokens from; null: the in-flight bound alone. */
  account: { name: string; bucket: string; limits: BucketLimits } | null;
  inFlight: number;
}

export interface BulkRunOptions {
  runKey: string;
  rows: readonly BulkShipment[];
  pace: BulkPace;
  store: Pick<Store, 'takeToken'>;
  monotonicMs: () => number;
  quote: QuoteRow;
  signal: AbortSignal;
  onRow(row: BulkRowResult, done: number, total: number): void;
}

/** Fewest days (days_max, then days_min), then the lower price; null when no rate has days. */
export function fastestOf(rates: readonly QuoteRate[]): number | null {
  let best: number | null = null;
  const key = (r: QuoteRate): [number, number, number] => [
    r.days_max ?? r.days_min ?? Infinity,
    r.days_min ?? r.days_max ?? Infinity,
    r.price_kopecks,
  ];
  rates.forEach((r, i) => {
    if (r.days_min === undefined && r.days_max === undefined) return;
    if (best === null) return void (best = i);
    const [a, b] = [key(r), key(rates[best]!)];
    if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) best = i;
  });
  return best;
}

/** The cheapest by price (rates come cheapest first, but a row's result must not depend on that). */
export function cheapestOf(rates: readonly QuoteRate[]): number | null {
  let best: number | null = null;
  rates.forEach((r, i) => {
    if (best === null || r.price_kopecks < rates[best]!.price_kopecks) best = i;
  });
  return best;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Waits for one of the account's tokens; false when the run was cancelled meanwhile. */
async function token(o: BulkRunOptions): Promise<boolean> {
  const account = o.pace.account;
  if (!account) return !o.signal.aborted;
  for (;;) {
    if (o.signal.aborted) return false;
    const take = await o.store.takeToken(account.bucket, account.limits, o.monotonicMs());
    if (take.allowed) return !o.signal.aborted;
    // One token's refill time: the bucket says only whole seconds (Retry-After), far too coarse to pace by.
    await sleep(Math.min(1000, Math.max(2, 1000 / account.limits.rps)), o.signal);
  }
}

function rowResult(row: BulkShipment, outcome: Awaited<ReturnType<QuoteRow>> | Error): BulkRowResult {
  const base = {
    line: row.line,
    reference: row.reference,
    from_city: row.shipment.from.city,
    to_city: row.shipment.to.city,
    weight_grams: totalWeightGrams(row.shipment),
  };
  if (outcome instanceof Error) {
    return {
      ...base,
      sandbox: false,
      quote_id: null,
      rates: [],
      failures: [],
      cheapest: null,
      fastest: null,
      error: outcome.message.slice(0, 200),
    };
  }
  return {
    ...base,
    quote_id: outcome.quote_id,
    sandbox: outcome.sandbox,
    rates: outcome.rates,
    failures: outcome.failures,
    cheapest: cheapestOf(outcome.rates),
    fastest: fastestOf(outcome.rates),
    error: null,
  };
}

export async function runBulk(o: BulkRunOptions): Promise<BulkRunResult> {
  const started = o.monotonicMs();
  const total = o.rows.length;
  const results: Array<BulkRowResult | undefined> = new Array(total);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < total && !o.signal.aborted) {
      if (!(await token(o))) return;
      if (next >= total) return;
      const index = next++;
      const row = o.rows[index]!;
      let outcome: Awaited<ReturnType<QuoteRow>> | Error;
      try {
        outcome = await o.quote(row.shipment);
      } catch (err) {
        outcome = err instanceof Error ? err : new Error(String(err));
      }
      const result = rowResult(row, outcome);
      results[index] = result;
      done += 1;
      o.onRow(result, done, total);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.pace.inFlight, total)) }, worker));
  const rows = results.filter((r): r is BulkRowResult => r !== undefined);
  return {
    runKey: o.runKey,
    state: rows.length === total ? 'done' : 'cancelled',
    total,
    done: rows.length,
    rows,
    pace: {
      account: o.pace.account?.name ?? null,
      rps: o.pace.account?.limits.rps ?? null,
      in_flight: o.pace.inFlight,
    },
    elapsed_ms: Math.max(0, o.monotonicMs() - started),
  };
}
