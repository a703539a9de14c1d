// The one contract between the desktop UI and the core (design.md "IPC"): every channel with the schema
// of its input and of its result, every pushed event with its payload, and the window.ratedesk API type
// derived from them. The renderer and the preload import this file, so it must stay free of Node:
// it imports only zod and core/contract/v1 (itself zod-only). The admin modules' input schemas are
// re-declared here because core/admin/keys.ts pulls in node:crypto; the handlers still call the admin
// operations, which validate again, so the admin rules remain the final word.
import { z } from 'zod';
import type {
  UnavailableKind as CoreUnavailableKind,
  QuoteProgress as CoreQuoteProgress,
} from '../rating/aggregator';
import { CarrierStatus, Rate, Shipment, Unavailable } from '../contract/v1';

// ---------------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------------

const NoInput = z.strictObject({}).optional();
const Timestamp = z.string();
const Id = z.int().min(1).max(Number.MAX_SAFE_INTEGER);
/** Chosen by the renderer per run, so it can tell which quote:progress events belong to which form. */
const QuoteKey = z.string().min(1).max(64);

/** Same rule as core/admin/accounts.ts AccountName. */
const AccountName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 characters from A-Z, a-z, 0-9, "_", "." and "-"');
const AccountRef = z.string().min(1, 'account name is required').max(200);
const MAX_REQUESTS = 1_000_000_000;
const Requests = z.int('must be a whole number').min(1).max(MAX_REQUESTS);
/** Same rule as core/admin/keys.ts KeyName. */
const KeyName = z
  .string()
  .trim()
  .min(1, 'key name is required')
  .max(64, 'key name must be at most 64 characters')
  .regex(/^[^\p{Cc}]*$/u, 'key name must not contain control characters');
const KeyId = z
  .string()
  .regex(/^key_[0-9A-Za-z]{12}$/, 'a key id looks like key_ followed by 12 letters or digits');

export const ThresholdValue = z.enum(['100', '500', '1000', 'auto', 'off']);
export const Tier = z.enum(['free', 'paid']);
export const UnavailableKind = z.enum([
  'no_service',
  'not_configured',
  'postal_code_required',
  'carrier_error',
  'timeout',
  'unknown_carrier',
  'disabled',
]);

/**
 * The desktop app never serves /v1 beyond this computer; `npm run serve --allow-remote` is the only way to
 * do that. Same set as isLoopback() in core/api/server.ts, which the handler checks again.
 */
export const LoopbackHost = z
  .string()
  .regex(
    /^(?:localhost|::1|127\.(?:\d{1,3})\.(?:\d{1,3})\.(?:\d{1,3}))$/,
    'the desktop app serves /v1 on this computer only: use 127.0.0.1, localhost or ::1',
  );

// ---------------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------------

export const AppInfo = z.object({
  version: z.string(),
  sandbox: z.boolean(),
  dataDir: z.string(),
  language: z.enum(['ru', 'en']),
  theme: z.enum(['system', 'light', 'dark']),
  listenerUrl: z.string().nullable(),
});

export const CarrierFailure = z.object({
  carrier: z.string(),
  kind: UnavailableKind,
  detail: z.string().optional(),
});

export const DeskQuoteResult = z.object({
  request_id: z.string(),
  /** Row id in history (history:get / history:rerun / history:curl take it). */
  quote_id: Id,
  sandbox: z.boolean(),
  /** Cheapest first. */
  rates: z.array(Rate),
  unavailable: z.array(Unavailable),
  /** Same carriers as `unavailable`, with a machine-readable kind for the UI's own wording. */
  failures: z.array(CarrierFailure),
});

export const QuoteProgress = z.discriminatedUnion('state', [
  z.object({ carrier: z.string(), state: z.literal('waiting') }),
  z.object({
    carrier: z.string(),
    state: z.literal('answered'),
    rates: z.array(Rate),
    elapsedMs: z.number(),
  }),
  z.object({
    carrier: z.string(),
    state: z.literal('unavailable'),
    kind: UnavailableKind,
    reason: z.string(),
    elapsedMs: z.number(),
  }),
]);

export const CitySuggestion = z.object({
  name: z.string(),
  /** Empty for a recent place the city table does not know. */
  region: z.string(),
  postal_code: z.string().nullable(),
  /** True for a place taken from quote history (listed before the table's cities). */
  recent: z.boolean(),
});

export const HistoryRow = z.object({
  id: Id,
  created_at: Timestamp,
  /** `api` rows are /v1 calls from local tools; `desk` rows are quotes made in the app. */
  source: z.enum(['desk', 'api']),
  from_city: z.string(),
  to_city: z.string(),
  weight_grams: z.number(),
  cheapest_kopecks: z.number().nullable(),
  /** Carriers that answered with at least one rate. */
  carriers: z.array(z.string()),
  sandbox: z.boolean(),
});

export const HistoryQuote = z.object({
  id: Id,
  request_id: z.string(),
  created_at: Timestamp,
  source: z.enum(['desk', 'api']),
  sandbox: z.boolean(),
  shipment: Shipment,
  rates: z.array(Rate),
  unavailable: z.array(Unavailable),
});

