// The store: everything the core keeps between requests, declared once, asynchronously, so that the same
// core runs on the embedded SQLite file (core/store/sqlite, the default) and on a shared database server
// (#19) with N instances. Nothing outside core/store/<implementation> sees SQL or a driver; operations, the
// /v1 handler, rating and carriers take this interface, or a narrower slice of it, as a capability.
//
// Every method is one atomic unit: where the core used to open a transaction around several calls, the store
// now has one method that does the whole step (accounts.topup returns the row after it, keys.insert refuses
// a taken name inside the write). There is no `tx` and no handle on the interface: an implementation keeps
// its transactions, its connection and its driver to itself.
//
// The money path is a set of store operations (reserve → claimIdempotency → charge, and takeToken): an
// embedded store keeps reservations, claims and buckets in its process (one process serves a data folder); a
// shared one keeps them where every instance sees them. Their rules are pinned by the contract suite
// (test/contract/store), which every implementation passes unchanged.
import type { Tier } from '../contract/limits';
import type { Threshold } from '../contract/low-balance';
import type { FivePostCatalogueStore } from '../carriers/fivepost/catalogue-store';
import type { PointDirectoryStore } from '../carriers/point-directory';
import type { SlotDecision, WindowRule } from '../limits/sliding-window';
import type { BucketLimits, TakeResult } from '../limits/token-bucket';
import type { LocationCache } from '../locations/cache';
import type { RateCardRow } from '../ratecards/parse';

import type {
  AccountRow,
  CarrierHealthRow,
  ChunkOptions,
  IdempotencyRecord,
  ImportedKey,
  IntegrityReport,
  KeyAuthRow,
  KeyRow,
  LedgerMismatch,
  NewKey,
  NewQuote,
  NotificationRow,
  QuoteRow,
  RateCardRecord,
  RateCardServiceRow,
  RateCardSummary,
  QuoteFilter,
} from './rows';
import type { AuditStore, UsersStore, WarehousesStore } from './port-company';
import type { PricingStore } from './port-pricing';

export type { AuditStore, PricingStore, UsersStore, WarehousesStore };

export type { BucketLimits, SlotDecision, TakeResult, Threshold, Tier, WindowRule };
export type * from './rows';

// ---- the slices ----------------------------------------------------------------------------------------

export interface AccountsStore {
  /** With its opening ledger row; StoreConflictError when the name is taken. */
  create(name: string, balance: number, now: string, threshold?: Threshold): Promise<AccountRow>;
  /** Creates `name` when the store has no account at all (a fresh data folder); true when it did. */
  seedIfEmpty(name: string, balance: number, now: string): Promise<boolean>;
  byName(name: string): Promise<AccountRow | undefined>;
  byId(id: number): Promise<AccountRow | undefined>;
  list(): Promise<AccountRow[]>;
  balance(id: number): Promise<number | undefined>;
  /** A purchased package: balance += N, paid tier, a ledger row. The account after it; undefined if none. */
  topup(id: number, requests: number, now: string, note?: string | null): Promise<AccountRow | undefined>;
  setThreshold(id: number, threshold: Threshold): Promise<AccountRow | undefined>;
  setLimits(id: number, rps: number, burst: number, now: string): Promise<AccountRow | undefined>;
  clearLimits(id: number): Promise<AccountRow | undefined>;
  /** Accounts whose balance differs from the sum of their ledger: must be empty. */
  invariantViolations(): Promise<LedgerMismatch[]>;
}

export type KeyInsertResult =
  | { ok: true; row: KeyRow }
  | { ok: false; reason: 'digest_taken' | 'name_taken' | 'no_account'; existing?: KeyRow };

export interface KeyImportChunkResult {
  imported: number;
  skipped: number;
  accounts_created: string[];
}

