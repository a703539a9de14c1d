// Whether the data file itself is sound, asked once before serving (research/reliability.md §7 rule 9; the
// ledger's own invariant is the accounts repo's). PRAGMA quick_check reads the whole file.
import type { IntegrityReport } from '../port';
import type { Db } from './open';

export function quickCheck(db: Db): IntegrityReport {
  const check = db.pragma('quick_check', { simple: true });
  return check === 'ok' ? { ok: true } : { ok: false, problem: String(check) };
}
