// API key operations. The secret exists in memory only while it is created or imported; the store keeps
// its SHA-256 digest, a masked prefix and the last four characters (reliability.md §3 rules 4–5).
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  ExportDocument,
  keyNameTakenMessage,
  sameKeyName,
  type ExportedKey,
  type KeyImportResult,
  type KeyView,
} from '../contract/operations';
import { randomBase62 } from '../keys/base62';
import {
  FOREIGN_KEY_PATTERN,
  digestKey,
  generateKey,
  hasValidChecksum,
  isRatedeskKeyShape,
  maskKey,
} from '../keys/format';
import type { Store } from '../store';
import type { KeyRow } from '../store/keys';
import { requireAccount } from './accounts';
import { pauseBetweenChunks, type WallClock } from './context';
import { storeCall, type AreaOperations } from './define';
import { describeIssues, OperationError } from './errors';

function view(row: KeyRow): KeyView {
  return {
    id: row.id,
    name: row.name,
    account: row.account_name,
    prefix: row.prefix,
    last_four: row.last_four,
    origin: row.origin,
    state: row.revoked_at === null ? 'active' : 'revoked',
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

function newKeyId(): string {
  return `key_${randomBase62(12)}`;
}

/** Format checks for a secret given by a person; the messages describe the problem, never the value. */
function checkSecret(raw: string): string {
  const secret = raw.trim();
  if (isRatedeskKeyShape(secret)) {
    if (!hasValidChecksum(secret)) {
      throw new OperationError(
        'invalid',
        'This looks like a RateDesk key (rdk_…) but its checksum does not match: it was mistyped or truncated.',
      );
    }
    return secret;
  }
  if (!FOREIGN_KEY_PATTERN.test(secret)) {
    throw new OperationError('invalid', 'A key must be 20 to 200 printable ASCII characters without spaces.');
  }
  return secret;
}

/** Inside the transaction that inserts: an active key of the account already called `name` is a conflict. */
function refuseTakenName(store: Store, account: { id: number; name: string }, name: string): void {
  const taken = store.keys.list(account.id).find((k) => k.revoked_at === null && sameKeyName(k.name, name));
  if (taken) throw new OperationError('conflict', keyNameTakenMessage(taken.name, account.name, taken.id));
}

function duplicateMessage(existing: KeyRow): string {
  return `This key is already stored as ${existing.id} (${JSON.stringify(existing.name)}, account ${JSON.stringify(existing.account_name)}).`;
}

/** Stores a key issued elsewhere (or a RateDesk key from another machine) so that it authenticates here. */
function importSecret(store: Store, clock: WallClock, account: string, name: string, raw: string): KeyView {
  const secret = checkSecret(raw);
  const digest = digestKey(secret);
  const { prefix, lastFour } = maskKey(secret);
  return store.tx(() => {
    const acc = requireAccount(store, account);
    const existing = store.keys.byDigest(digest);
    if (existing) throw new OperationError('conflict', duplicateMessage(existing));
    refuseTakenName(store, acc, name);
    const id = newKeyId();
    store.keys.insert({
      id,
      account_id: acc.id,
      name,
      digest,
      prefix,
      last_four: lastFour,
      origin: 'imported',
      created_at: clock.now().toISOString(),
      last_used_at: null,
      revoked_at: null,
    });
    return view(store.keys.byId(id)!);
  });
}

function parseDocument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new OperationError('invalid', 'This is not a RateDesk key export file (it is not JSON).');
  }
}

/** Keys per transaction of an import: a few milliseconds of the write lock each (docs/reliability.md). */
export const KEY_IMPORT_CHUNK = 2_000;

/**
 * Loads an export document: the whole document is checked before anything is written, then its keys are
 * written in transactions of KEY_IMPORT_CHUNK, so another process's write waits for one chunk at most, not
 * for 100,000 keys (#16 item 4). Each key arrives whole (revoked ones revoked). A digest already present is
 * skipped, so an import cut short (a crash, a busy file) is completed by importing the same file again. A
 * missing account is created with balance 0: keys move between machines, balances do not, so an import can
 * never mint requests.
 */
