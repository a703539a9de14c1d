// The state of one quote run as carriers answer: a pure reducer (no DOM), unit-tested in Node. The table
// order is always the order the header shows: a carrier that answers later has its rows inserted where
// they belong (RatesTable keeps the row being read still on screen).
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import type { PickupPoint } from '../../../../core/contract/points';
import type { DeskQuoteResult, QuoteProgress, UnavailableKind } from '../../../../core/desk/contract';
import { rateKey, sortedOrder, type Rate, type Sort } from './logic';

export interface CarrierRun {
  code: string;
  state: 'waiting' | 'answered' | 'unavailable';
  elapsedMs?: number;
  kind?: UnavailableKind;
  /** The core's or the carrier's words about a failure (which city was not found, …): grouped by, not shown. */
  detail?: string;
  /** A skipped carrier (temporarily_skipped): when, on this machine's clock (ms), it may be asked again. */
  retryAt?: number;
  count?: number;
}

export interface RunState {
  key: string | null;
  phase: 'idle' | 'running' | 'done' | 'error';
  carriers: CarrierRun[];
  rates: Map<string, Rate>;
  /** Keys in display order. */
  order: string[];
  error: unknown;
  /** What this result answers (the form may have moved on: the screen then marks the result outdated). */
  shipment: QuoteRequestInput | null;
  quoteId: number | null;
  /** From the result; while running, what the app said when the run started. */
  sandbox: boolean | null;
  /** Carriers this run asked to be let through their breaker at once («спросить сейчас»). */
  probed?: readonly string[];
  /** The pickup point chosen for a rate (#21), by rateKey: carried into copy and export. */
  points?: Readonly<Record<string, PickupPoint>>;
}

export const IDLE: RunState = {
  key: null,
  phase: 'idle',
  carriers: [],
  rates: new Map(),
  order: [],
  error: undefined,
  shipment: null,
  quoteId: null,
  sandbox: null,
};

export type RunAction =
  | {
      type: 'start';
      key: string;
      /** The carriers asked. */
      carriers: string[];
      /** Carriers switched off in Carriers, so not asked: shown as such, never silently left out. */
      disabled?: string[];
      shipment: QuoteRequestInput;
      sandbox?: boolean | null;
      probe?: readonly string[];
    }
  /** `at`: when it arrived (Date.now()), so a skipped carrier's «until when» becomes a time of day. */
  | { type: 'progress'; key: string; progress: QuoteProgress; sort: Sort; at?: number }
  | { type: 'done'; key: string; result: DeskQuoteResult; sort: Sort; at?: number }
  | { type: 'failed'; key: string; error: unknown }
  | { type: 'resort'; sort: Sort }
  | { type: 'clear' }
  /** The clerk chose a pickup point for a rate (null: none again). */
  | { type: 'point'; rate: string; point: PickupPoint | null }
  /** Puts back a saved state (the last result after a restart, or the one a cleared form had). */
  | { type: 'restore'; state: RunState };

function upsertCarrier(list: CarrierRun[], next: CarrierRun): CarrierRun[] {
  const i = list.findIndex((c) => c.code === next.code);
  if (i < 0) return [...list, next];
  const copy = [...list];
  copy[i] = next;
  return copy;
}

function retryAt(retryInMs: number | undefined, at: number | undefined): Pick<CarrierRun, 'retryAt'> {
  return retryInMs !== undefined && at !== undefined ? { retryAt: at + retryInMs } : {};
}

