// The one place a rates call is paid for. It runs inside the group-commit transaction, so the debit, its
// ledger row, the idempotency record, the history row and a low-balance notification are one atomic write.
import { crossesThreshold, thresholdRequests } from '../../contract/low-balance';
import type { ChargeInput, ChargeResult } from '../port';
import type { SqliteRepos } from './repos';

export function chargeInTx(repos: SqliteRepos, input: ChargeInput): ChargeResult {
  // Checked inside the transaction: the commit is the last moment the client can still be spared.
  if (input.signal?.aborted) return { ok: false, reason: 'client_gone' };
  const idem = input.idempotency;
  if (idem?.notBeforeMs !== undefined) {
    const done = repos.idempotency.get(input.accountId, idem.key);
    if (done && done.created_at_ms > idem.notBeforeMs)
      return { ok: false, reason: 'already_done', record: done };
  }
  const at = input.now.toISOString();
  const balance = repos.accounts.debitInTx(input.accountId, input.requestId, at);
  if (balance === undefined) return { ok: false, reason: 'insufficient_balance' };
  const body = input.body(balance);
  if (input.idempotency) {
    repos.idempotency.insertInTx({
      account_id: input.accountId,
      idem_key: input.idempotency.key,
      fingerprint: input.idempotency.fingerprint,
      status: 200,
      body,
      request_id: input.requestId,
      created_at_ms: input.idempotency.createdAtMs,
    });
  }
  if (input.history) repos.quotes.insert(input.history(body));
  const account = repos.accounts.byId(input.accountId)!;
  const threshold = thresholdRequests(account);
  if (threshold !== null && crossesThreshold(balance + 1, balance, threshold)) {
    repos.notifications.insertInTx(input.accountId, threshold, balance, at);
    return {
      ok: true,
      body,
      balance,
      lowBalance: { accountId: account.id, accountName: account.name, threshold, balance, at },
    };
  }
  return { ok: true, body, balance };
}
