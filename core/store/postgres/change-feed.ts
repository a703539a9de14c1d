// How an instance hears of what other instances changed. Every statement that changes keys, accounts (not
// balances), limits, settings or rate cards bumps that topic's row in change_generations and sends a NOTIFY, in
// its own transaction (triggers of migration 0001). An instance compares the generations it last saw with:
//  - the ones every key lookup reads in the same statement (store.ts): each /v1 request checks, at no extra
//    round trip, so a change committed before a request was sent is seen by that request on any instance;
//  - a NOTIFY on its LISTEN connection, for instances with no requests (the rate-card set, the settings copy);
//  - poll(), which reads them (once per batch of requests, like the embedded store's data_version).
// NOTIFY alone would not do: a listener that lost its connection misses notifications for good, so after a
// reconnect everything is announced; the generations are the record that survives a lost message.
import pg from 'pg';
import { CHANGE_TOPICS, type ChangeFeed, type ChangeTopic } from '../port';
import type { PgDb } from './pool';

type Listener = (topics: ReadonlySet<ChangeTopic>) => void;
export type Generations = Record<ChangeTopic, number>;

const EVERYTHING: ReadonlySet<ChangeTopic> = new Set(CHANGE_TOPICS);
const GENERATIONS = 'SELECT json_object_agg(topic, generation) AS generations FROM change_generations';
const CHANNEL = 'ratedesk_changes';

export class PgChangeFeed implements ChangeFeed {
  readonly announcesBalances = false;
  private readonly listeners = new Set<Listener>();
  private seen: Generations | null = null;
  /** Settles when the listeners have heard of generations applied so far (applications run in order). */
  private applying: Promise<void> = Promise.resolve();
  private inBatch = false;
  private batchCheck: Promise<void> | null = null;
  private listenClient: pg.Client | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: PgDb,
    private readonly url: string,
    /** Runs before listeners hear that settings changed (the store reloads its settings copy). */
    private readonly beforeAnnounce: (topics: ReadonlySet<ChangeTopic>) => Promise<void>,
  ) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  beginRequest(): void {
    if (this.inBatch) return;
    this.inBatch = true;
    this.batchCheck = null;
    setImmediate(() => {
      this.inBatch = false;
      this.batchCheck = null;
    });
  }

  poll(): Promise<void> {
    if (this.inBatch && this.batchCheck) return this.batchCheck;
    const check = this.db
      .first<{ generations: Generations }>(GENERATIONS, [], 'generations')
      .then((row) => this.apply(row!.generations));
    if (this.inBatch) this.batchCheck = check;
    return check;
  }

  /** A check that read the generations in another statement (the key lookup) counts as this batch's poll. */
  observed(generations: Generations): Promise<void> {
    const applied = this.apply(generations);
    if (this.inBatch) this.batchCheck = applied;
    return applied;
  }

  /** This instance committed a write touching `topics`. */
  wrote(topics: ReadonlySet<ChangeTopic>): void {
    for (const listener of this.listeners) listener(topics);
  }

  /** Announces the topics whose generation moved since the last call. */
  private apply(generations: Generations): Promise<void> {
    const run = async (): Promise<void> => {
      const before = this.seen;
      this.seen = generations;
      if (!before) return;
      const changed = new Set(CHANGE_TOPICS.filter((t) => generations[t] !== before[t]));
      if (changed.size > 0) await this.announce(changed);
    };
    this.applying = this.applying.then(run, run);
    return this.applying;
  }

  private async announce(topics: ReadonlySet<ChangeTopic>): Promise<void> {
    await this.beforeAnnounce(topics);
    this.wrote(topics);
  }

  /** The first generations, read at open: nothing is announced for what was there before. */
  async start(): Promise<void> {
    await this.poll();
  }

  /** A dedicated connection LISTENing for changes; reconnects with back-off and announces everything then. */
  listen(): void {
    if (this.closed || this.listenClient) return;
    const client = new pg.Client({ connectionString: this.url, application_name: 'ratedesk-listen' });
    this.listenClient = client;
    let retried = false;
    const retry = (): void => {
      if (retried) return;
      retried = true;
      this.listenClient = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (this.closed) return;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        this.listen();
      }, 1_000);
      this.reconnectTimer.unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', () => {
      void this.poll().catch(() => {});
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      // Whatever was missed while not listening: every cache starts again from the database.
      .then(() => this.poll())
      .then(() => this.announce(EVERYTHING))
      .catch(retry);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.listenClient;
    this.listenClient = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}