export const PriceChange = z.object({
  service_code: z.string(),
  carrier: z.string(),
  service_name: z.string(),
  /** Null: the service was not offered the first time. */
  before_kopecks: z.number().nullable(),
  /** Null: the service is not offered any more. */
  after_kopecks: z.number().nullable(),
});

export const RerunResult = z.object({
  quote: DeskQuoteResult,
  /** Every service of either run (unchanged ones too, so the UI can show "no change"), cheapest now first. */
  changes: z.array(PriceChange),
});

export const ExportedFile = z.object({
  filename: z.string(),
  mime: z.string(),
  base64: z.string(),
});

export const CarrierView = z.object({
  code: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  status: CarrierStatus,
  last_error: z.string().nullable(),
  last_success_at: Timestamp.nullable(),
  median_latency_ms: z.number().nullable(),
  /** Used in live mode; sandbox mode talks to the built-in simulators whatever this says. */
  base_url: z.string(),
  default_base_url: z.string(),
  /** Null for carriers that need no account (Russian Post's public tariff calculator). */
  credentials: z
    .object({
      client_id: z.string(),
      /** `••••abcd` or '' when none is stored; the full secret never leaves the core. */
      client_secret_masked: z.string(),
      configured: z.boolean(),
    })
    .nullable(),
});

export const AccountView = z.object({
  id: Id,
  name: z.string(),
  tier: Tier,
  balance: z.number(),
  limits: z.object({ rps: z.number(), burst: z.number(), source: z.enum(['tier', 'override']) }),
  threshold: ThresholdValue,
  last_package: z.number().nullable(),
  created_at: Timestamp,
});

export const NotificationView = z.object({
  id: Id,
  account: z.string(),
  kind: z.string(),
  threshold: z.number(),
  balance: z.number(),
  created_at: Timestamp,
});

export const KeyView = z.object({
  id: z.string(),
  name: z.string(),
  account: z.string(),
  prefix: z.string(),
  last_four: z.string(),
  origin: z.enum(['created', 'imported']),
  state: z.enum(['active', 'revoked']),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});

export const CreatedKey = z.object({
  id: z.string(),
  name: z.string(),
  account: z.string(),
  /** The only time the full key leaves the core: show it once, with a copy button. */
  secret: z.string(),
  prefix: z.string(),
  last_four: z.string(),
  created_at: Timestamp,
});

export const KeyImportResult = z.object({
  imported: z.number(),
  skipped: z.number(),
  /** Accounts an export document named that did not exist; created with a zero balance. */
  accounts_created: z.array(z.string()),
  /** The stored key when a single secret was imported; null for an export document. */
  key: KeyView.nullable(),
});

export const SettingView = z.object({
  name: z.string(),
  /** Effective value (stored or default); a secret is masked. */
  value: z.string(),
  default: z.string(),
  is_set: z.boolean(),
  secret: z.boolean(),
  doc: z.string(),
});

