// Every table family's prepared statements on one connection: the synchronous half of the SQLite store.
import type { SecretStore } from '../../settings/secrets';
import { accountsRepo } from './accounts';
import { auditRepo } from './audit';
import { carrierHealthRepo } from './carrier-health';
import { idempotencyRepo } from './idempotency';
import { keysRepo } from './keys';
import { locationCacheRepo } from './location-cache';
import { notificationsRepo } from './notifications';
import type { Db } from './open';
import { pickupCatalogueRepo } from './pickup-catalogue';
import { pointDirectoriesRepo } from './point-directories';
import { pricingRepo } from './pricing';
import { quotesRepo } from './quotes';
import { rateCardsRepo } from './rate-cards';
import { settingsRepo } from './settings';
import { usersRepo } from './users';
import { warehousesRepo } from './warehouses';

export function sqliteRepos(db: Db, secrets?: SecretStore) {
  return {
    accounts: accountsRepo(db),
    keys: keysRepo(db),
    idempotency: idempotencyRepo(db),
    settings: settingsRepo(db, secrets),
    notifications: notificationsRepo(db),
    quotes: quotesRepo(db),
    carrierHealth: carrierHealthRepo(db),
    rateCards: rateCardsRepo(db),
    locationCache: locationCacheRepo(db),
    pickupCatalogue: pickupCatalogueRepo(db),
    pointDirectories: pointDirectoriesRepo(db),
    users: usersRepo(db),
    warehouses: warehousesRepo(db),
    audit: auditRepo(db),
    pricing: pricingRepo(db),
  };
}

export type SqliteRepos = ReturnType<typeof sqliteRepos>;
