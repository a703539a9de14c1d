// Resale prices (#21): an admin's rules per account (or the desk) and carrier (or all carriers); every quote
// reads its owner's rules fresh (core/service.ts), so a change holds from the next quote on, on every instance.
import { CARRIER_CODES } from '../carriers/types';
import type { PricingRuleView } from '../contract/operations';
import type { PricingRule } from '../contract/pricing';
import type { Store } from '../store/port';
import { requireAccount } from './accounts';
import { storeCall, type AreaOperations } from './define';
import { OperationError } from './errors';

/** `desk` or the account's name, and the carrier or `*`: how the CLI, the audit log and messages name a rule. */
export function ruleLabel(account: string | null, carrier: string | null): string {
  return `${account ?? 'desk'} / ${carrier ?? '*'}`;
}

function view(rule: PricingRule, names: ReadonlyMap<number, string>): PricingRuleView {
  return { account: rule.account_id === null ? null : (names.get(rule.account_id) ?? null), ...rule };
}

async function ownerId(store: Store, account: string | null): Promise<number | null> {
  return account === null ? null : (await requireAccount(store, account)).id;
}

/** A rule for a carrier that quotes nothing (a typo, a removed rate card) would silently never apply. */
async function requireCarrier(store: Store, carrier: string | null): Promise<void> {
  if (carrier === null) return;
  const known = new Set<string>([...CARRIER_CODES, ...(await store.rateCards.list()).map((c) => c.code)]);
  if (!known.has(carrier))
    throw new OperationError(
      'invalid',
      `carrier: unknown carrier ${JSON.stringify(carrier)}. Known: ${[...known].join(', ')}.`,
    );
}

type PricingOperation = 'pricing:list' | 'pricing:set' | 'pricing:remove';

export const pricingOperations = {
  'pricing:list': {
    needs: 'store',
    run: async ({ store }) => {
      const [rules, accounts] = await Promise.all([store.pricing.list(), store.accounts.list()]);
      const names = new Map(accounts.map((a) => [a.id, a.name]));
      return rules.map((r) => view(r, names));
    },
  },

  'pricing:set': {
    needs: 'store',
    run: async ({ store }, { account, carrier, ...terms }) => {
      const accountId = await ownerId(store, account);
      await requireCarrier(store, carrier);
      const replaced = (await store.pricing.forAccount(accountId)).some((r) => r.carrier === carrier);
      const rule = await store.pricing.upsert({ account_id: accountId, carrier, ...terms });
      return { ...rule, account, replaced };
    },
  },

  'pricing:remove': {
    needs: 'store',
    run: async ({ store }, { account, carrier }) => {
      const accountId = await ownerId(store, account);
      const rule = (await store.pricing.forAccount(accountId)).find((r) => r.carrier === carrier);
      if (!rule || !(await store.pricing.remove(accountId, carrier)))
        throw new OperationError(
          'not_found',
          `No resale rule for ${ruleLabel(account, carrier)}. See "pricing list".`,
        );
      return { ...rule, account };
    },
  },
} satisfies AreaOperations<PricingOperation>;

export const setPricingRule = storeCall('pricing:set', pricingOperations['pricing:set']);
