// Resale rules in the data file (#21): one row per owner (an account, or the desk: NULL) and carrier (NULL:
// the owner's rule for every other carrier). Rows are PricingRule's fields as they are.
import type { PricingRule } from '../../contract/pricing';
import type { PricingStore } from '../port';
import type { Db } from './open';
import type { SqliteRunner } from './runner';

const COLUMNS =
  'account_id, carrier, markup_percent, markup_kopecks, packaging_kopecks, min_kopecks, max_kopecks, rounding';
// The desk's rules first, then by account; within an owner the rule for every carrier first.
const ORDER = 'ORDER BY account_id IS NOT NULL, account_id, carrier IS NOT NULL, carrier';
const OWNER =
  "COALESCE(account_id, 0) = COALESCE(@account_id, 0) AND COALESCE(carrier, '') = COALESCE(@carrier, '')";

type Owner = { account_id: number | null; carrier: string | null };

export function pricingRepo(db: Db) {
  const all = db.prepare<[], PricingRule>(`SELECT ${COLUMNS} FROM pricing_rules ${ORDER}`);
  const forAccount = db.prepare<{ account_id: number | null }, PricingRule>(
    `SELECT ${COLUMNS} FROM pricing_rules WHERE COALESCE(account_id, 0) = COALESCE(@account_id, 0) ${ORDER}`,
  );
  const one = db.prepare<Owner, PricingRule>(`SELECT ${COLUMNS} FROM pricing_rules WHERE ${OWNER}`);
  const remove = db.prepare<Owner>(`DELETE FROM pricing_rules WHERE ${OWNER}`);
  const insert = db.prepare<PricingRule>(`
    INSERT INTO pricing_rules (${COLUMNS})
    VALUES (@account_id, @carrier, @markup_percent, @markup_kopecks, @packaging_kopecks, @min_kopecks,
            @max_kopecks, @rounding)`);

  return {
    list: (): PricingRule[] => all.all(),
    forAccount: (accountId: number | null): PricingRule[] => forAccount.all({ account_id: accountId }),
    /** Inside a write transaction: the old row out and the new one in together. */
    upsert(rule: PricingRule): PricingRule {
      const owner = { account_id: rule.account_id, carrier: rule.carrier };
      remove.run(owner);
      insert.run(rule);
      return one.get(owner)!;
    },
    remove: (accountId: number | null, carrier: string | null): boolean =>
      remove.run({ account_id: accountId, carrier }).changes > 0,
  };
}

export type PricingRepo = ReturnType<typeof pricingRepo>;

export function sqlitePricing(r: PricingRepo, run: SqliteRunner): PricingStore {
  return {
    list: () => run.read(() => r.list()),
    forAccount: (accountId) => run.read(() => r.forAccount(accountId)),
    upsert: (rule) => run.write(null, () => r.upsert(rule)),
    remove: (accountId, carrier) => run.write(null, () => r.remove(accountId, carrier)),
  };
}
