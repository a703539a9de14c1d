// The resale rules' slice of the store (#21): one row per (account or the desk, carrier or all carriers).
// No change feed topic: the quote path reads an account's rules with every quote (core/service.ts), so a
// change made anywhere (another instance, the admin CLI) holds from the next quote on, with nothing to drop.
import type { PricingRule } from '../contract/pricing';

export interface PricingStore {
  /** Every rule, the desk's first, then by account id and carrier (null, the account's default, first). */
  list(): Promise<PricingRule[]>;
  /** The rules of one account (null: the desk's own quotes), its default rule included. */
  forAccount(accountId: number | null): Promise<PricingRule[]>;
  /**
   * Sets the rule of (account_id, carrier), replacing the one there; the rule as stored. The account must
   * exist (the operation checks): the store refuses a rule for a missing one (a foreign key).
   */
  upsert(rule: PricingRule): Promise<PricingRule>;
  /** Removes the rule of (account_id, carrier); false when there was none. */
  remove(accountId: number | null, carrier: string | null): Promise<boolean>;
}
