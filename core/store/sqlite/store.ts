// The embedded store: one SQLite file (better-sqlite3, synchronous) behind the asynchronous port. It keeps
// the design the desk and `serve` were measured with: money-path writes share group-commit transactions
// (commit-queue.ts), reservations, in-flight idempotency claims and token buckets live in this process (one
// process serves a data folder: core/service.ts holds its lock), and a write that meets another process's
// lock retries off the event loop up to a bound (busy.ts).
import { TokenBuckets } from '../../limits/token-bucket';
import type { SecretStore } from '../../settings/secrets';
import {
  CHUNK_YIELD_MS,
  StoreBusyError,
  StoreConflictError,
  type AccountsStore,
  type CarrierHealthRow,
  type CarrierHealthStore,
  type ChangeTopic,
  type ChargeInput,
  type ChargeResult,
  type ClaimResult,
  type IdempotencyClaim,
  type IntegrityReport,
  type KeysStore,
  type LocationCacheStore,
  type NotificationsStore,
  type PickupCatalogueStore,
  type PointDirectoriesStore,
  type QuotesStore,
  type RateCardsStore,
  type ReserveResult,
  type SettingsStore,
  type Store,
  type TakeResult,
  type BucketLimits,
  type AuditStore,
  type UsersStore,
  type WarehousesStore,
  type PricingStore,
} from '../port';
import { sqliteAudit } from './audit';
import { isBusyError, retryWhileBusy, sleepSync, useServingBusyTimeout } from './busy';
import { SqliteChangeFeed } from './change-feed';
import { chargeInTx } from './charge';
import { InProcessHolds } from './in-process';
import { GroupCommitter } from './commit-queue';
import { quickCheck } from './integrity';
import type { Db } from './open';
import { sqliteKeys } from './keys';
import { sqliteRepos, type SqliteRepos } from './repos';
import type { SqliteRunner } from './runner';
import { sqliteUsers } from './users';
import { sqliteWarehouses } from './warehouses';
import { sqlitePricing } from './pricing';

export interface SqliteStoreOptions {
  secrets?: SecretStore;
  /** `false` commits every charge on its own (one fsync each): the benchmark's comparison point. */
  groupCommit?: boolean;
}

const topics = (...names: ChangeTopic[]): ReadonlySet<ChangeTopic> => new Set(names);
const ACCOUNTS = topics('accounts');
const SETTINGS = topics('settings');
const RATE_CARDS = topics('rate_cards');

export class SqliteStore implements Store {
  /** The connection, for this implementation's own tests and fixtures: not part of the port. */
  readonly db: Db;
  /** The synchronous repositories, for the same (and for opening a data folder before anything serves). */
  readonly repos: SqliteRepos;
  readonly location: string;
  readonly changes: SqliteChangeFeed;
  readonly accounts: AccountsStore;
  readonly keys: KeysStore;
  readonly settings: SettingsStore;
  readonly quotes: QuotesStore;
  readonly notifications: NotificationsStore;
  readonly carrierHealth: CarrierHealthStore;
  readonly rateCards: RateCardsStore;
  readonly locationCache: LocationCacheStore;
  readonly pickupCatalogue: PickupCatalogueStore;
  readonly pointDirectories: PointDirectoriesStore;
  readonly users: UsersStore;
  readonly warehouses: WarehousesStore;
  readonly audit: AuditStore;
  readonly pricing: PricingStore;

  private readonly committer: GroupCommitter;
  private serving = false;
  private settingsCache: ReadonlyMap<string, string> | null = null;
  private readonly holds = new InProcessHolds();
  private readonly buckets = new TokenBuckets();
  /** Carrier health rows waiting for the group commit because the file was busy, by carrier code. */
  private readonly healthQueued = new Map<string, CarrierHealthRow>();