export interface KeysStore {
  /**
   * Stores one key, refusing (inside the same write) a digest already stored and an active key of the same
   * account whose name `sameName` says is the same (names are compared with that function only).
   */
  insert(key: NewKey, sameName: (a: string, b: string) => boolean): Promise<KeyInsertResult>;
  /**
   * One chunk of an export document in one write: a digest already present is skipped, a missing account is
   * created with balance 0 (keys move between machines, balances do not).
   */
  importChunk(keys: readonly ImportedKey[], newId: () => string, now: string): Promise<KeyImportChunkResult>;
  /** The key, its account and its limits override, or undefined: the listener's lookup. */
  authLookup(digest: string): Promise<KeyAuthRow | undefined>;
  byId(id: string): Promise<KeyRow | undefined>;
  byDigest(digest: string): Promise<KeyRow | undefined>;
  list(accountId?: number): Promise<KeyRow[]>;
  /** Permanent (a revoked key keeps its first revoked_at). 'revoked' now, 'already' before, or 'missing'. */
  revoke(id: string, now: string): Promise<'revoked' | 'already' | 'missing'>;
  /** Records a key's last use; rides along with other writes (losing it in a crash is harmless). */
  touch(id: string, now: string): Promise<void>;
}

export interface SettingsStore {
  get(name: string): Promise<string | undefined>;
  all(): Promise<Map<string, string>>;
  /**
   * The stored settings as of the last change this store has seen (change feed): read on every quote and
   * request, so an implementation answers from memory and re-reads only after a change. Synchronous on
   * purpose: it is a copy, not a query.
   */
  snapshot(): ReadonlyMap<string, string>;
  /** Writes all or nothing; `null` removes the row (the setting returns to its default). */
  write(changes: ReadonlyArray<{ name: string; value: string | null }>, now: string): Promise<void>;
  /** Seals secrets an earlier version or the admin CLI left as plain text; how many. */
  sealPlainSecrets(now: string): Promise<number>;
}

export interface QuotesStore {
  /** One history row (the desk's quotes; /v1's are written by `charge`). Its id. */
  insert(quote: NewQuote): Promise<number>;
  byId(id: number): Promise<QuoteRow | undefined>;
  /** Newest first; `text` is matched literally (`%` and `_` are characters, not wildcards). */
  search(text: string, limit?: number, offset?: number, filter?: QuoteFilter): Promise<QuoteRow[]>;
}

export interface NotificationsStore {
  list(limit?: number): Promise<NotificationRow[]>;
}

export interface CarrierHealthStore {
  all(): Promise<CarrierHealthRow[]>;
  /** Never fails for a busy store: the row is written with the next batch of writes instead. */
  upsert(row: CarrierHealthRow): Promise<void>;
}

export interface RateCardsStore {
  /** Every card's id and code: cheap, so the running service can ask after every change. */
  versions(): Promise<Array<{ id: number; code: string }>>;
  byCode(code: string): Promise<RateCardRecord | undefined>;
  list(): Promise<RateCardSummary[]>;
  /** A card's services in the order they first appear in its file. */
  services(id: number): Promise<RateCardServiceRow[]>;
  /** A card with its rows; undefined when it was removed or replaced meanwhile. */
  load(id: number): Promise<{ card: RateCardRecord; rows: RateCardRow[] } | undefined>;
  /**
   * Publishes a card whole, replacing one of the same code: readers see the old card or the new one, never a
   * mix, and another writer waits for one chunk at most. A failure leaves the old card as it was.
   */
  replace(
    card: Omit<RateCardRecord, 'id'>,
    rows: readonly RateCardRow[],
    options?: ChunkOptions,
  ): Promise<{ id: number; replaced: boolean }>;
  /** The card as it was, or undefined. */
  remove(code: string, options?: ChunkOptions): Promise<RateCardRecord | undefined>;
  /** Deletes what failed or crashed imports left behind, a chunk per write, in the background. */
  purgeAbandoned(): Promise<void>;
}

/** The place-directory answers of carriers (the location resolver's cache). */
export interface LocationCacheStore extends LocationCache {
  /** Drops entries that expired long ago (best effort, at start). */
  sweepExpired(nowMs: number): Promise<void>;
}

export type PickupCatalogueStore = FivePostCatalogueStore;

/** Carriers' pickup-point directories per town (#21, core/points/search.ts). */
export type PointDirectoriesStore = PointDirectoryStore;

export interface IntegrityCheckStore {
  /** Whether the stored data itself is sound (SQLite: quick_check); asked once before serving. */
  integrityCheck(): Promise<IntegrityReport>;
}

