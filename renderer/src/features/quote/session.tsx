// The quote run lives above the screens (issue #9): switching to History and back, or restarting the app,
// shows the last result again, and a quote still running when the clerk looks elsewhere keeps streaming in.
// The provider is mounted once in App; QuoteScreen reads it with useQuoteSession().
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { PickupPoint } from '../../../../core/contract/points';
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { newQuoteKey } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskEvent } from '../../api/hooks';
import { readJson, readText, removeKey, writeJson, writeText } from '../../lib/storage';
import { formatSort, parseSort, type Sort } from './logic';
import { ORIGINS_IDLE, originsReducer, type OriginAsked, type OriginsRunState } from './origins-run';
import { restoreRun, storableRun } from './persist';
import { runReducer, type RunState } from './run';

const RESULT_KEY = 'ratedesk.quote.last';
const SORT_KEY = 'ratedesk.quote.sort';

export interface StartQuote {
  shipment: QuoteRequestInput;
  carriers: string[];
  disabled: string[];
  sandbox: boolean | null;
  /** Carriers skipped by their breaker to ask anyway, once («спросить сейчас»). */
  probe?: string[];
  /** «Откуда» is this warehouse (#20): the core takes its place and History names it. */
  warehouseId?: number;
}

/** «Из всех складов» (#20): the same parcel from each of these warehouses. */
export interface StartOrigins {
  shipment: QuoteRequestInput;
  warehouses: readonly OriginAsked[];
  sandbox: boolean | null;
}

export interface QuoteSession {
  run: RunState;
  /** The last «из всех складов» run; idle while a single-origin result is shown (and the other way round). */
  origins: OriginsRunState;
  sort: Sort;
  /** The header's sort: re-sorts the table and is remembered. */
  setSort: (sort: Sort) => void;
  /** Runs a quote; resolves when it has ended (answered or failed). */
  start: (q: StartQuote) => Promise<void>;
  startOrigins: (q: StartOrigins) => Promise<void>;
  clear: () => void;
  restore: (state: RunState) => void;
  /** The pickup point chosen for a rate of the result (#21); null: none again. */
  choosePoint: (rate: string, point: PickupPoint | null) => void;
}

const SessionContext = createContext<QuoteSession | null>(null);

export function useQuoteSession(): QuoteSession {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useQuoteSession outside QuoteSessionProvider');
  return s;
}

export function QuoteSessionProvider(props: { children: ReactNode }): ReactNode {
  const [sort, setSortState] = useState<Sort>(() => parseSort(readText(SORT_KEY)));
  const [run, dispatch] = useReducer(runReducer, sort, (s) => restoreRun(readJson(RESULT_KEY), s));
  const [origins, dispatchOrigins] = useReducer(originsReducer, ORIGINS_IDLE);
  const sortRef = useRef(sort);
  sortRef.current = sort;

  useEffect(() => {
    if (run.phase === 'done') writeJson(RESULT_KEY, storableRun(run));
    else if (run.phase === 'idle') removeKey(RESULT_KEY);
  }, [run]);

  useDeskEvent('quote:progress', (e) => {
    const action = {
      type: 'progress',
      key: e.quoteKey,
      progress: e.progress,
      sort: sortRef.current,
      at: Date.now(),
    } as const;
    dispatch(action);
    dispatchOrigins(action);
  });

  const start = useCallback(async (q: StartQuote): Promise<void> => {
    const key = newQuoteKey();
    dispatchOrigins({ type: 'clear' });
    dispatch({
      type: 'start',
      key,
      carriers: q.carriers,
      disabled: q.disabled,
      shipment: q.shipment,
      sandbox: q.sandbox,
      ...(q.probe?.length ? { probe: q.probe } : {}),
    });
    try {
      const result = await call((api) =>
        api.quote.run({
          quoteKey: key,
          shipment: q.shipment,
          ...(q.probe?.length ? { probe: q.probe } : {}),
          ...(q.warehouseId !== undefined ? { warehouse_id: q.warehouseId } : {}),
        }),
      );
      dispatch({ type: 'done', key, result, sort: sortRef.current, at: Date.now() });
    } catch (error) {
      dispatch({ type: 'failed', key, error });
    }
  }, []);

  const startOrigins = useCallback(async (q: StartOrigins): Promise<void> => {
    const key = newQuoteKey();
    dispatch({ type: 'clear' });
    dispatchOrigins({ type: 'start', key, ...q });
    try {
      const result = await call((api) =>
        api.quote.runOrigins({
          quoteKey: key,
          shipment: q.shipment,
          warehouse_ids: q.warehouses.map((w) => w.id),
        }),
      );
      dispatchOrigins({ type: 'done', key, result, sort: sortRef.current, at: Date.now() });
    } catch (error) {
      dispatchOrigins({ type: 'failed', key, error });
    }
  }, []);

  const setSort = useCallback((next: Sort) => {
    setSortState(next);
    writeText(SORT_KEY, formatSort(next));
    dispatch({ type: 'resort', sort: next });
    dispatchOrigins({ type: 'resort', sort: next });
  }, []);
  const clear = useCallback(() => {
    dispatch({ type: 'clear' });
    dispatchOrigins({ type: 'clear' });
  }, []);
  const restore = useCallback((state: RunState) => dispatch({ type: 'restore', state }), []);
  const choosePoint = useCallback(
    (rate: string, point: PickupPoint | null) => dispatch({ type: 'point', rate, point }),
    [],
  );

  const value = useMemo(
    () => ({ run, origins, sort, setSort, start, startOrigins, clear, restore, choosePoint }),
    [run, origins, sort, setSort, start, startOrigins, clear, restore, choosePoint],
  );
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}