function addRates(state: RunState, rates: readonly Rate[], sort: Sort): Pick<RunState, 'rates' | 'order'> {
  if (rates.length === 0) return { rates: state.rates, order: state.order };
  const map = new Map(state.rates);
  for (const r of rates) map.set(rateKey(r), r);
  return { rates: map, order: sortedOrder(map.values(), sort) };
}

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case 'start': {
      const asked = new Set(action.carriers);
      const off = (action.disabled ?? []).filter((c) => !asked.has(c));
      return {
        ...IDLE,
        rates: new Map(),
        key: action.key,
        phase: 'running',
        shipment: action.shipment,
        sandbox: action.sandbox ?? null,
        ...(action.probe?.length ? { probed: action.probe } : {}),
        carriers: [
          ...action.carriers.map((code): CarrierRun => ({ code, state: 'waiting' })),
          ...off.map((code): CarrierRun => ({ code, state: 'unavailable', kind: 'disabled' })),
        ],
      };
    }
    case 'progress': {
      if (action.key !== state.key) return state;
      const p = action.progress;
      if (p.state === 'waiting') {
        const existing = state.carriers.find((c) => c.code === p.carrier);
        if (existing && existing.state !== 'waiting') return state;
        return { ...state, carriers: upsertCarrier(state.carriers, { code: p.carrier, state: 'waiting' }) };
      }
      if (p.state === 'answered') {
        return {
          ...state,
          ...addRates(state, p.rates, action.sort),
          carriers: upsertCarrier(state.carriers, {
            code: p.carrier,
            state: 'answered',
            elapsedMs: p.elapsedMs,
            count: p.rates.length,
          }),
        };
      }
      return {
        ...state,
        carriers: upsertCarrier(state.carriers, {
          code: p.carrier,
          state: 'unavailable',
          kind: p.kind,
          ...(p.detail !== undefined ? { detail: p.detail } : {}),
          ...retryAt(p.retryInMs, action.at),
          elapsedMs: p.elapsedMs,
        }),
      };
    }
    case 'done': {
      if (action.key !== state.key) return state;
      const merged = addRates(state, action.result.rates, action.sort);
      let carriers = state.carriers;
      // Carriers the core refused before asking (unknown, disabled) send no progress: take them from the result.
      for (const f of action.result.failures) {
        const prev = carriers.find((c) => c.code === f.carrier);
        if (!prev || prev.state === 'waiting') {
          carriers = upsertCarrier(carriers, {
            code: f.carrier,
            state: 'unavailable',
            kind: f.kind,
            ...(f.detail !== undefined ? { detail: f.detail } : {}),
            ...retryAt(f.retryInMs, action.at),
            ...(prev?.elapsedMs !== undefined ? { elapsedMs: prev.elapsedMs } : {}),
          });
        }
      }
      // A carrier that rated but whose event was lost is still "answered".
      const answered = new Map<string, number>();
      for (const r of action.result.rates) answered.set(r.carrier, (answered.get(r.carrier) ?? 0) + 1);
      for (const [code, count] of answered) {
        const prev = carriers.find((c) => c.code === code);
        if (!prev || prev.state === 'waiting')
          carriers = upsertCarrier(carriers, { code, state: 'answered', count });
      }
      // Still waiting at the end: the carrier was asked but the run is over without its answer.
      carriers = carriers.map((c) =>
        c.state === 'waiting' ? { ...c, state: 'unavailable', kind: 'timeout' } : c,
      );
      return {
        ...state,
        ...merged,
        carriers,
        phase: 'done',
        quoteId: action.result.quote_id,
        sandbox: action.result.sandbox,
      };
    }
    case 'failed':
      if (action.key !== state.key) return state;
      return {
        ...state,
        phase: 'error',
        error: action.error,
        carriers: state.carriers.map((c) =>
          c.state === 'waiting' ? { ...c, state: 'unavailable', kind: 'carrier_error' } : c,
        ),
      };
    case 'resort':
      return { ...state, order: sortedOrder(state.rates.values(), action.sort) };
    case 'clear':
      return { ...IDLE, rates: new Map() };
    case 'point': {
      const { [action.rate]: _old, ...rest } = state.points ?? {};
      return { ...state, points: action.point ? { ...rest, [action.rate]: action.point } : rest };
    }
    case 'restore':
      return action.state;
  }
}
