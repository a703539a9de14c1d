// Resale rules on the company database (#21): one row per owner (an account, or the desk: NULL) and carrier
// (NULL: the owner's rule for every other carrier). An upsert is one statement on the owner's unique index, so
// two instances setting the same rule meet one row, the later write winning. forAccount is named: the quote
// path runs it with every quote.
import type { PricingRule } from '../../contract/pricing';
import type { PricingStore } from '../port';
import type { PgDb } from './pool';

const COLUMNS =
  'account_id, carrier, markup_percent, markup_kopecks, packaging_kopecks, min_kopecks, max_kopecks, rounding';
// The desk's rules first, then by account; within an owner the rule for every carrier first.
const ORDER = 'ORDER BY account_id IS NOT NULL, account_id, carrier IS NOT NULL, carrier';
const OWNER =
  "COALESCE(account_id, 0) = COALESCE($1::integer, 0) AND COALESCE(carrier, '') = COALESCE($2::text, '')";

export function pgPricing(db: PgDb): PricingStore {
  return {
    list: () => db.rows<PricingRule>(`SELECT ${COLUMNS} FROM pricing_rules ${ORDER}`),
    forAccount: (accountId) =>
      db.rows<PricingRule>(
        `SELECT ${COLUMNS} FROM pricing_rules WHERE COALESCE(account_id, 0) = COALESCE($1::integer, 0) ${ORDER}`,
        [accountId],
        'pricing_for_account',
      ),
    async upsert(rule) {
      const row = await db.first<PricingRule>(
        `INSERT INTO pricing_rules (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT ((COALESCE(account_id, 0)), (COALESCE(carrier, ''))) DO UPDATE SET
           markup_percent = EXCLUDED.markup_percent, markup_kopecks = EXCLUDED.markup_kopecks,
           packaging_kopecks = EXCLUDED.packaging_kopecks, min_kopecks = EXCLUDED.min_kopecks,
           max_kopecks = EXCLUDED.max_kopecks, rounding = EXCLUDED.rounding
         RETURNING ${COLUMNS}`,
        [
          rule.account_id,
          rule.carrier,
          rule.markup_percent,
          rule.markup_kopecks,
          rule.packaging_kopecks,
          rule.min_kopecks,
          rule.max_kopecks,
          rule.rounding,
        ],
      );
      return row!;
    },
    async remove(accountId, carrier) {
      const gone = await db.rows(`DELETE FROM pricing_rules WHERE ${OWNER} RETURNING 1`, [
        accountId,
        carrier,
      ]);
      return gone.length > 0;
    },
  };
}
