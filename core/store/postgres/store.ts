// The company store: the port on PostgreSQL for N `serve` instances on one database (#19). Nothing that must
// be exact lives in this process: holds, claims and buckets are rows (money.ts), and what other instances
// change is seen through the change generations (change-feed.ts). Own writes are announced once they
// commit, before the caller hears back, as the embedded store does.
import type pg from 'pg';
import type { SecretStore } from '../../settings/secrets';
import type {
  AccountsStore,
  AuditStore,
  BucketLimits,
  CarrierCoordinationStore,
  CarrierHealthStore,
  ChangeTopic,
  ChargeInput,
  ChargeResult,
  ClaimResult,
  IdempotencyClaim,
  IntegrityReport,
  KeysStore,
  LocationCacheStore,
  NotificationsStore,
  PickupCatalogueStore,
  PointDirectoriesStore,
  PricingStore,
  QuotesStore,
  RateCardsStore,
  ReserveResult,
  Store,
  TakeResult,
  UsersStore,
  WarehousesStore,
} from '../port';
import { AUTH_LOOKUP, pgAccounts, pgKeys, type AuthLookupRow } from './accounts';
import { pgAudit } from './audit';
import { PgChangeFeed } from './change-feed';
import { pgCarrierCoordination } from './coordination';
import type { DeskFigures, DeskImport } from '../desk-copy';
import { deskFigures, importDesk } from './import-desk';
import { pgCarrierHealth, pgNotifications, pgQuotes } from './history';
import { PgMoneyPath, type MoneyOptions } from './money';
import { pgLocationCache, pgPickupCatalogue } from './places';
import { pgPointDirectories } from './point-directories';
import { PgDb } from './pool';
import { pgPricing } from './pricing';
import { pgRateCards } from './rate-cards';
import { PgSettings } from './settings';
import { pgUsers } from './users';
import { pgWarehouses } from './warehouses';

export interface PgStoreOptions extends MoneyOptions {
  /** The pool for writes a crash of the database may lose (pool.ts, PgDb.relaxed); the main one otherwise. */
  relaxedPool?: pg.Pool;
  secrets?: SecretStore;
  /** How often expired holds of crashed instances are looked for while serving (default 5 s). */
  reapEveryMs?: number;
}

const topics = (...names: ChangeTopic[]): ReadonlySet<ChangeTopic> => new Set(names);
const ACCOUNTS = topics('accounts');
const KEYS = topics('keys');
const KEYS_AND_ACCOUNTS = topics('keys', 'accounts');
const SETTINGS = topics('settings');
const RATE_CARDS = topics('rate_cards');

export class PgStore implements Store {
  readonly location: string;
  readonly changes: PgChangeFeed;
  readonly accounts: AccountsStore;
  readonly keys: KeysStore;
  readonly settings: PgSettings;
  readonly quotes: QuotesStore;
  readonly notifications: NotificationsStore;
  readonly carrierHealth: CarrierHealthStore;
  readonly rateCards: RateCardsStore;
  readonly locationCache: LocationCacheStore;
  readonly pickupCatalogue: PickupCatalogueStore;
  readonly pointDirectories: PointDirectoriesStore;
  readonly carrierCoordination: CarrierCoordinationStore;
  readonly users: UsersStore;
  readonly warehouses: WarehousesStore;
  readonly audit: AuditStore;
  readonly pricing: PricingStore;
  /** Statements on the pool, for this implementation's own tests: not part of the port. */
  readonly db: PgDb;

  private readonly money: PgMoneyPath;
  private readonly reapEveryMs: number;
  private reaper: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;

