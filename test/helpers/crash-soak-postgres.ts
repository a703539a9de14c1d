// The crash soak's ledger oracle on a company database: what killed `serve` instances left in PostgreSQL,
// read with a plain `pg` client of its own (not core/store/postgres, whose bugs it is there to catch), in one
// REPEATABLE READ transaction so that every figure is one consistent state. Same shape as the SQLite
// snapshot (crash-soak.ts), plus what only a shared database has: balance holds and idempotency claims left
// by an instance that died, which must be given back once their leases run out.
import pg from 'pg';
import { idemId, type AccountSnap, type ChargeRow, type IdemRow, type Snapshot } from './crash-soak';

export interface PgSnapshot extends Snapshot {
  /** accounts.held by account name (balance reserved by requests in flight, or by dead instances' holds). */
  held: Map<string, number>;
  /** Hold rows by account name. */
  holds: Map<string, number>;
  /**
   * Claims in flight (status NULL) by `${accountId}\u0000${key}`: a request running, or a dead instance's claim
   * until its lease runs out; the value is lease_until_ms (on the serving instance's wall clock).
   */
  claims: Map<string, number>;
}

interface Row {
  [column: string]: unknown;
}

/** bigint columns arrive as strings from pg; every figure here is far below 2^53. */
const num = (v: unknown): number => Number(v);

export async function snapshotPg(url: string): Promise<PgSnapshot> {
  const client = new pg.Client({ connectionString: url, application_name: 'crash-soak oracle' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const q = async (sql: string): Promise<Row[]> => (await client.query<Row>(sql)).rows;
    const accounts = new Map<string, AccountSnap>();
    const held = new Map<string, number>();
    const holds = new Map<string, number>();
    for (const a of await q(
      `SELECT a.id, a.name, a.balance, a.held, (SELECT count(*) FROM holds h WHERE h.account_id = a.id) AS holds
       FROM accounts a ORDER BY a.id`,
    )) {
      const id = num(a.id);
      const name = String(a.name);
      accounts.set(name, { id, name, balance: num(a.balance), ledgerSum: 0, credited: 0, charges: 0 });
      held.set(name, num(a.held));
      holds.set(name, num(a.holds));
    }
    const byId = new Map([...accounts.values()].map((a) => [a.id, a]));
    const charges: ChargeRow[] = [];
    const chargeByRequestId = new Map<string, ChargeRow>();
    for (const r of await q('SELECT id, account_id, delta, kind, request_id FROM ledger ORDER BY id')) {
      const acc = byId.get(num(r.account_id));
      if (!acc) continue;
      const delta = num(r.delta);
      acc.ledgerSum += delta;
      if (r.kind !== 'rates') {
        acc.credited += delta;
        continue;
      }
      acc.charges += 1;
      const requestId = r.request_id === null ? null : String(r.request_id);
      const row: ChargeRow = {
        ledgerId: num(r.id),
        accountId: acc.id,
        delta,
        requestId,
        balanceAfter: acc.ledgerSum,
      };
      charges.push(row);
      if (requestId !== null) chargeByRequestId.set(requestId, row);
    }
    const idempotency = new Map<string, IdemRow>();
    const claims = new Map<string, number>();
    for (const r of await q(
      'SELECT account_id, idem_key, status, body, request_id, lease_until_ms FROM idempotency',
    )) {
      const id = idemId(num(r.account_id), String(r.idem_key));
      if (r.status === null) {
        claims.set(id, num(r.lease_until_ms));
        continue;
      }
      idempotency.set(id, {
        accountId: num(r.account_id),
        key: String(r.idem_key),
        status: num(r.status),
        body: String(r.body),
        requestId: String(r.request_id),
      });
    }
    await client.query('COMMIT');
    // PostgreSQL guards its own pages; what this schema adds and could get wrong is accounts.held, the count
    // of the account's hold rows, kept by the same statements that insert and delete them.
    const wrong = [...held].filter(([name, n]) => holds.get(name) !== n);
    const integrity =
      wrong.length === 0
        ? 'ok'
        : wrong.map(([name, n]) => `${name}: held ${n} ≠ ${holds.get(name)} hold rows`).join('; ');
    return { integrity, accounts, charges, chargeByRequestId, idempotency, held, holds, claims };
  } finally {
    await client.end();
  }
}
