// The money path on the company database, exact across N instances with no state only one process holds
// (research/company-and-clerk.md §3.3–3.4):
//  - a hold is a row plus accounts.held, taken by one conditional UPDATE (balance - held ≥ 1, held < bound);
//    a crashed instance's holds expire and whichever instance reaps first gives them back (SKIP LOCKED);
//  - an idempotency claim is a row with a holder and a lease on the caller's clock (as the embedded store's);
//    in flight on one instance is in flight on all, a completed key replays the stored bytes on any;
//  - the charge is one transaction after the carriers answered (no transaction or connection is held while
//    they are asked): the key's row locked first, so a request whose lease was taken over meets the other's
//    completed record and is not debited twice; then the conditional debit with its ledger row, the stored
//    reply, the history row and a low-balance notice;
//  - the token bucket is one UPDATE on the database clock, so a bucket is one bucket for every instance.
// Every statement here touches one account's rows (and the bucket's) only.
import { randomUUID } from 'node:crypto';
import { crossesThreshold, thresholdRequests, type Threshold } from '../../contract/low-balance';
import { takeResult } from '../../limits/token-bucket';
import type {
  BucketLimits,
  ChargeInput,
  ChargeResult,
  ClaimResult,
  IdempotencyClaim,
  IdempotencyRecord,
  ReserveResult,
  TakeResult,
} from '../port';
import { insertQuote } from './history';
import type { PgDb } from './pool';

export interface MoneyOptions {
  /** How long a hold lives unless released: longer than any rates call runs (default 2 min). */
  holdLeaseMs?: number;
}

const RESERVE = `
  WITH a AS (
    UPDATE accounts SET held = held + 1 WHERE id = $1 AND balance - held >= 1 AND held < $2 RETURNING id)
  INSERT INTO holds (id, account_id, expires_at)
  SELECT $3, id, clock_timestamp() + make_interval(secs => $4::float8 / 1000) FROM a
  RETURNING id`;

const RELEASE = `
  WITH d AS (DELETE FROM holds WHERE id = $1 RETURNING account_id)
  UPDATE accounts SET held = held - 1 WHERE id = (SELECT account_id FROM d)`;

/** One account's expired holds, given back in one statement; the account id, or no row when none is left. */
const REAP = `
  WITH victim AS (
    SELECT account_id FROM holds WHERE expires_at < clock_timestamp()
    ORDER BY expires_at LIMIT 1 FOR UPDATE SKIP LOCKED),
  gone AS (
    DELETE FROM holds h USING victim v
    WHERE h.account_id = v.account_id AND h.expires_at < clock_timestamp() RETURNING h.account_id)
  UPDATE accounts SET held = held - (SELECT count(*) FROM gone)
  WHERE id = (SELECT account_id FROM victim) RETURNING id`;

const CLAIM = `
  INSERT INTO idempotency AS i (account_id, idem_key, fingerprint, holder, lease_until_ms)
  VALUES ($1, $2, $3, $4, $5::bigint + $6::bigint)
  ON CONFLICT (account_id, idem_key) DO UPDATE
    SET fingerprint = excluded.fingerprint, holder = excluded.holder, lease_until_ms = excluded.lease_until_ms,
        status = NULL, body = NULL, request_id = NULL, created_at_ms = NULL
    WHERE (i.status IS NULL AND i.lease_until_ms <= $5::bigint)
       OR (i.status IS NOT NULL AND i.created_at_ms <= $5::bigint - $7::bigint)
  RETURNING holder`;

const KEY_ROW = `
  SELECT account_id, idem_key, fingerprint, status, body, request_id, created_at_ms, lease_until_ms
  FROM idempotency WHERE account_id = $1 AND idem_key = $2`;

const DEBIT = `
  WITH d AS (
    UPDATE accounts SET balance = balance - 1 WHERE id = $1 AND balance >= 1
    RETURNING id, name, balance, threshold, last_package),
  l AS (
    INSERT INTO ledger (account_id, delta, kind, request_id, note, created_at)
    SELECT id, -1, 'rates', $2, NULL, $3 FROM d)
  SELECT * FROM d`;

