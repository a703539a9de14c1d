import type { Db } from './open';
import type { CarrierHealthRow } from '../port';

export function carrierHealthRepo(db: Db) {
  const all = db.prepare<[], CarrierHealthRow>('SELECT * FROM carrier_health ORDER BY code');
  const upsert = db.prepare(`
    INSERT INTO carrier_health (code, status, consecutive_failures, last_error, last_success_at, last_failure_at, latency_ms_median)
    VALUES (@code, @status, @consecutive_failures, @last_error, @last_success_at, @last_failure_at, @latency_ms_median)
    ON CONFLICT (code) DO UPDATE SET status = excluded.status, consecutive_failures = excluded.consecutive_failures,
      last_error = excluded.last_error, last_success_at = excluded.last_success_at,
      last_failure_at = excluded.last_failure_at, latency_ms_median = excluded.latency_ms_median`);
  return {
    all: (): CarrierHealthRow[] => all.all(),
    upsert: (row: CarrierHealthRow): void => void upsert.run(row),
  };
}

export type CarrierHealthRepo = ReturnType<typeof carrierHealthRepo>;
