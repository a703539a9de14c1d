import type { ChangeWatch } from '../store/change-watch';
import type { KeyAuthRow, KeysRepo } from '../store/keys';

export interface CachedKey {
  row: KeyAuthRow;
  /** last_used_at as epoch milliseconds (0 when never used), parsed once per load rather than per request. */
  lastUsedMs: number;
}

/**
 * The listener's copy of the key/account/override row for each key in use. The SQLite lookup it saves was the
 * largest cost of GET /v1/balance (docs/benchmarks.md). The whole copy is dropped as soon as the data file may
 * have changed (ChangeWatch), so a revocation, top-up or limit change by the admin CLI, the desk or a charge
 * applies to the very next request. Only rows that exist are kept, so it never holds more entries than the
 * keys table has; it holds digests (as stored in the file), never secrets.
 */
export class KeyCache {
  private readonly rows = new Map<string, CachedKey>();
  private generation = -1;

  constructor(
    private readonly keys: KeysRepo,
    private readonly watch: ChangeWatch,
  ) {}

  /** The cached row, or undefined when it must be read from the file (see load). */
  cached(digest: string): CachedKey | undefined {
    const generation = this.watch.generation();
    if (generation !== this.generation) {
      this.rows.clear();
      this.generation = generation;
    }
    return this.rows.get(digest);
  }

  /** Reads the row from the file and keeps it until the next change. */
  load(digest: string): CachedKey | undefined {
    const row = this.keys.authLookup(digest);
    if (!row) return undefined;
    const entry = { row, lastUsedMs: row.last_used_at ? Date.parse(row.last_used_at) : 0 };
    this.rows.set(digest, entry);
    return entry;
  }
}