const STORE_REPLY = `
  INSERT INTO idempotency (account_id, idem_key, fingerprint, status, body, request_id, created_at_ms)
  VALUES ($1, $2, $3, 200, $4, $5, $6)
  ON CONFLICT (account_id, idem_key) DO UPDATE SET
    fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
    request_id = excluded.request_id, created_at_ms = excluded.created_at_ms, holder = NULL, lease_until_ms = NULL`;

/** allowed: the bucket refilled (on the database clock) to at least one token, which this take used. */
const REFILLED = `LEAST($3::float8, b.tokens + $2::float8 * GREATEST(0, EXTRACT(EPOCH FROM excluded.at - b.at)))`;
const TAKE = `
  INSERT INTO buckets AS b (name, tokens, allowed, at) VALUES ($1, $3::float8 - 1, true, clock_timestamp())
  ON CONFLICT (name) DO UPDATE SET
    allowed = ${REFILLED} >= 1 - 1e-9,
    tokens = CASE WHEN ${REFILLED} >= 1 - 1e-9 THEN GREATEST(0, ${REFILLED} - 1) ELSE ${REFILLED} END,
    at = GREATEST(b.at, excluded.at)
  RETURNING tokens, allowed`;

interface KeyRowState extends IdempotencyRecord {
  status: number;
  lease_until_ms: number | null;
}

/** A hold this instance took: its row's id, and its release once one was made (by release() or a charge). */
interface HoldState {
  id: string;
  released: Promise<void> | null;
}

export class PgMoneyPath {
  private readonly holdLeaseMs: number;
  /** The holds reserve() handed out, for charge() to give back in its own transaction. */
  private readonly holds = new WeakMap<object, HoldState>();

  constructor(
    private readonly db: PgDb,
    options: MoneyOptions = {},
  ) {
    this.holdLeaseMs = options.holdLeaseMs ?? 120_000;
  }

  async reserve(accountId: number, maxInFlight: number): Promise<ReserveResult> {
    const id = randomUUID();
    const taken = await this.db.relaxedRows(
      RESERVE,
      [accountId, maxInFlight, id, this.holdLeaseMs],
      'reserve',
    );
    if (taken.length === 0) {
      const free = await this.db.first<{ free: number }>(
        'SELECT balance - held AS free FROM accounts WHERE id = $1',
        [accountId],
      );
      return {
        ok: false,
        reason: free === undefined || free.free < 1 ? 'insufficient_balance' : 'too_many_in_flight',
      };
    }
    const state: HoldState = { id, released: null };
    const hold = {
      ok: true as const,
      release: () =>
        (state.released ??= this.db.relaxedRows(RELEASE, [id], 'release_hold').then(() => undefined)),
    };
    this.holds.set(hold, state);
    return hold;
  }

  /** Gives back the expired holds of crashed instances; how many accounts had some. */
  async reapExpiredHolds(maxAccounts = 100): Promise<number> {
    let accounts = 0;
    while (accounts < maxAccounts && (await this.db.relaxedRows(REAP)).length > 0) accounts++;
    return accounts;
  }

