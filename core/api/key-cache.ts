import type { ChangeFeed, KeyAuthRow, KeysStore } from '../store/port';

export interface CachedKey {
  row: KeyAuthRow;
  /** last_used_at as epoch milliseconds (0 when never used), parsed once per load rather than per request. */
  lastUsedMs: number;
}

/**
 * The listener's copy of the key/account/override row for each key in use. The store lookup it saves was the
 * largest cost of GET /v1/balance (docs/benchmarks.md). The whole copy is dropped as soon as the store's change
 * feed says keys or accounts may have changed, so a revocation, top-up or limit change by the admin CLI, the
 * desk or a charge applies to the very next request. Only rows that exist are kept, so it never holds more
 * entries than the keys table has; it holds digests (as stored), never secrets. On a shared database, whose feed
 * does not announce other instances' charges (ChangeFeed.announcesBalances), it keeps nothing: every request
 * reads its row, so a balance, a revocation or a limit is exact on every instance.
 */
export class KeyCache {
  private readonly rows = new Map<string, CachedKey>();
  /** Bumped on every change: a lookup that started before a change must not store what it read. */
  private generation = 0;

  constructor(
    private readonly keys: Pick<KeysStore, 'authLookup'>,
    private readonly changes: ChangeFeed,
  ) {
    changes.subscribe((topics) => {
      if (topics.has('keys') || topics.has('accounts')) {
        this.rows.clear();
        this.generation++;
      }
    });
  }

  /** The cached row, or undefined when it must be read from the store (see load). */
  cached(digest: string): CachedKey | undefined {
    if (!this.changes.announcesBalances) return undefined;
    // An embedded store's poll is done when it returns (port.ts); nothing to wait for.
    void this.changes.poll();
    return this.rows.get(digest);
  }

  /** Reads the row from the store and keeps it until the next change. */
  async load(digest: string): Promise<CachedKey | undefined> {
    const before = this.generation;
    const row = await this.keys.authLookup(digest);
    if (!row) return undefined;
    const entry = { row, lastUsedMs: row.last_used_at ? Date.parse(row.last_used_at) : 0 };
    if (this.generation === before && this.changes.announcesBalances) this.rows.set(digest, entry);
    return entry;
  }
}
