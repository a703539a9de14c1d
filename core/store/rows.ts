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
}

export type NewQuote = Omit<QuoteRow, 'id'>;

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
