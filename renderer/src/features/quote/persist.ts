// The last result kept across screen switches and restarts (issue #9), in localStorage beside the form's
// draft. Read back with the contract's own schemas (#17): a list of kinds kept here once went stale, and a
// result with one carrier of an unlisted kind (a pallet's exceeds_limits, an open breaker) was deleted
// whole. Now each rate and each carrier is read on its own: an entry that does not read (a hand-edited
// value, a kind from a newer build) drops that entry only, never the result. Only the frame — the version
// and the shipment the result answers — must read, since without them nothing on screen would be true.
// Pure (no storage access here): unit-tested in Node.
// #21: rates are read as the clerk's QuoteRate, or as /v1 rates when kept by an older build; the chosen pickup
// points are kept with the result and read each on its own like the rest.
import { z } from 'zod';
import { PickupPoint } from '../../../../core/contract/points';
import { QuoteRate, QuoteRequest, type QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { CarrierFailure } from '../../../../core/contract/unavailable';
import { Rate as V1Rate } from '../../../../core/contract/v1';
import { rateKey, sortedOrder, type Rate, type Sort } from './logic';
import { IDLE, type CarrierRun, type RunState } from './run';

const VERSION = 1;

interface StoredRun {
  v: typeof VERSION;
  carriers: CarrierRun[];
  rates: Rate[];
  shipment: QuoteRequestInput;
  quoteId: number | null;
  sandbox: boolean | null;
  points?: Record<string, PickupPoint>;
}

/** Only a finished run is worth keeping; anything else stores nothing (null). */
export function storableRun(state: RunState): StoredRun | null {
  if (state.phase !== 'done' || !state.shipment) return null;
  return {
    v: VERSION,
    carriers: state.carriers,
    rates: state.order.map((k) => state.rates.get(k)).filter((r): r is Rate => r !== undefined),
    shipment: state.shipment,
    quoteId: state.quoteId,
    sandbox: state.sandbox,
    ...(state.points && Object.keys(state.points).length > 0 ? { points: { ...state.points } } : {}),
  };
}

const Code = z.string().min(1);
const Elapsed = z.number().min(0);

/**
 * One carrier of a finished run: answered, or unavailable with the contract's kind and detail (the same
 * fields quote:progress and DeskQuoteResult carry). A finished run has no carrier still waiting.
 */
const StoredCarrier = z.discriminatedUnion('state', [
  z.object({
    code: Code,
    state: z.literal('answered'),
    elapsedMs: Elapsed.optional(),
    count: z.int().min(0).optional(),
  }),
  CarrierFailure.pick({ kind: true, detail: true }).extend({
    code: Code,
    state: z.literal('unavailable'),
    elapsedMs: Elapsed.optional(),
    /** Wall-clock time (ms) a skipped carrier may be asked again. */
    retryAt: z.number().optional(),
  }),
]);

/** The frame: without its version and its shipment a result cannot say what it answers. */
const StoredFrame = z.object({
  v: z.literal(VERSION),
  carriers: z.array(z.unknown()).catch([]),
  rates: z.array(z.unknown()).catch([]),
  shipment: QuoteRequest,
  quoteId: z.int().min(1).nullable().catch(null),
  sandbox: z.boolean().nullable().catch(null),
  points: z.record(z.string(), z.unknown()).catch({}).optional(),
});

/** A kept rate: the clerk's QuoteRate, else the /v1 fields an older build kept. */
const StoredRate: z.ZodType<Rate> = z.union([QuoteRate, V1Rate]);

/** Every entry that reads, in order; the others are left out. */
function readEach<T>(entries: readonly unknown[], schema: z.ZodType<T>): T[] {
  const out: T[] = [];
  for (const e of entries) {
    const r = schema.safeParse(e);
    if (r.success) out.push(r.data);
  }
  return out;
}

/** The stored run as a screen state (finished, not listening to any run's events), or idle. */
export function restoreRun(raw: unknown, sort: Sort): RunState {
  const frame = StoredFrame.safeParse(raw);
  if (!frame.success) return IDLE;
  const { shipment, quoteId, sandbox } = frame.data;
  const map = new Map<string, Rate>();
  for (const r of readEach(frame.data.rates, StoredRate)) if (!map.has(rateKey(r))) map.set(rateKey(r), r);
  // A chosen point stays only beside a rate that was kept, and only if it still reads.
  const points: Record<string, PickupPoint> = {};
  for (const [key, raw] of Object.entries(frame.data.points ?? {})) {
    const p = PickupPoint.safeParse(raw);
    if (p.success && map.has(key)) points[key] = p.data;
  }

  const carriers: CarrierRun[] = [];
  for (const c of readEach(frame.data.carriers, StoredCarrier)) {
    if (!carriers.some((x) => x.code === c.code)) carriers.push(c);
  }
  // A carrier whose own entry was dropped but whose rates were kept still answered: its chip comes back.
  for (const r of map.values()) {
    if (carriers.some((c) => c.code === r.carrier)) continue;
    const count = [...map.values()].filter((x) => x.carrier === r.carrier).length;
    carriers.push({ code: r.carrier, state: 'answered', count });
  }
  // Nothing at all read back: there is no result left to show.
  if (carriers.length === 0 && map.size === 0) return IDLE;
  return {
    ...IDLE,
    phase: 'done',
    carriers,
    rates: map,
    order: sortedOrder(map.values(), sort),
    shipment,
    quoteId,
    sandbox,
    ...(Object.keys(points).length > 0 ? { points } : {}),
  };
}
