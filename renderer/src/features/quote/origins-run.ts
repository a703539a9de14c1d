// «Из всех складов» (#20) as it runs: one ordinary quote run per warehouse (run.ts's reducer, so every
// carrier's state shows per origin as it answers), fed by the quote:progress events the core sends with the
// key `${quoteKey}:${warehouse_id}`, and the core's OriginsResult at the end. Pure: unit-tested in Node.
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import type { OriginsResult } from '../../../../core/desk/contract';
import type { QuoteProgress } from '../../../../core/desk/contract';
import type { Sort } from './logic';
import { IDLE, runReducer, type RunState } from './run';

export interface OriginRun {
  warehouseId: number;
  name: string;
  /** Where it ships from (the warehouse's city and postal code as the run started). */
  place: string;
  run: RunState;
}

export interface OriginAsked {
  id: number;
  name: string;
  place: string;
  carriers: string[];
  disabled: string[];
}

export interface OriginsRunState {
  key: string | null;
  phase: 'idle' | 'running' | 'done' | 'error';
  /** The parcel and destination asked (shipment.from is each warehouse's own). */
  shipment: QuoteRequestInput | null;
  origins: OriginRun[];
  /** The core's answer: which origin is cheapest and fastest. */
  result: OriginsResult | null;
  error: unknown;
}

export const ORIGINS_IDLE: OriginsRunState = {
  key: null,
  phase: 'idle',
  shipment: null,
  origins: [],
  result: null,
  error: undefined,
};

export type OriginsAction =
  | {
      type: 'start';
      key: string;
      shipment: QuoteRequestInput;
      /** Each with the carriers it asks, and those switched off (shown as such, not asked). */
      warehouses: readonly OriginAsked[];
      sandbox: boolean | null;
    }
  /** `key`: the event's own key, `${quoteKey}:${warehouse_id}`. */
  | { type: 'progress'; key: string; progress: QuoteProgress; sort: Sort; at?: number }
  | { type: 'done'; key: string; result: OriginsResult; sort: Sort; at?: number }
  | { type: 'failed'; key: string; error: unknown }
  | { type: 'resort'; sort: Sort }
  | { type: 'clear' };

/** The progress key of one origin's run (the core's naming in quote:run-origins). */
export function originKey(quoteKey: string, warehouseId: number): string {
  return `${quoteKey}:${warehouseId}`;
}

function mapOrigins(state: OriginsRunState, f: (o: OriginRun) => RunState): OriginsRunState {
  let changed = false;
  const origins = state.origins.map((o) => {
    const run = f(o);
    if (run === o.run) return o;
    changed = true;
    return { ...o, run };
  });
  return changed ? { ...state, origins } : state;
}

export function originsReducer(state: OriginsRunState, action: OriginsAction): OriginsRunState {
  switch (action.type) {
    case 'start':
      return {
        ...ORIGINS_IDLE,
        key: action.key,
        phase: 'running',
        shipment: action.shipment,
        origins: action.warehouses.map((w) => ({
          warehouseId: w.id,
          name: w.name,
          place: w.place,
          run: runReducer(IDLE, {
            type: 'start',
            key: originKey(action.key, w.id),
            carriers: w.carriers,
            disabled: w.disabled,
            shipment: action.shipment,
            sandbox: action.sandbox,
          }),
        })),
      };
    case 'progress':
      if (state.phase !== 'running') return state;
      return mapOrigins(state, (o) =>
        o.run.key === action.key
          ? runReducer(o.run, {
              type: 'progress',
              key: action.key,
              progress: action.progress,
              sort: action.sort,
              ...(action.at !== undefined ? { at: action.at } : {}),
            })
          : o.run,
      );
    case 'done': {
      if (action.key !== state.key) return state;
      const byId = new Map(action.result.origins.map((o) => [o.warehouse_id, o]));
      const next = mapOrigins(state, (o) => {
        const answer = byId.get(o.warehouseId);
        const key = o.run.key ?? '';
        if (answer?.result) {
          return runReducer(o.run, {
            type: 'done',
            key,
            result: answer.result,
            sort: action.sort,
            ...(action.at !== undefined ? { at: action.at } : {}),
          });
        }
        return runReducer(o.run, { type: 'failed', key, error: new Error('origin failed') });
      });
      return { ...next, phase: 'done', result: action.result };
    }
    case 'failed': {
      if (action.key !== state.key) return state;
      const next = mapOrigins(state, (o) =>
        o.run.phase === 'running'
          ? runReducer(o.run, { type: 'failed', key: o.run.key ?? '', error: action.error })
          : o.run,
      );
      return { ...next, phase: 'error', error: action.error };
    }
    case 'resort':
      return mapOrigins(state, (o) => runReducer(o.run, { type: 'resort', sort: action.sort }));
    case 'clear':
      return ORIGINS_IDLE;
  }
}