  constructor(pool: pg.Pool, url: string, location: string, options: PgStoreOptions = {}) {
    this.db = new PgDb(pool, options.relaxedPool);
    this.location = location;
    this.reapEveryMs = options.reapEveryMs ?? 5_000;
    this.money = new PgMoneyPath(this.db, options);
    this.settings = new PgSettings(this.db, options.secrets, () => this.changes.wrote(SETTINGS));
    this.changes = new PgChangeFeed(this.db, url, async (changed) => {
      if (changed.has('settings')) await this.settings.reload();
    });

    const announce =
      <A extends unknown[], T>(changed: ReadonlySet<ChangeTopic>, fn: (...args: A) => Promise<T>) =>
      async (...args: A): Promise<T> => {
        const value = await fn(...args);
        this.changes.wrote(changed);
        return value;
      };

    const accounts = pgAccounts(this.db);
    this.accounts = {
      ...accounts,
      create: announce(ACCOUNTS, accounts.create),
      seedIfEmpty: announce(ACCOUNTS, accounts.seedIfEmpty),
      topup: announce(ACCOUNTS, accounts.topup),
      setThreshold: announce(ACCOUNTS, accounts.setThreshold),
      setLimits: announce(ACCOUNTS, accounts.setLimits),
      clearLimits: announce(ACCOUNTS, accounts.clearLimits),
    };
    const keys = pgKeys(this.db);
    this.keys = {
      ...keys,
      insert: announce(KEYS, keys.insert),
      importChunk: announce(KEYS_AND_ACCOUNTS, keys.importChunk),
      revoke: announce(KEYS, keys.revoke),
      authLookup: (digest) => this.authLookup(digest),
    };
    this.quotes = pgQuotes(this.db);
    this.notifications = pgNotifications(this.db);
    this.carrierHealth = pgCarrierHealth(this.db);
    const cards = pgRateCards(this.db);
    this.rateCards = {
      ...cards,
      replace: announce(RATE_CARDS, cards.replace),
      remove: announce(RATE_CARDS, cards.remove),
    };
    this.locationCache = pgLocationCache(this.db);
    this.pickupCatalogue = pgPickupCatalogue(this.db);
    this.pointDirectories = pgPointDirectories(this.db);
    this.carrierCoordination = pgCarrierCoordination(this.db, options.secrets);
    this.users = pgUsers(this.db);
    this.warehouses = pgWarehouses(this.db);
    this.audit = pgAudit(this.db);
    this.pricing = pgPricing(this.db);
  }

  /** Reads the first settings copy and generations; before anything uses the store. */
  async start(): Promise<void> {
    await this.settings.reload();
    await this.changes.start();
  }

  /** The key's row, read on every request (no copy: see ChangeFeed.announcesBalances), with the generations. */
  private async authLookup(digest: string) {
    const row = await this.db.first<AuthLookupRow>(AUTH_LOOKUP, [digest], 'auth_lookup');
    await this.changes.observed(row!.generations);
    if (!row || row.key_id === null) return undefined;
    const { generations: _generations, ...auth } = row;
    return auth as Awaited<ReturnType<KeysStore['authLookup']>>;
  }

  // ---- the money path ----

  reserve(accountId: number, maxInFlight: number): Promise<ReserveResult> {
    return this.money.reserve(accountId, maxInFlight);
  }

  claimIdempotency(claim: IdempotencyClaim): Promise<ClaimResult> {
    return this.money.claimIdempotency(claim);
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const result = await this.money.charge(input);
    if (result.ok) this.changes.wrote(ACCOUNTS);
    return result;
  }

  /** On the database clock: `nowMs` of one instance means nothing to another. */
  takeToken(bucket: string, limits: BucketLimits): Promise<TakeResult> {
    return this.money.takeToken(bucket, limits);
  }

  purgeIdempotencyBefore(ms: number): Promise<number> {
    return this.money.purgeIdempotencyBefore(ms);
  }

  /** Gives back expired holds (crashed instances'); the service's reaper calls it, and tests. */
  reapExpiredHolds(): Promise<number> {
    return this.money.reapExpiredHolds();
  }

  /**
   * PostgreSQL guards its own pages (and checksums them where the cluster enables it); what is asked here is
   * that the database answers and that the schema this build migrated is in place.
   */
  async integrityCheck(): Promise<IntegrityReport> {
    try {
      await this.db.rows('SELECT 1 FROM change_generations LIMIT 1');
      return { ok: true };
    } catch (error) {
      return { ok: false, problem: (error as Error).message };
    }
  }

  /** An empty database filled with a desk's rows in one transaction (import-desk.ts; admin migrate-to). */
  importDesk(input: DeskImport): Promise<DeskFigures> {
    return importDesk(this.db, this.location, input);
  }

  /** Rows per table the copy writes, and every account's balance and ledger sum, as committed now. */
  deskFigures(): Promise<DeskFigures> {
    return deskFigures(this.db.pool);
  }

  // ---- life cycle ----

  startServing(): void {
    this.changes.listen();
    if (this.reaper) return;
    this.reaper = setInterval(() => {
      void this.reapExpiredHolds().catch(() => {
        // The database is away for a moment: the next round reaps.
      });
    }, this.reapEveryMs);
    this.reaper.unref();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.reaper) clearInterval(this.reaper);
      await this.changes.close();
      await this.db.end();
    })();
    return this.closing;
  }
}
