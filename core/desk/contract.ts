// The desk's IPC contract (design.md "IPC"): the channels are the operations of core/contract/operations,
// the events its desk events; the window.ratedesk API type and the one function that builds it for every
// transport derive from them. The renderer and the preload import this file, so it stays free of Node:
// it imports only zod-only modules of core/contract.
import type { z } from 'zod';
import { deskEventSchemas, operationSchemas, type DeskEventPayload } from '../contract/operations';

export * from '../contract/operations';
export { CarrierFailure, UNAVAILABLE_KINDS, UnavailableKind } from '../contract/unavailable';

/**
 * Operations only the admin CLI needs (reading one setting, resetting one): the page gets no channel for
 * them, so the renderer's surface is exactly what its screens use.
 */
const CLI_ONLY = ['settings:get-one', 'settings:reset'] as const;
type CliOnly = (typeof CLI_ONLY)[number];

function withoutCliOnly<T extends Record<string, unknown>>(all: T): Omit<T, CliOnly> {
  const out: Record<string, unknown> = { ...all };
  for (const name of CLI_ONLY) delete out[name];
  return out as Omit<T, CliOnly>;
}

/** The desk's channels: the operations, derived from their one definition, less the CLI's own. */
export const deskChannels = withoutCliOnly(operationSchemas);
export const deskEvents = deskEventSchemas;

// ---------------------------------------------------------------------------------------------------
// Derived types
// ---------------------------------------------------------------------------------------------------

export type DeskChannel = keyof typeof deskChannels;
/** What a caller sends (defaults still optional). */
export type DeskInput<C extends DeskChannel> = z.input<(typeof deskChannels)[C]['input']>;
/** What a handler receives after the contract's parse (defaults filled in). */
export type DeskParsedInput<C extends DeskChannel> = z.output<(typeof deskChannels)[C]['input']>;
export type DeskOutput<C extends DeskChannel> = z.output<(typeof deskChannels)[C]['output']>;
export type DeskEvent = keyof typeof deskEvents;

/**
 * `busy`: the data file was locked by another program (an admin import): the UI asks to try again.
 * Company mode (#20) only: `unauthorized`: the company server does not know this desk's token (revoked, user
 * disabled); `offline`: the company server cannot be reached now (the call was not run; nothing falls back
 * to local data).
 */
export type DeskErrorCode =
  'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'busy' | 'internal' | 'unauthorized' | 'offline';
export type DeskError = { code: DeskErrorCode; message: string };
export type DeskResult<T> = { ok: true; value: T } | { ok: false; error: DeskError };

/** 'accounts:clear-limits' → 'clearLimits'. */
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type AreaOf<C extends string> = C extends `${infer A}:${string}` ? A : never;
type VerbOf<C extends string> = C extends `${string}:${infer V}` ? Camel<V> : never;
/** 'balance:changed' → 'balanceChanged'. */
type EventMethod<E extends string> = E extends `${infer A}:${infer B}`
  ? `${Camel<A>}${Capitalize<Camel<B>>}`
  : never;

/** A channel whose input may be left out gets an optional parameter (api.accounts.list()). */
export type DeskMethod<C extends DeskChannel> =
  undefined extends DeskInput<C>
    ? (input?: DeskInput<C>) => Promise<DeskResult<DeskOutput<C>>>
    : (input: DeskInput<C>) => Promise<DeskResult<DeskOutput<C>>>;

export type DeskArea = AreaOf<DeskChannel>;

/** The object exposed as window.ratedesk: one function per channel, grouped by area, plus event subscriptions. */
export type DeskApi = {
  readonly [A in DeskArea]: {
    readonly [C in DeskChannel as AreaOf<C> extends A ? VerbOf<C> : never]: DeskMethod<C>;
  };
} & {
  /** Each returns its unsubscribe function. */
  readonly on: {
    readonly [E in DeskEvent as EventMethod<E>]: (cb: (payload: DeskEventPayload<E>) => void) => () => void;
  };
};

export const DESK_API_GLOBAL = 'ratedesk';

// ---------------------------------------------------------------------------------------------------
// Runtime helpers shared by every transport
// ---------------------------------------------------------------------------------------------------

function camel(s: string): string {
  return s.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** ['keys', 'create'] for 'keys:create'; the same rule as the DeskApi type. */
export function deskMethodPath(channel: string): [area: string, method: string] {
  const i = channel.indexOf(':');
  return [channel.slice(0, i), camel(channel.slice(i + 1))];
}

/** 'balance:changed' → 'balanceChanged'. */
export function deskEventMethod(event: string): string {
  const [a, b] = deskMethodPath(event);
  return `${camel(a)}${b.charAt(0).toUpperCase()}${b.slice(1)}`;
}

export function isDeskChannel(name: string): name is DeskChannel {
  return Object.hasOwn(deskChannels, name);
}

export function isDeskEvent(name: string): name is DeskEvent {
  return Object.hasOwn(deskEvents, name);
}

/**
 * Builds a DeskApi from a generic invoke + subscribe (used by the Electron preload AND by the e2e harness,
 * so both expose the identical shape). Only plain functions and objects: contextBridge copies them as is.
 */
export function buildDeskApi(
  invoke: (channel: DeskChannel, input: unknown) => Promise<DeskResult<unknown>>,
  subscribe: (event: DeskEvent, cb: (payload: unknown) => void) => () => void,
): DeskApi {
  const api: Record<string, Record<string, unknown>> = { on: {} };
  for (const channel of Object.keys(deskChannels) as DeskChannel[]) {
    const [area, method] = deskMethodPath(channel);
    (api[area] ??= {})[method] = (input?: unknown) => invoke(channel, input);
  }
  for (const event of Object.keys(deskEvents) as DeskEvent[]) {
    api.on![deskEventMethod(event)] = (cb: (payload: unknown) => void) => subscribe(event, cb);
  }
  // The loops above build exactly the mapped type from the same maps; TypeScript cannot follow string
  // building through a loop, so the one cast lives here (and test/unit/desk checks the shape at run time).
  return api as unknown as DeskApi;
}
