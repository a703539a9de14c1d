// The connection pool and how its errors reach the core. Counts and ids are bigint columns, which pg returns
// as strings by default; here they parse as numbers (every value the store keeps is below 2^53).
import pg from 'pg';
import { StoreBusyError } from '../port';

const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export interface PoolOptions {
  /** Connections of this instance for durable writes and reads (default 16): charges wait for one. */
  max?: number;
  /** Connections for the writes a crash of the database may lose (default 8): see PgDb.relaxed. */
  relaxedMax?: number;
  /** How long a statement may wait for a connection before the store says busy (default 5 s). */
  connectMs?: number;
}

export function createPool(url: string, options: PoolOptions = {}, relaxed = false): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: relaxed ? (options.relaxedMax ?? 8) : (options.max ?? 16),
    connectionTimeoutMillis: options.connectMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: relaxed ? 'ratedesk-relaxed' : 'ratedesk',
    // Its commits do not wait for the WAL flush (PostgreSQL's asynchronous commit): still atomic and in
    // order, but the last few hundred milliseconds of them may be lost if the database server crashes.
    ...(relaxed ? { options: '-c synchronous_commit=off' } : {}),
    types,
  });
  // An idle connection the server closed (a restart, a failover) is dropped by the pool; it must not crash us.
  pool.on('error', () => {});
  return pool;
}

/** The URL without its password, for messages and logs. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** SQLSTATE classes that mean "not now" rather than "wrong": connection loss, shutdown, lock/statement timeouts. */
const UNAVAILABLE = /^(08|57P0|53)/;

/** A statement that could not reach the database surfaces as the port's StoreBusyError. */
export function asStoreError(error: unknown, startedMs: number): unknown {
  if (error instanceof StoreBusyError) return error;
  const e = error as { code?: string; message?: string };
  const code = typeof e.code === 'string' ? e.code : '';
  const lost =
    UNAVAILABLE.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code) ||
    /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error/i.test(
      e.message ?? '',
    );
  return lost
    ? new StoreBusyError(performance.now() - startedMs, 'the company database did not answer')
    : error;
}

export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** Statements on the pool, with errors mapped (asStoreError); `tx` runs fn in one transaction on one connection. */
export class PgDb {
  /**
   * `relaxed`: a pool whose commits do not wait for the disk, for writes that a crash of the database server
   * may lose without harm, because they only restate what expires or refills anyway: a balance hold and its
   * release (a lost hold means a request was not held, and its charge is conditional anyway; a lost release
   * is reaped after the lease), a bucket, a key's last use, carrier health and the location cache. Charges,
   * claims and everything an admin writes stay on the durable pool.
   */
  constructor(
    readonly pool: pg.Pool,
    readonly relaxed: pg.Pool = pool,
  ) {}

  /** Like rows(), on the relaxed pool. */
  async relaxedRows<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    name?: string,
  ): Promise<R[]> {
    const started = performance.now();
    try {
      return (await this.relaxed.query<R>({ text, values, ...(name ? { name } : {}) })).rows;
    } catch (error) {
      throw asStoreError(error, started);
    }
  }

  async end(): Promise<void> {
    await this.pool.end();
    if (this.relaxed !== this.pool) await this.relaxed.end();
  }

  async rows<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<R[]> {
    const started = performance.now();
    try {
      return (await this.pool.query<R>({ text, values, ...(name ? { name } : {}) })).rows;
    } catch (error) {
      throw asStoreError(error, started);
    }
  }

  async first<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    name?: string,
  ): Promise<R | undefined> {
    return (await this.rows<R>(text, values, name))[0];
  }

  /** READ COMMITTED; rolled back when fn throws. */
  async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const started = performance.now();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw asStoreError(error, started);
    }
    let broken = false;
    // A connection lost between two statements emits 'error' on the checked-out client: without a listener
    // that would end the process; the statement in progress rejects and the transaction is rolled back.
    const lost = (): void => {
      broken = true;
    };
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      const value = await fn(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw asStoreError(error, started);
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }
}
