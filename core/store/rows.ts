// The rows the store answers with: what each table family holds, as the core reads it. Declared apart from
// the port's methods (port.ts), which re-exports them, so either file reads in one sitting.
import type { Tier } from '../contract/limits';
import type { Threshold } from '../contract/low-balance';
import type { CarrierStatus, DeliveryType } from '../contract/v1';

export interface AccountRow {
  id: number;
  name: string;
  tier: Tier;
  balance: number;
  last_package: number | null;
  threshold: Threshold;
  created_at: string;
  override_rps: number | null;
  override_burst: number | null;
}

/** An account whose balance differs from the sum of its ledger (the ledger invariant; must never exist). */
export interface LedgerMismatch {
  id: number;
  name: string;
  balance: number;
  ledger_sum: number;
}

export interface KeyRow {
  id: string;
  account_id: number;
  account_name: string;
  name: string;
  digest: string;
  prefix: string;
  last_four: string;
  origin: 'created' | 'imported';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** What the listener needs on every request, in one lookup (so admin changes apply at once). */
export interface KeyAuthRow {
  key_id: string;
  digest: string;
  revoked_at: string | null;
  last_used_at: string | null;
  account_id: number;
  tier: Tier;
  balance: number;
  override_rps: number | null;
  override_burst: number | null;
}

export type NewKey = Omit<KeyRow, 'account_name'>;

/** A key of an export document, by account name (keys:import of a document). */
export type ImportedKey = Omit<NewKey, 'account_id' | 'id'> & { account: string };

export interface IdempotencyRecord {
  account_id: number;
  idem_key: string;
  fingerprint: string;
  status: number;
  body: string;
  request_id: string;
  created_at_ms: number;
}

export interface QuoteRow {
  id: number;
  request_id: string;
  source: 'desk' | 'api';
  created_at: string;
  from_city: string;
  to_city: string;
  weight_grams: number;
  cheapest_kopecks: number | null;
  carriers: string;
  sandbox: 0 | 1;
  shipment_json: string;
  result_json: string;
  /** Who asked (#20): a desk user's name; null for this computer's desk and for /v1. */
  author: string | null;
  /** The warehouse's name when it was asked; null when none was picked. */
  warehouse: string | null;
}

export type NewQuote = Omit<QuoteRow, 'id'>;

// ---- company desks (#20) ----

export type UserRole = 'clerk' | 'admin';

export interface UserRow {
  id: number;
  name: string;
  role: UserRole;
  disabled: boolean;
  created_at: string;
  /** Devices enrolled and not revoked. */
  devices: number;
}

export interface DeviceRow {
  id: string;
  user_id: number;
  user_name: string;
  name: string;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}

/** What a desk call is authenticated as: only an active device of an enabled user has one. */
export interface DeviceAuthRow {
  device_id: string;
  device_name: string;
  user_id: number;
  user_name: string;
  role: UserRole;
}

export interface NewDevice {
  id: string;
  /** SHA-256 hex of the device token; the token itself is never stored. */
  token_digest: string;
  name: string;
}

export type RedeemResult =
  | { ok: true; user: UserRow; device: DeviceRow }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' | 'disabled' };

export interface WarehouseRow {
  id: number;
  name: string;
  city: string;
  postal_code: string | null;
  address: string;
  /** JSON array of carrier codes. */
  default_carriers_json: string;
  /** JSON array of box presets. */
  box_presets_json: string;
  created_at: string;
  updated_at: string;
}

export type NewWarehouse = Omit<WarehouseRow, 'id' | 'created_at' | 'updated_at'>;

export interface AuditRow {
  id: number;
  at: string;
  actor_kind: 'user' | 'desk' | 'cli';
  actor: string;
  action: string;
  target: string;
  /** JSON object of the change (never a secret's value). */
  detail_json: string;
}

export type NewAudit = Omit<AuditRow, 'id'>;

export interface AuditQuery {
  actor?: string;
  /** An operation name (`keys:create`) or its area (`keys`). */
  action?: string;
  /** Inclusive ISO bounds on `at` (a date alone means that whole day for `to`). */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export interface QuoteFilter {
  /** Exact author / warehouse name. */
  author?: string;
  warehouse?: string;
}

export interface NotificationRow {
  id: number;
  account_id: number;
  account_name: string;
  kind: 'low_balance';
  threshold: number;
  balance: number;
  created_at: string;
}

export interface CarrierHealthRow {
  code: string;
  status: CarrierStatus;
  consecutive_failures: number;
  last_error: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  latency_ms_median: number | null;
}

export interface RateCardRecord {
  id: number;
  code: string;
  name: string;
  volumetric_divisor: number;
  created_at: string;
}

export interface RateCardSummary extends RateCardRecord {
  rows: number;
  max_weight_grams: number;
}

export interface RateCardServiceRow {
  key: string;
  service_name: string | null;
  delivery_type: DeliveryType;
}

export interface ChunkOptions {
  /** Called between two transactions, so a process waiting for the write lock gets it (the admin CLI sleeps). */
  pause?: () => void;
  chunkRows?: number;
}

/** What the check found: nothing, or the first problem in the implementation's own words. */
export type IntegrityReport = { ok: true } | { ok: false; problem: string };