// ---- the carriers' company-wide state ----------------------------------------------------------------

/**
 * What carriers allow per account rather than per process, kept where every instance sees it (#19): a quota
 * such as PEK's 100 requests a minute, a download to be made once (5Post's catalogue), an access token to be
 * fetched once (CDEK, 5Post). Absent on an embedded store: one process serves the data, and its own limiters
 * and caches are the whole truth.
 */
export interface CarrierCoordinationStore {
  /** Takes one slot of the sliding window `window` for `asker`, or says how long until one frees. */
  takeSlot(window: string, asker: string, rule: WindowRule): Promise<SlotDecision>;
  /** Runs fn while no other instance runs one under the same name; waits its turn. */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** The shared access token `name`, unless none is kept or it is due for refresh at `nowMs` (wall clock). */
  token(name: string, nowMs: number): Promise<{ token: string; refreshAtMs: number } | undefined>;
  /** Keeps `token` for every instance until `refreshAtMs` (wall clock); sealed at rest like a secret setting. */
  putToken(name: string, token: string, refreshAtMs: number): Promise<void>;
}

// ---- the money path -----------------------------------------------------------------------------------

export type ReserveResult =
  | {
      ok: true;
      /**
       * Gives the hold back; a second call does nothing. Settles once the hold is gone for every instance (a
       * caller that does not wait may ignore it: a failed release expires with the hold's lease).
       */
      release(): Promise<void>;
    }
  | { ok: false; reason: 'insufficient_balance' | 'too_many_in_flight' };

export type ClaimResult =
  /**
   * Nobody holds the key: this request runs it, and must release the claim (after its charge or failure). The
   * release settles once another instance could claim the key.
   */
  | { state: 'claimed'; release(): Promise<void> }
  /** A completed request with the same fingerprint: answer its stored reply byte for byte. */
  | { state: 'done'; record: IdempotencyRecord }
  /** The same request is running elsewhere (its lease has not expired). */
  | { state: 'in_flight' }
  /** The key was used for a different request (done or running). */
  | { state: 'mismatch' };

export interface IdempotencyClaim {
  accountId: number;
  key: string;
  fingerprint: string;
  nowMs: number;
  /** A completed record older than this is forgotten: the key is new again. */
  retentionMs: number;
  /** A claim not released within this is taken to have died with its holder. */
  leaseMs: number;
}

export interface ChargeInput {
  accountId: number;
  requestId: string;
  now: Date;
  /** Builds the exact response body once the new balance is known. */
  body: (balanceRemaining: number) => string;
  /**
   * `notBeforeMs`: a completed record of this key created after it (still within retention, by the same rule
   * as claimIdempotency's) is answered instead of a second debit (a claim whose lease expired while its holder
   * was still running, e.g. across a laptop's sleep).
   */
  idempotency?: { key: string; fingerprint: string; createdAtMs: number; notBeforeMs?: number };
  history?: (body: string) => NewQuote;
  /** Aborted before the write commits: nothing is charged (the client went away). */
  signal?: AbortSignal;
  /**
   * The request's hold (reserve): given back with the debit, so that no request anywhere sees the balance both
   * debited and still held; its release() does nothing more after a charge that succeeded.
   */
  hold?: Extract<ReserveResult, { ok: true }>;
}

export interface LowBalanceEvent {
  accountId: number;
  accountName: string;
  threshold: number;
  balance: number;
  at: string;
}

export type ChargeResult =
  | { ok: true; body: string; balance: number; lowBalance?: LowBalanceEvent }
  | { ok: false; reason: 'insufficient_balance' | 'client_gone' }
  /** The key was completed meanwhile: nothing was charged; answer its stored reply. */
  | { ok: false; reason: 'already_done'; record: IdempotencyRecord };

