// The one place a rates call is paid for. It runs inside the group-commit transaction, so the debit, its
// ledger row, the idempotency record, the history row and a low-balance notification are one atomic write.
import type { Store } from '../store';
import type { NewQuote } from '../store/quotes';
import { crossesThreshold, thresholdRequests } from '../contract/low-balance';

export interface ChargeInput {
  accountId: number;
  requestId: string;
  now: Date;
  /** Builds the exact response body once the new balance is known. */
  body: (balanceRemaining: number) => string;
  idempotency?: { key: string; fingerprint: string; createdAtMs: number };
  history?: (body: string) => NewQuote;
}

export type ChargeResult =
  | { ok: true; body: string; balance: number; lowBalance?: LowBalanceEvent }
  | { ok: false; reason: 'insufficient_balance' };

export interface LowBalanceEvent {
  accountId: number;
  accountName: string;
  threshold: number;
  balance: number;
  at: string;
}

export function chargeInTx(store: Store, input: ChargeInput): ChargeResult {
  const at = input.now.toISOString();
  const balance = store.accounts.debitInTx(input.accountId, input.requestId, at);
  if (balance === undefined) return { ok: false, reason: 'insufficient_balance' };
  const body = input.body(balance);
  if (input.idempotency) {
    store.idempotency.insertInTx({
      account_id: input.accountId,
      idem_key: input.idempotency.key,
      fingerprint: input.idempotency.fingerprint,
      status: 200,
      body,
      request_id: input.requestId,
      created_at_ms: input.idempotency.createdAtMs,
    });
  }
  if (input.history) store.quotes.insert(input.history(body));
  const account = store.accounts.byId(input.accountId)!;
  const threshold = thresholdRequests(account);
  if (threshold !== null && crossesThreshold(balance + 1, balance, threshold)) {
    store.notifications.insertInTx(input.accountId, threshold, balance, at);
    return {
      ok: true,
      body,
      balance,
      lowBalance: { accountId: account.id, accountName: account.name, threshold, balance, at },
    };
  }
  return { ok: true, body, balance };
}
