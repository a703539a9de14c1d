// React hooks over the desk API: load-on-mount with loading / error / reload, and event subscriptions.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DeskApi, DeskEvent, DeskEventPayload, DeskResult } from '../../../core/desk/contract';
import { call, onDeskEvent } from './client';

export type Loadable<T> =
  | { status: 'loading'; data: T | undefined; error: undefined }
  | { status: 'ready'; data: T; error: undefined }
  | { status: 'error'; data: T | undefined; error: unknown };

export interface DeskQuery<T> {
  state: Loadable<T>;
  /** Loads again; the previous data stays visible meanwhile. */
  reload: () => Promise<void>;
  /** Replaces the data locally (after a mutation that returned the new value). */
  setData: (update: (prev: T | undefined) => T) => void;
}

/**
 * Calls the desk on mount and whenever `deps` change. Answers of superseded calls are dropped, so a slow
 * earlier search never overwrites a newer one.
 */
export function useDeskQuery<T>(
  fn: (api: DeskApi) => Promise<DeskResult<T>>,
  deps: readonly unknown[],
): DeskQuery<T> {
  const [state, setState] = useState<Loadable<T>>({ status: 'loading', data: undefined, error: undefined });
  const generation = useRef(0);
  const fnRef = useRef(fn);
  fnRef.current = fn;

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ status: 'loading', data: s.data, error: undefined }));
    try {
      const data = await call(fnRef.current);
      if (mine === generation.current) setState({ status: 'ready', data, error: undefined });
    } catch (error) {
      if (mine === generation.current) setState((s) => ({ status: 'error', data: s.data, error }));
    }
  }, []);

  useEffect(() => {
    void reload();
    // The caller's deps decide when to reload (like useEffect's own).
  }, deps);

  const setData = useCallback((update: (prev: T | undefined) => T) => {
    setState((s) => ({ status: 'ready', data: update(s.data), error: undefined }));
  }, []);

  return { state, reload, setData };
}

/** Subscribes for the component's lifetime; the latest callback is always the one called. */
export function useDeskEvent<E extends DeskEvent>(
  event: E,
  cb: (payload: DeskEventPayload<E>) => void,
): void {
  const ref = useRef(cb);
  ref.current = cb;
  useEffect(() => onDeskEvent(event, (p) => ref.current(p)), [event]);
}
