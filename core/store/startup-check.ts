// Asked once before a service answers anything: a data file that is damaged, or whose balances do not add up
// to their ledger, is refused rather than served (research/reliability.md §7 rule 9).
import type { Store } from './port';

/** Refuses to serve a damaged file or a ledger that does not add up (research/reliability.md §7 rule 9). */
export async function refuseDamaged(store: Store): Promise<void> {
  const check = await store.integrityCheck();
  if (!check.ok) throw new Error(`The data file failed SQLite's integrity check: ${check.problem}`);
  const bad = await store.accounts.invariantViolations();
  if (bad.length > 0) {
    const list = bad.map((b) => `${b.name}: balance ${b.balance} ≠ ledger ${b.ledger_sum}`).join('; ');
    throw new Error(`Balance does not match the ledger (${list}). Refusing to start.`);
  }
}