  async claimIdempotency(claim: IdempotencyClaim): Promise<ClaimResult> {
    const { accountId, key, fingerprint, nowMs, retentionMs, leaseMs } = claim;
    // A row that changes between the two statements (released, completed, expired) is looked at again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const holder = randomUUID();
      const won = await this.db.rows(
        CLAIM,
        [accountId, key, fingerprint, holder, nowMs, leaseMs, retentionMs],
        'claim',
      );
      if (won.length > 0) {
        let released: Promise<void> | null = null;
        return {
          state: 'claimed',
          release: () =>
            (released ??= this.db
              .rows(
                'DELETE FROM idempotency WHERE account_id = $1 AND idem_key = $2 AND holder = $3 AND status IS NULL',
                [accountId, key, holder],
                'release_claim',
              )
              .then(() => undefined)),
        };
      }
      const row = await this.db.first<KeyRowState>(KEY_ROW, [accountId, key], 'key_row');
      if (!row) continue;
      if (row.status !== null) {
        if (row.created_at_ms <= nowMs - retentionMs) continue;
        return row.fingerprint === fingerprint
          ? { state: 'done', record: recordOf(row) }
          : { state: 'mismatch' };
      }
      if (row.lease_until_ms !== null && row.lease_until_ms <= nowMs) continue;
      return row.fingerprint === fingerprint ? { state: 'in_flight' } : { state: 'mismatch' };
    }
    // The key kept changing under us: to the caller it is in flight (409, retry shortly).
    return { state: 'in_flight' };
  }

  charge(input: ChargeInput): Promise<ChargeResult> {
    const hold = input.hold && this.holds.get(input.hold);
    let gaveBack = false;
    return this.db
      .tx(async (c): Promise<ChargeResult> => {
        const idem = input.idempotency;
        if (idem) {
          // Locked first: a request whose lease another took over waits here for the other's completion.
          const row = (
            await c.query<KeyRowState>({
              name: 'lock_key',
              text: `${KEY_ROW} FOR UPDATE`,
              values: [input.accountId, idem.key],
            })
          ).rows[0];
          if (
            idem.notBeforeMs !== undefined &&
            row &&
            row.status !== null &&
            row.created_at_ms > idem.notBeforeMs
          )
            return { ok: false, reason: 'already_done', record: recordOf(row) };
        }
        if (input.signal?.aborted) return { ok: false, reason: 'client_gone' };
        // The hold goes with the debit: released after the commit instead, it would leave a moment in which
        // another request saw the charged request both debited and held, and was refused the balance left.
        // Before the debit, so that this transaction locks the hold's row before the account's, as the
        // reaper does (a hold that expired meanwhile is being reaped): the other order deadlocks with it.
        if (hold && hold.released === null) {
          await c.query({ name: 'release_hold', text: RELEASE, values: [hold.id] });
          gaveBack = true;
        }
        const at = input.now.toISOString();
        const debited = (
          await c.query<{
            id: number;
            name: string;
            balance: number;
            threshold: Threshold;
            last_package: number | null;
          }>({
            name: 'debit',
            text: DEBIT,
            values: [input.accountId, input.requestId, at],
          })
        ).rows[0];
        if (!debited) return { ok: false, reason: 'insufficient_balance' };
        const balance = debited.balance;
        const body = input.body(balance);
        if (idem) {
          await c.query({
            name: 'store_reply',
            text: STORE_REPLY,
            values: [input.accountId, idem.key, idem.fingerprint, body, input.requestId, idem.createdAtMs],
          });
        }
        if (input.history) await insertQuote(c, input.history(body));
        const threshold = thresholdRequests(debited);
        let lowBalance: Extract<ChargeResult, { ok: true }>['lowBalance'];
        if (threshold !== null && crossesThreshold(balance + 1, balance, threshold)) {
          await c.query(
            `INSERT INTO notifications (account_id, kind, threshold, balance, created_at) VALUES ($1, 'low_balance', $2, $3, $4)`,
            [input.accountId, threshold, balance, at],
          );
          lowBalance = { accountId: debited.id, accountName: debited.name, threshold, balance, at };
        }
        // The last moment the client can still be spared: an abort now rolls the whole charge back.
        if (input.signal?.aborted) throw new ClientGone();
        return lowBalance ? { ok: true, body, balance, lowBalance } : { ok: true, body, balance };
      })
      .then((result) => {
        // Committed: the request's release() has nothing left to do.
        if (gaveBack && hold) hold.released ??= Promise.resolve();
        return result;
      })
      .catch((error: unknown) => {
        if (error instanceof ClientGone) return { ok: false, reason: 'client_gone' } as const;
        throw error;
      });
  }

  async takeToken(bucket: string, limits: BucketLimits): Promise<TakeResult> {
    const [row] = await this.db.relaxedRows<{ tokens: number; allowed: boolean }>(
      TAKE,
      [bucket, limits.rps, limits.burst],
      'take_token',
    );
    return takeResult(row!.allowed, row!.tokens, limits);
  }

  async purgeIdempotencyBefore(ms: number): Promise<number> {
    const gone = await this.db.rows(
      `DELETE FROM idempotency
       WHERE (status IS NOT NULL AND created_at_ms < $1) OR (status IS NULL AND lease_until_ms < $1)
       RETURNING 1`,
      [ms],
    );
    return gone.length;
  }
}

class ClientGone extends Error {}

function recordOf(row: KeyRowState): IdempotencyRecord {
  return {
    account_id: row.account_id,
    idem_key: row.idem_key,
    fingerprint: row.fingerprint,
    status: row.status,
    body: row.body,
    request_id: row.request_id,
    created_at_ms: row.created_at_ms,
  };
}
