// The integrity check's slice of the store: whether the data file itself is sound, asked once before serving
// (research/reliability.md §7 rule 9; the ledger's own invariant is the accounts repo's).
import type { Db } from './open';

/** What the check found: nothing, or the first problem in the implementation's own words. */
export type IntegrityReport = { ok: true } | { ok: false; problem: string };

export interface IntegrityCheckStore {
  /**
   * Checks the data file's structure (SQLite: PRAGMA quick_check, which reads the whole file). Run once at
   * start, before the service answers anything: off the hot path, so an asynchronous port (#18 item 1) may
   * return a Promise here.
   */
  integrityCheck(): IntegrityReport;
}

export function integrityCheckOf(db: Db): IntegrityCheckStore {
  return {
    integrityCheck() {
      const check = db.pragma('quick_check', { simple: true });
      return check === 'ok' ? { ok: true } : { ok: false, problem: String(check) };
    },
  };
}