  constructor(db: Db, path: string, options: SqliteStoreOptions = {}) {
    this.db = db;
    this.location = path;
    this.repos = sqliteRepos(db, options.secrets);
    this.changes = new SqliteChangeFeed(db);
    this.committer = new GroupCommitter(db, { grouping: options.groupCommit ?? true });
    this.changes.subscribe((changed) => {
      if (changed.has('settings')) this.settingsCache = null;
    });
    const r = this.repos;
    const runner: SqliteRunner = {
      read: (fn) => this.read(fn),
      write: (changed, fn) => this.write(changed, fn),
      grouped: (changed, fn) => this.grouped(changed, fn),
    };

    this.accounts = {
      create: (name, balance, now, threshold) =>
        this.write(ACCOUNTS, () => {
          if (r.accounts.byName(name)) throw new StoreConflictError(`account ${JSON.stringify(name)} exists`);
          return r.accounts.create(name, balance, now, threshold);
        }),
      seedIfEmpty: (name, balance, now) =>
        this.write(ACCOUNTS, () => this.seedIfEmptySync(name, balance, now)),
      byName: (name) => this.read(() => r.accounts.byName(name)),
      byId: (id) => this.read(() => r.accounts.byId(id)),
      list: () => this.read(() => r.accounts.list()),
      balance: (id) => this.read(() => r.accounts.balance(id)),
      topup: (id, requests, now, note = null) =>
        this.write(ACCOUNTS, () => {
          if (!r.accounts.byId(id)) return undefined;
          r.accounts.topup(id, requests, now, note);
          return r.accounts.byId(id);
        }),
      setThreshold: (id, threshold) =>
        this.write(ACCOUNTS, () => {
          r.accounts.setThreshold(id, threshold);
          return r.accounts.byId(id);
        }),
      setLimits: (id, rps, burst, now) =>
        this.write(ACCOUNTS, () => {
          if (!r.accounts.byId(id)) return undefined;
          r.accounts.setLimits(id, rps, burst, now);
          return r.accounts.byId(id);
        }),
      clearLimits: (id) =>
        this.write(ACCOUNTS, () => {
          r.accounts.clearLimits(id);
          return r.accounts.byId(id);
        }),
      invariantViolations: () => this.read(() => r.accounts.invariantViolations()),
    };

    this.keys = sqliteKeys(r, runner);

    this.settings = {
      get: (name) => this.read(() => r.settings.get(name)),
      all: () => this.read(() => r.settings.all()),
      snapshot: () =>
        busyAsStoreBusy(() => {
          void this.changes.poll();
          this.settingsCache ??= r.settings.all();
          return this.settingsCache;
        }),
      write: (changes, now) =>
        this.write(SETTINGS, () => {
          for (const { name, value } of changes) {
            if (value === null) r.settings.delete(name);
            else r.settings.set(name, value, now);
          }
        }),
      sealPlainSecrets: async (now) => {
        const sealed = await this.write(SETTINGS, () => r.settings.sealPlainSecrets(now));
        // The main file still holds the page with the plain text until a checkpoint copies the sealed one
        // over it: now, not whenever the WAL next fills (runs at start only, before anything is served).
        if (sealed > 0) this.db.pragma('wal_checkpoint(TRUNCATE)');
        return sealed;
      },
    };

    this.quotes = {
      // Through the group commit like the charges (one fsync for a busy moment).
      insert: (quote) => this.grouped(null, () => r.quotes.insert(quote)),
      byId: (id) => this.read(() => r.quotes.byId(id)),
      search: (text, limit, offset, filter) => this.read(() => r.quotes.search(text, limit, offset, filter)),
    };
    this.users = sqliteUsers(r.users, runner);
    this.warehouses = sqliteWarehouses(r.warehouses, runner);
    this.audit = sqliteAudit(r.audit, runner);
    this.pricing = sqlitePricing(r.pricing, runner);

    this.notifications = { list: (limit) => this.read(() => r.notifications.list(limit)) };

    this.carrierHealth = {
      all: () => this.read(() => r.carrierHealth.all()),
      upsert: (row) => {
        try {
          r.carrierHealth.upsert(row);
          // A row queued earlier for this carrier is older than this one: it must not follow it.
          this.healthQueued.delete(row.code);
          return Promise.resolve();
        } catch (error) {
          if (!isBusyError(error)) return Promise.reject(error);
          // A busy file must not fail the carrier call that changed the status: the carrier's latest row goes
          // with the next group commit instead (one write per carrier, whatever changed meanwhile).
          const queued = this.healthQueued.has(row.code);
          this.healthQueued.set(row.code, row);
          if (queued) return Promise.resolve();
          return this.grouped(null, () => {
            const latest = this.healthQueued.get(row.code);
            this.healthQueued.delete(row.code);
            if (latest) r.carrierHealth.upsert(latest);
          });
        }
      },
    };

    this.rateCards = {
      versions: () => this.read(() => r.rateCards.versions()),
      byCode: (code) => this.read(() => r.rateCards.byCode(code)),
      list: () => this.read(() => r.rateCards.list()),
      services: (id) => this.read(() => r.rateCards.services(id)),
      load: (id) => this.read(() => r.rateCards.load(id)),
      replace: (card, rows, options = {}) =>
        // Not one transaction: the repository writes a chunk per transaction and publishes in a small last one.
        this.run(RATE_CARDS, () => r.rateCards.replace(card, rows, this.chunking(options))),
      remove: (code, options = {}) =>
        this.run(RATE_CARDS, () => r.rateCards.remove(code, this.chunking(options))),
      // A chunk per group commit, so a busy file delays the purge instead of stalling the event loop.
      purgeAbandoned: async () => {
        for (const id of await this.read(() => r.rateCards.abandoned()))
          while (await this.grouped(null, () => r.rateCards.purgeChunk(id)));
      },
    };

    // Their writes are tried once: a locked file costs a directory call or a download (tried again later),
    // never a quote its time (the resolver and the catalogue log the failure and go on).
    this.locationCache = {
      get: (namespace, want, key, nowMs) => this.read(() => r.locationCache.get(namespace, want, key, nowMs)),
      put: (entry) => this.once(() => r.locationCache.put(entry)),
      sweepExpired: (nowMs) => this.read(() => r.locationCache.sweepExpired(nowMs)),
    };
    this.pickupCatalogue = {
      meta: (namespace) => this.read(() => r.pickupCatalogue.meta(namespace)),
      byZip: (namespace, zip) => this.read(() => r.pickupCatalogue.byZip(namespace, zip)),
      byCity: (namespace, cityKey) => this.read(() => r.pickupCatalogue.byCity(namespace, cityKey)),
      replace: (namespace, points, nowMs) =>
        this.once(() => r.pickupCatalogue.replace(namespace, points, nowMs)),
    };
    this.pointDirectories = {
      get: (namespace, townKey) => this.read(() => r.pointDirectories.get(namespace, townKey)),
      put: (namespace, townKey, directory) =>
        this.once(() => r.pointDirectories.put(namespace, townKey, directory)),
    };
  }

