// The state of one quote run as carriers answer: a pure reducer (no DOM), unit-tested in Node.
import type { DeskQuoteResult, QuoteProgress, UnavailableKind } from '../../../../core/desk/contract';
import { appendOrder, rateKey, sortedOrder, type Rate, type Sort } from './logic';

export interface CarrierRun {
  code: string;
  state: 'waiting' | 'answered' | 'unavailable';
  elapsedMs?: number;
  kind?: UnavailableKind;
  /** The core's text (English, technical); shown as a tooltip only. */
  detail?: string;
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
  route: { from: string; to: string } | null;
  quoteId: number | null;
  sandbox: boolean | null;
}

export const IDLE: RunState = {
  key: null,
  phase: 'idle',
  carriers: [],
  rates: new Map(),
  order: [],
  error: undefined,
  route: null,
  quoteId: null,
  sandbox: null,
};

export type RunAction =
  | { type: 'start'; key: string; carriers: string[]; route: { from: string; to: string } }
  | { type: 'progress'; key: string; progress: QuoteProgress; sort: Sort }
  /** settle: the whole answer came at once, so one sort cannot move rows someone is reading. */
  | { type: 'done'; key: string; result: DeskQuoteResult; sort: Sort; settle: boolean }
  | { type: 'failed'; key: string; error: unknown }
  | { type: 'resort'; sort: Sort }
  | { type: 'clear' };

function upsertCarrier(list: CarrierRun[], next: CarrierRun): CarrierRun[] {
  const i = list.findIndex((c) => c.code === next.code);
  if (i < 0) return [...list, next];
  const copy = [...list];
  copy[i] = next;
  return copy;
}

function addRates(state: RunState, rates: readonly Rate[], sort: Sort): Pick<RunState, 'rates' | 'order'> {
  if (rates.length === 0) return { rates: state.rates, order: state.order };
  const map = new Map(state.rates);
  for (const r of rates) map.set(rateKey(r), r);
  return { rates: map, order: appendOrder(state.order, rates, sort) };
}

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case 'start':
      return {
        ...IDLE,
        rates: new Map(),
        key: action.key,
        phase: 'running',
        route: action.route,
        carriers: action.carriers.map((code) => ({ code, state: 'waiting' })),
      };
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
          detail: p.reason,
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
            ...(f.detail ? { detail: f.detail } : {}),
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
        order: action.settle ? sortedOrder(merged.rates.values(), action.sort) : merged.order,
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
  }
}
