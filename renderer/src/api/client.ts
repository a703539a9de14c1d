// Typed access to window.ratedesk (the desk IPC API of core/desk/contract.ts).
//
//   const rows = await call((api) => api.history.search({ text }));   // → the value, or throws
//
// Every channel answers {ok:true,value} | {ok:false,error:{code,message}}; call() unwraps it into the value
// or throws a DeskCallError whose .message is a plain-language sentence in the UI language (the core's own
// wording is kept in .detail for the cases where it helps the user: what exactly was invalid or refused).
import {
  deskEventMethod,
  type DeskApi,
  type DeskErrorCode,
  type DeskEvent,
  type DeskEventPayload,
  type DeskResult,
} from '../../../core/desk/contract';
import { getActiveLang, translate, type MessageKey } from '../i18n';
import type { Lang } from '../lib/format';

export type { DeskApi };
/** `network`: the bridge itself failed (no window.ratedesk, or the invoke promise rejected). */
export type CallErrorCode = DeskErrorCode | 'network';

export class DeskCallError extends Error {
  readonly code: CallErrorCode;
  /** The core's message (English, technical but safe); '' when there is none. */
  readonly detail: string;
  constructor(code: CallErrorCode, detail: string) {
    super(describeError(code, detail, getActiveLang()));
    this.name = 'DeskCallError';
    this.code = code;
    this.detail = detail;
  }
  /** The message in another language (components re-render it when the language changes). */
  describe(lang: Lang): string {
    return describeError(this.code, this.detail, lang);
  }
}

const KEYS: Record<CallErrorCode, MessageKey> = {
  network: 'common.error.network',
  invalid: 'common.error.invalid',
  not_found: 'common.error.not_found',
  conflict: 'common.error.conflict',
  forbidden: 'common.error.forbidden',
  busy: 'common.error.busy',
  internal: 'common.error.internal',
  // Company mode (#20): the server is away, or no longer accepts this desk.
  offline: 'company.call.offline',
  unauthorized: 'company.call.unauthorized',
};

export function describeError(code: CallErrorCode, detail: string, lang: Lang): string {
  if (code === 'invalid' && detail === '') return translate(lang, 'common.error.invalidPlain');
  if (code === 'conflict' && detail === '') return translate(lang, 'common.error.unknown');
  const key = Object.hasOwn(KEYS, code) ? KEYS[code] : 'common.error.unknown';
  return translate(lang, key, { detail });
}

/** Any thrown value as a sentence for the user; never a stack trace or "[object Object]". */
export function errorMessage(err: unknown, lang: Lang = getActiveLang()): string {
  if (err instanceof DeskCallError) return err.describe(lang);
  return translate(lang, 'common.error.unknown');
}

export function deskApi(): DeskApi {
  const api = window.ratedesk;
  if (!api) throw new DeskCallError('network', 'window.ratedesk is not installed');
  return api;
}

export function hasDeskApi(): boolean {
  return typeof window !== 'undefined' && window.ratedesk !== undefined;
}

/** Runs one desk call and unwraps its result. */
export async function call<T>(fn: (api: DeskApi) => Promise<DeskResult<T>>): Promise<T> {
  let result: DeskResult<T>;
  try {
    result = await fn(deskApi());
  } catch (err) {
    if (err instanceof DeskCallError) throw err;
    throw new DeskCallError('network', err instanceof Error ? err.message : String(err));
  }
  if (result && typeof result === 'object' && 'ok' in result) {
    if (result.ok) return result.value;
    throw new DeskCallError(result.error?.code ?? 'internal', result.error?.message ?? '');
  }
  throw new DeskCallError('internal', 'malformed answer from the core');
}

type EventMethod = keyof DeskApi['on'];

/** Subscribes to a pushed event; returns the unsubscribe function (a no-op where there is no bridge). */
export function onDeskEvent<E extends DeskEvent>(
  event: E,
  cb: (payload: DeskEventPayload<E>) => void,
): () => void {
  const api = window.ratedesk;
  if (!api) return () => {};
  // The contract's own naming rule ('balance:low' → balanceLow), the one buildDeskApi used.
  const subscribe = api.on[deskEventMethod(event) as EventMethod] as (
    cb: (payload: DeskEventPayload<E>) => void,
  ) => () => void;
  return subscribe(cb);
}