export const ListenerStatus = z.object({
  enabled: z.boolean(),
  host: z.string(),
  port: z.number(),
  running: z.boolean(),
  url: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------------------

export const deskChannels = {
  'app:info': { input: NoInput, output: AppInfo },

  /** Progress of this run arrives as 'quote:progress' events carrying the same quoteKey. */
  'quote:run': { input: z.strictObject({ quoteKey: QuoteKey, shipment: Shipment }), output: DeskQuoteResult },
  'cities:search': {
    input: z.strictObject({ query: z.string().max(120), limit: z.int().min(1).max(20).default(10) }),
    output: z.array(CitySuggestion),
  },

  'history:search': {
    input: z.strictObject({
      text: z.string().max(200).default(''),
      limit: z.int().min(1).max(500).default(50),
      offset: z.int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    }),
    output: z.array(HistoryRow),
  },
  'history:get': { input: z.strictObject({ id: Id }), output: HistoryQuote },
  'history:rerun': { input: z.strictObject({ id: Id, quoteKey: QuoteKey }), output: RerunResult },
  'history:export': {
    input: z.strictObject({ format: z.enum(['csv', 'xlsx']), text: z.string().max(200).optional() }),
    output: ExportedFile,
  },
  /** A shell command for POST /v1/rates with this quote's shipment; the key stays $RATEDESK_API_KEY. */
  'history:curl': { input: z.strictObject({ id: Id }), output: z.string() },

  'carriers:list': { input: NoInput, output: z.array(CarrierView) },
  'carriers:update': {
    input: z.strictObject({
      code: z.string().min(1).max(40),
      enabled: z.boolean().optional(),
      base_url: z.string().max(2000).optional(),
      client_id: z.string().max(200).optional(),
      /** '' clears it. */
      client_secret: z.string().max(200).optional(),
    }),
    output: CarrierView,
  },

  'accounts:list': { input: NoInput, output: z.array(AccountView) },
  'accounts:create': {
    input: z.strictObject({ name: AccountName, balance: z.int().min(0).max(MAX_REQUESTS).default(100) }),
    output: AccountView,
  },
  'accounts:topup': {
    input: z.strictObject({ account: AccountRef, requests: Requests }),
    output: AccountView,
  },
  'accounts:set-limits': {
    input: z.strictObject({
      account: AccountRef,
      rps: z.number().gt(0).max(10_000),
      burst: z.int('must be a whole number').min(1).max(100_000),
    }),
    output: AccountView,
  },
  'accounts:clear-limits': { input: z.strictObject({ account: AccountRef }), output: AccountView },
  'accounts:set-threshold': {
    input: z.strictObject({ account: AccountRef, threshold: ThresholdValue }),
    output: AccountView,
  },
  'notifications:list': {
    input: z.strictObject({ limit: z.int().min(1).max(1000).default(50) }).optional(),
    output: z.array(NotificationView),
  },

  'keys:list': {
    input: z.strictObject({ account: AccountRef.optional() }).optional(),
    output: z.array(KeyView),
  },
  'keys:create': { input: z.strictObject({ account: AccountRef, name: KeyName }), output: CreatedKey },
  /** Either one secret issued elsewhere, or the text of a keys:export file. */
  'keys:import': {
    input: z.union([
      z.strictObject({ account: AccountRef, name: KeyName, secret: z.string().max(10_000) }),
      z.strictObject({ document: z.string().min(1).max(50_000_000) }),
    ]),
    output: KeyImportResult,
  },
  'keys:revoke': {
    input: z.strictObject({ id: KeyId }),
    output: KeyView.extend({ already_revoked: z.boolean() }),
  },
  /** Digests only, never secrets: the file moves keys to another RateDesk, not to a person. */
  'keys:export': {
    input: z.strictObject({ account: AccountRef.optional() }).optional(),
    output: z.object({ filename: z.string(), json: z.string() }),
  },

  'settings:get': { input: NoInput, output: z.array(SettingView) },
  /** ui.*, sandbox, carriers.*, rating.*; listener.* only through listener:update. */
  'settings:set': {
    input: z.strictObject({ name: z.string().min(1).max(100), value: z.string().max(10_000) }),
    output: SettingView,
  },

  'listener:status': { input: NoInput, output: ListenerStatus },
  'listener:update': {
    input: z.strictObject({
      enabled: z.boolean().optional(),
      /** 0 picks any free port. */
      port: z.int().min(0).max(65_535).optional(),
      host: LoopbackHost.optional(),
    }),
    output: ListenerStatus,
  },
} as const satisfies Record<`${string}:${string}`, { input: z.ZodType; output: z.ZodType }>;

// ---------------------------------------------------------------------------------------------------
// Events pushed from the core
// ---------------------------------------------------------------------------------------------------

export const deskEvents = {
  'quote:progress': z.object({ quoteKey: QuoteKey, progress: QuoteProgress }),
  /** After a /v1 charge or a desk top-up. */
  'balance:changed': z.object({ account_id: Id, account: z.string(), balance: z.number() }),
  /** A low-balance threshold was crossed (also recorded in notifications:list). */
  'balance:low': z.object({ account: z.string(), threshold: z.number(), balance: z.number(), at: Timestamp }),
  'carriers:status': z.object({ code: z.string(), status: CarrierStatus, last_error: z.string().nullable() }),
} as const;

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
export type DeskEventPayload<E extends DeskEvent> = z.output<(typeof deskEvents)[E]>;

export type DeskErrorCode = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'internal';
export type DeskError = { code: DeskErrorCode; message: string };
export type DeskResult<T> = { ok: true; value: T } | { ok: false; error: DeskError };

export type AppInfo = z.output<typeof AppInfo>;
export type DeskQuoteResult = z.output<typeof DeskQuoteResult>;
export type QuoteProgress = z.output<typeof QuoteProgress>;
export type UnavailableKind = z.output<typeof UnavailableKind>;
export type CitySuggestion = z.output<typeof CitySuggestion>;
export type HistoryRow = z.output<typeof HistoryRow>;
export type HistoryQuote = z.output<typeof HistoryQuote>;
export type PriceChange = z.output<typeof PriceChange>;
export type RerunResult = z.output<typeof RerunResult>;
export type ExportedFile = z.output<typeof ExportedFile>;
export type CarrierView = z.output<typeof CarrierView>;
export type AccountView = z.output<typeof AccountView>;
export type NotificationView = z.output<typeof NotificationView>;
export type KeyView = z.output<typeof KeyView>;
export type CreatedKey = z.output<typeof CreatedKey>;
export type KeyImportResult = z.output<typeof KeyImportResult>;
export type SettingView = z.output<typeof SettingView>;
export type ListenerStatus = z.output<typeof ListenerStatus>;

// The core's own types and these schemas must describe the same values; a mismatch fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameKinds: Same<UnavailableKind, CoreUnavailableKind> = true;
const _progressFits: Same<CoreQuoteProgress extends QuoteProgress ? true : false, true> = true;
void _sameKinds;
void _progressFits;

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
