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
import type { KeyInsertResult, KeyRow, NewKey, Store } from '../store/port';
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

function duplicateMessage(existing: KeyRow): string {
  return `This key is already stored as ${existing.id} (${JSON.stringify(existing.name)}, account ${JSON.stringify(existing.account_name)}).`;
}

/**
 * Stores a key; the store refuses, inside the same write, a digest already stored and an active key of the
 * account with the same name.
 */
async function insertKey(store: Store, account: { name: string }, key: NewKey): Promise<KeyRow> {
  const result: KeyInsertResult = await store.keys.insert(key, sameKeyName);
  if (result.ok) return result.row;
  if (result.reason === 'digest_taken')
    throw new OperationError('conflict', duplicateMessage(result.existing!));
  if (result.reason === 'name_taken') {
    const taken = result.existing!;
    throw new OperationError('conflict', keyNameTakenMessage(taken.name, account.name, taken.id));
  }
  throw new OperationError(
    'not_found',
    `No account named ${JSON.stringify(account.name)}. See "accounts list".`,
  );
}

/** Stores a key issued elsewhere (or a RateDesk key from another machine) so that it authenticates here. */
async function importSecret(
  store: Store,
  clock: WallClock,
  account: string,
  name: string,
  raw: string,
): Promise<KeyView> {
  const secret = checkSecret(raw);
  const digest = digestKey(secret);
  const { prefix, lastFour } = maskKey(secret);
  const acc = await requireAccount(store, account);
  const row = await insertKey(store, acc, {
    id: newKeyId(),
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
  return view(row);
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
async function importDocument(
  store: Store,
  clock: WallClock,
  text: string,
  chunking: { pause?: () => Promise<void> },
): Promise<KeyImportResult> {
  const parsed = ExportDocument.safeParse(parseDocument(text));
  if (!parsed.success) throw new OperationError('invalid', describeIssues(parsed.error));
  const now = clock.now().toISOString();
  const result: KeyImportResult = { imported: 0, skipped: 0, accounts_created: [], key: null };
  const keys = parsed.data.keys;
  for (let start = 0; start < keys.length; start += KEY_IMPORT_CHUNK) {
    if (start > 0) await chunking.pause?.();
    const chunk = await store.keys.importChunk(
      keys
        .slice(start, start + KEY_IMPORT_CHUNK)
        .map((key) => ({ account: key.account, ...pickKeyFields(key) })),
      newKeyId,
      now,
    );
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
    run: async ({ store }, input) => {
      const accountId =
        input?.account === undefined ? undefined : (await requireAccount(store, input.account)).id;
      return (await store.keys.list(accountId)).map(view);
    },
  },

  'keys:create': {
    needs: 'store',
    run: async ({ store, clock }, { account, name }) => {
      const secret = generateKey();
      const { prefix, lastFour } = maskKey(secret);
      const id = newKeyId();
      const createdAt = clock.now().toISOString();
      const acc = await requireAccount(store, account);
      await insertKey(store, acc, {
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
      return { id, name, account, secret, prefix, last_four: lastFour, created_at: createdAt };
    },
  },

  'keys:import': {
    needs: 'store',
    run: async (ctx, input) => {
      const { store, clock } = ctx;
      if ('document' in input) return importDocument(store, clock, input.document, pauseBetweenChunks(ctx));
      const key = await importSecret(store, clock, input.account, input.name, input.secret);
      return { imported: 1, skipped: 0, accounts_created: [], key };
    },
  },

  /**
   * Immediate (the listener drops its cached rows on any change) and permanent. Revoking a revoked key
   * succeeds with already_revoked: true: a retried or double-clicked revoke must not look like a failure.
   */
  'keys:revoke': {
    needs: 'store',
    run: async ({ store, clock }, { id }) => {
      const outcome = await store.keys.revoke(id, clock.now().toISOString());
      const row = outcome === 'missing' ? undefined : await store.keys.byId(id);
      if (!row) throw new OperationError('not_found', `No key with id ${id}. See "keys list".`);
      return { ...view(row), already_revoked: outcome === 'already' };
    },
  },

  /** Every key (revoked ones too, so they stay revoked after a move), without any secret: only digests. */
  'keys:export': {
    needs: 'store',
    run: async ({ store, clock }, input) => {
      const accountId =
        input?.account === undefined ? undefined : (await requireAccount(store, input.account)).id;
      const rows = await store.keys.list(accountId);
      const document: ExportDocument = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exported_at: clock.now().toISOString(),
        keys: rows.map((k) => ({
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