function importDocument(
  store: Store,
  clock: WallClock,
  text: string,
  chunking: { pause?: () => void },
): KeyImportResult {
  const parsed = ExportDocument.safeParse(parseDocument(text));
  if (!parsed.success) throw new OperationError('invalid', describeIssues(parsed.error));
  const now = clock.now().toISOString();
  const result: KeyImportResult = { imported: 0, skipped: 0, accounts_created: [], key: null };
  const keys = parsed.data.keys;
  for (let start = 0; start < keys.length; start += KEY_IMPORT_CHUNK) {
    if (start > 0) chunking.pause?.();
    const chunk = store.tx(() => {
      const done: KeyImportResult = { imported: 0, skipped: 0, accounts_created: [], key: null };
      for (const key of keys.slice(start, start + KEY_IMPORT_CHUNK)) {
        if (store.keys.byDigest(key.digest)) {
          done.skipped++;
          continue;
        }
        let acc = store.accounts.byName(key.account);
        if (!acc) {
          acc = store.accounts.create(key.account, 0, now);
          done.accounts_created.push(key.account);
        }
        store.keys.insert({ id: newKeyId(), account_id: acc.id, ...pickKeyFields(key) });
        done.imported++;
      }
      return done;
    });
    result.imported += chunk.imported;
    result.skipped += chunk.skipped;
    result.accounts_created.push(...chunk.accounts_created);
  }
  return result;
}

function pickKeyFields(key: ExportedKey) {
  return {
    name: key.name,
    digest: key.digest,
    prefix: key.prefix,
    last_four: key.last_four,
    origin: key.origin,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
    revoked_at: key.revoked_at,
  };
}

type KeyOperation = 'keys:list' | 'keys:create' | 'keys:import' | 'keys:revoke' | 'keys:export';

export const keyOperations = {
  'keys:list': {
    needs: 'store',
    run: ({ store }, input) => {
      const accountId = input?.account === undefined ? undefined : requireAccount(store, input.account).id;
      return store.keys.list(accountId).map(view);
    },
  },

  'keys:create': {
    needs: 'store',
    run: ({ store, clock }, { account, name }) => {
      const secret = generateKey();
      const { prefix, lastFour } = maskKey(secret);
      const id = newKeyId();
      const createdAt = clock.now().toISOString();
      store.tx(() => {
        const acc = requireAccount(store, account);
        refuseTakenName(store, acc, name);
        store.keys.insert({
          id,
          account_id: acc.id,
          name,
          digest: digestKey(secret),
          prefix,
          last_four: lastFour,
          origin: 'created',
          created_at: createdAt,
          last_used_at: null,
          revoked_at: null,
        });
      });
      return { id, name, account, secret, prefix, last_four: lastFour, created_at: createdAt };
    },
  },

  'keys:import': {
    needs: 'store',
    run: (ctx, input) => {
      const { store, clock } = ctx;
      if ('document' in input) return importDocument(store, clock, input.document, pauseBetweenChunks(ctx));
      const key = importSecret(store, clock, input.account, input.name, input.secret);
      return { imported: 1, skipped: 0, accounts_created: [], key };
    },
  },

  /**
   * Immediate (the listener drops its cached rows on any change) and permanent. Revoking a revoked key
   * succeeds with already_revoked: true: a retried or double-clicked revoke must not look like a failure.
   */
  'keys:revoke': {
    needs: 'store',
    run: ({ store, clock }, { id }) =>
      store.tx(() => {
        if (!store.keys.byId(id))
          throw new OperationError('not_found', `No key with id ${id}. See "keys list".`);
        const changed = store.keys.revoke(id, clock.now().toISOString());
        return { ...view(store.keys.byId(id)!), already_revoked: !changed };
      }),
  },

  /** Every key (revoked ones too, so they stay revoked after a move), without any secret: only digests. */
  'keys:export': {
    needs: 'store',
    run: ({ store, clock }, input) => {
      const accountId = input?.account === undefined ? undefined : requireAccount(store, input.account).id;
      const document: ExportDocument = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exported_at: clock.now().toISOString(),
        keys: store.keys.list(accountId).map((k) => ({
          name: k.name,
          account: k.account_name,
          digest: k.digest,
          prefix: k.prefix,
          last_four: k.last_four,
          created_at: k.created_at,
          last_used_at: k.last_used_at,
          revoked_at: k.revoked_at,
          origin: k.origin,
        })),
      };
      const scope = input?.account ?? 'all';
      return {
        filename: `ratedesk-keys-${scope}-${document.exported_at.slice(0, 10)}.json`,
        json: `${JSON.stringify(document, null, 2)}\n`,
      };
    },
  },
} satisfies AreaOperations<KeyOperation>;

const ops = keyOperations;
export const listKeys = storeCall('keys:list', ops['keys:list']);
export const createKey = storeCall('keys:create', ops['keys:create']);
export const importKey = storeCall('keys:import', ops['keys:import']);
export const revokeKey = storeCall('keys:revoke', ops['keys:revoke']);
export const exportKeys = storeCall('keys:export', ops['keys:export']);