export interface MoneyPath {
  /**
   * Holds one request of the account's balance while carriers are asked: refused when the balance less what
   * is held is below one, or when `maxInFlight` requests of the account are already held.
   */
  reserve(accountId: number, maxInFlight: number): Promise<ReserveResult>;
  claimIdempotency(claim: IdempotencyClaim): Promise<ClaimResult>;
  /**
   * The debit, its ledger row, the stored reply (with `idempotency`), the history row and a low-balance
   * notification: one atomic, durable write. Settles after it is on disk.
   */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /**
   * Takes one token from `bucket` (an account, or the shared auth-failure brake). `nowMs` is the caller's
   * monotonic clock; an implementation shared by several processes keeps time by its own.
   */
  takeToken(bucket: string, limits: BucketLimits, nowMs: number): Promise<TakeResult>;
  /** Forgets completed idempotency records created before `ms`; how many. */
  purgeIdempotencyBefore(ms: number): Promise<number>;
}

// ---- the change feed ----------------------------------------------------------------------------------

/** What may have changed: caches drop what depends on it. */
export type ChangeTopic = 'accounts' | 'keys' | 'settings' | 'rate_cards';
export const CHANGE_TOPICS: readonly ChangeTopic[] = ['accounts', 'keys', 'settings', 'rate_cards'];

export interface ChangeFeed {
  /**
   * Calls `listener` with the topics that may have changed, synchronously after this store's own write
   * committed, and as soon as a commit by another process or instance is seen. Returns the unsubscribe.
   */
  subscribe(listener: (topics: ReadonlySet<ChangeTopic>) => void): () => void;
  /**
   * Looks for commits made elsewhere now (SQLite: one data_version read, done before poll returns), so a
   * request sent after such a commit finished sees it. Settles once the listeners have heard of them: a
   * database server cannot be asked synchronously, so a caller that must see the commit waits for it.
   */
  poll(): Promise<void>;
  /** poll(), at most once per event-loop batch of requests (see the SQLite implementation). */
  beginRequest(): void;
  /**
   * Whether every change of a key's auth row reaches the listeners, balances included. An embedded store's
   * are (one process serves the data, and announces its charges); a shared database announces admin changes
   * but not other instances' charges (one NOTIFY per charge would serialise every commit), so a copy of a
   * balance must not be kept there: the key lookup reads the row on every request instead.
   */
  readonly announcesBalances: boolean;
}

// ---- the store ----------------------------------------------------------------------------------------

export interface Store extends MoneyPath, IntegrityCheckStore {
  /** Where the data lives, for messages (a file path, a server URL without credentials). */
  readonly location: string;
  readonly accounts: AccountsStore;
  readonly keys: KeysStore;
  readonly settings: SettingsStore;
  readonly quotes: QuotesStore;
  readonly notifications: NotificationsStore;
  readonly carrierHealth: CarrierHealthStore;
  readonly rateCards: RateCardsStore;
  readonly locationCache: LocationCacheStore;
  /** Carriers' pickup-point directories per town (#21). */
  readonly pointDirectories: PointDirectoriesStore;
  readonly pickupCatalogue: PickupCatalogueStore;
  readonly users: UsersStore;
  readonly warehouses: WarehousesStore;
  /** Resale rules (#21). */
  readonly pricing: PricingStore;
  readonly audit: AuditStore;
  readonly changes: ChangeFeed;
  /** Shared carrier state where instances share the data; absent where one process serves it. */
  readonly carrierCoordination?: CarrierCoordinationStore;
  /** From here on the store serves requests: writes that meet a busy store retry briefly, then fail. */
  startServing(): void;
  /** Writes whatever is queued and closes; further calls fail. */
  close(): Promise<void>;
}

/**
 * The pause a writer in another process (the admin CLI) leaves between the chunks of a long import: longer
 * than a serving store's retry period, so the service's writes get in between two chunks.
 */
export const CHUNK_YIELD_MS = 25;

/** A write refused because it would duplicate a unique name. */
export class StoreConflictError extends Error {
  override readonly name = 'StoreConflictError';
}

/**
 * The store could not take the write within its bound (another process held the data file, the database was
 * unreachable): nothing of the write happened. /v1 answers 503 with Retry-After, the desk "busy, try again".
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';

  constructor(
    readonly waitedMs: number,
    detail = 'the data file is busy: another process held its write lock',
  ) {
    super(`${detail} for ${Math.round(waitedMs)} ms`);
  }
}
