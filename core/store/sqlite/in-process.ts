// The money path's state that lives in the serving process in the embedded store: balance holds and in-flight
// idempotency claims. One process serves a data folder (core/util/folder-lock.ts), and a crash leaves nothing
// charged to undo, so neither needs a row; a shared store keeps both in its database instead.
import type { ClaimResult, IdempotencyClaim, IdempotencyRecord, ReserveResult } from '../port';

interface Claim {
  fingerprint: string;
  expiresAtMs: number;
}

export class InProcessHolds {
  /** Requests being rated per account, not yet charged: the balance they will need is held back. */
  private readonly reservations = new Map<number, number>();
  private readonly claims = new Map<string, Claim>();

  /** `balance`: the account's balance read in the same synchronous step, so parallel calls cannot overdraw. */
  reserve(accountId: number, balance: number, maxInFlight: number): ReserveResult {
    const held = this.reservations.get(accountId) ?? 0;
    if (balance - held < 1) return { ok: false, reason: 'insufficient_balance' };
    if (held >= maxInFlight) return { ok: false, reason: 'too_many_in_flight' };
    this.reservations.set(accountId, held + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        const left = (this.reservations.get(accountId) ?? 1) - 1;
        if (left > 0) this.reservations.set(accountId, left);
        else this.reservations.delete(accountId);
        return Promise.resolve();
      },
    };
  }

  /** `record`: the key's completed record, if any, read in the same synchronous step. */
  claim(claim: IdempotencyClaim, record: IdempotencyRecord | undefined): ClaimResult {
    if (record && record.created_at_ms > claim.nowMs - claim.retentionMs) {
      return record.fingerprint === claim.fingerprint ? { state: 'done', record } : { state: 'mismatch' };
    }
    const id = `${claim.accountId}\u0000${claim.key}`;
    const running = this.claims.get(id);
    if (running && running.expiresAtMs > claim.nowMs) {
      return running.fingerprint === claim.fingerprint ? { state: 'in_flight' } : { state: 'mismatch' };
    }
    const mine: Claim = { fingerprint: claim.fingerprint, expiresAtMs: claim.nowMs + claim.leaseMs };
    this.claims.set(id, mine);
    return {
      state: 'claimed',
      release: () => {
        // A lease taken over after it expired belongs to its new holder now.
        if (this.claims.get(id) === mine) this.claims.delete(id);
        return Promise.resolve();
      },
    };
  }
}