  // ---- the money path ----

  reserve(accountId: number, maxInFlight: number): Promise<ReserveResult> {
    return this.read(() =>
      this.holds.reserve(accountId, this.repos.accounts.balance(accountId) ?? 0, maxInFlight),
    );
  }

  claimIdempotency(claim: IdempotencyClaim): Promise<ClaimResult> {
    return this.read(() => this.holds.claim(claim, this.repos.idempotency.get(claim.accountId, claim.key)));
  }

  charge(input: ChargeInput): Promise<ChargeResult> {
    return this.committer
      .run(() => chargeInTx(this.repos, input))
      .then((result) => {
        if (result.ok) {
          this.changes.wrote(ACCOUNTS);
          // In-process: given back in the same step as the commit is seen, before any other request runs.
          void input.hold?.release();
        }
        return result;
      });
  }

  takeToken(bucket: string, limits: BucketLimits, nowMs: number): Promise<TakeResult> {
    return Promise.resolve(this.buckets.take(bucket, limits, nowMs));
  }

  purgeIdempotencyBefore(ms: number): Promise<number> {
    return this.grouped(null, () => this.repos.idempotency.purgeOlderThan(ms));
  }

  integrityCheck(): Promise<IntegrityReport> {
    return this.read(() => quickCheck(this.db));
  }

  // ---- life cycle ----

  startServing(): void {
    useServingBusyTimeout(this.db);
    this.serving = true;
  }

  /** Group-commit batches and the operations in them so far (the benchmark's average batch size). */
  commitStats(): { batches: number; ops: number } {
    return this.committer.stats;
  }

  /** The data folder's first account, before anything serves (synchronously, inside one BEGIN IMMEDIATE). */
  seedIfEmptySync(name: string, balance: number, now: string): boolean {
    return this.db
      .transaction(() => {
        if (this.repos.accounts.list().length > 0) return false;
        this.repos.accounts.create(name, balance, now);
        return true;
      })
      .immediate();
  }

  close(): Promise<void> {
    if (this.db.open) {
      this.committer.flush();
      this.db.close();
    }
    return Promise.resolve();
  }

  // ---- how statements run ----

  /** Reads need no transaction of their own: WAL gives each statement a consistent snapshot. */
  private read<T>(fn: () => T): Promise<T> {
    return this.run(null, fn);
  }

  /** Runs fn as one BEGIN IMMEDIATE transaction now (see run). */
  private write<T>(changed: ReadonlySet<ChangeTopic> | null, fn: () => T): Promise<T> {
    return this.run(changed, () => this.db.transaction(fn).immediate());
  }

  /**
   * Runs fn now. Busy while serving: retried off the event loop with back-off up to the bound, then
   * StoreBusyError; SQLite refused the whole transaction, so running it again runs it once. Subscribers hear
   * of `changed` once it committed, before the caller does.
   */
  private run<T>(changed: ReadonlySet<ChangeTopic> | null, fn: () => T): Promise<T> {
    const once = (): T => {
      const value = fn();
      if (changed) this.changes.wrote(changed);
      return value;
    };
    try {
      return Promise.resolve(once());
    } catch (error) {
      if (!isBusyError(error)) return Promise.reject(error);
      if (!this.serving) return Promise.reject(new StoreBusyError(BUSY_TIMEOUT_MS));
      return retryWhileBusy(once);
    }
  }

  /** Runs fn now, without a retry: a busy file rejects at once with StoreBusyError. */
  private once<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(busyAsStoreBusy(fn));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Queued into the next group commit (settles after its COMMIT). */
  private grouped<T>(changed: ReadonlySet<ChangeTopic> | null, fn: () => T): Promise<T> {
    return this.committer.run(fn).then((value) => {
      if (changed) this.changes.wrote(changed);
      return value;
    });
  }

  /** Outside a serving process nothing waits on this connection, so the pause lets another process write. */
  private chunking(options: { pause?: () => void; chunkRows?: number }) {
    if (options.pause || this.serving) return options;
    return { ...options, pause: () => sleepSync(CHUNK_YIELD_MS) };
  }
}

/** SQLite's own busy wait on a connection that does not serve (the admin CLI): open.ts. */
const BUSY_TIMEOUT_MS = 5_000;

/** A read or write that met another process's lock surfaces as the port's StoreBusyError, never raw. */
function busyAsStoreBusy<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isBusyError(error) && !(error instanceof StoreBusyError)) throw new StoreBusyError(0);
    throw error;
  }
}
