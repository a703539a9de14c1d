// API key operations. The secret exists in memory only while it is created or imported; the store keeps
// its SHA-256 digest, a masked prefix and the last four characters (reliability.md §3 rules 4–5).
import { z } from 'zod';
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
import { AccountName, AccountRef } from './accounts';
import { parseInput, requireAccount, type WallClock } from './common';
import { AdminError } from './errors';

/** Free text for people, but one line: names end up in tables and logs. */
export const KeyName = z
  .string()
  .trim()
  .min(1, 'key name is required')
  .max(64, 'key name must be at most 64 characters')
  .regex(/^[^\p{Cc}]*$/u, 'key name must not contain control characters');

export const KeyId = z
  .string()
  .regex(/^key_[0-9A-Za-z]{12}$/, 'a key id looks like key_ followed by 12 letters or digits');

export const CreateKeyInput = z.strictObject({ account: AccountRef, name: KeyName });
export const ListKeysInput = z.strictObject({ account: AccountRef.optional() }).optional();
export const RevokeKeyInput = z.strictObject({ id: KeyId });
/** The secret is checked by hand (see checkSecret) so that no message can ever quote it. */
export const ImportKeyInput = z.strictObject({
  account: AccountRef,
  name: KeyName,
  secret: z.string().max(10_000, 'a key is at most 200 characters'),
});
export const ExportKeysInput = z.strictObject({ account: AccountRef.optional() }).optional();

const Timestamp = z.iso.datetime({ offset: true });

export const ExportedKey = z.strictObject({
  name: KeyName,
  account: AccountName,
  digest: z.string().regex(/^[0-9a-f]{64}$/, 'digest must be 64 lowercase hex characters (SHA-256)'),
  prefix: z.string().min(1).max(40),
  last_four: z.string().max(4),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
  origin: z.enum(['created', 'imported']),
});

export const EXPORT_FORMAT = 'ratedesk-keys';
export const EXPORT_VERSION = 1;

export const ExportDocument = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exported_at: Timestamp,
  keys: z.array(ExportedKey).max(100_000),
});

export type ExportDocument = z.output<typeof ExportDocument>;
export type ExportedKey = z.output<typeof ExportedKey>;

export interface KeyView {
  id: string;
  name: string;
  account: string;
  /** Masked start of the secret, e.g. `rdk_AbCd…`; with last_four it is all that is ever shown again. */
  prefix: string;
  last_four: string;
  origin: 'created' | 'imported';
  state: 'active' | 'revoked';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedKey {
  id: string;
  name: string;
  account: string;
  /** The only time the full key leaves the core. */
  secret: string;
  prefix: string;
  last_four: string;
  created_at: string;
}

export interface RevokedKey extends KeyView {
  /** True when the key was revoked before this call; revoked_at then keeps the original time. */
  already_revoked: boolean;
}

export interface ImportResult {
  imported: number;
  skipped: number;
  /** Accounts the document named that did not exist here; they were created with a zero balance. */
  accounts_created: string[];
}

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
      throw new AdminError(
        'invalid',
        'This looks like a RateDesk key (rdk_…) but its checksum does not match: it was mistyped or truncated.',
      );
    }
    return secret;
  }
  if (!FOREIGN_KEY_PATTERN.test(secret)) {
    throw new AdminError('invalid', 'A key must be 20 to 200 printable ASCII characters without spaces.');
  }
  return secret;
}

export function createKey(store: Store, clock: WallClock, input: z.input<typeof CreateKeyInput>): CreatedKey {
  const { account, name } = parseInput(CreateKeyInput, input);
  const secret = generateKey();
  const { prefix, lastFour } = maskKey(secret);
  const id = newKeyId();
  const createdAt = clock.now().toISOString();
  store.tx(() => {
    const acc = requireAccount(store, account);
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
}

export function listKeys(store: Store, _clock: WallClock, input?: z.input<typeof ListKeysInput>): KeyView[] {
  const parsed = parseInput(ListKeysInput, input);
  const accountId = parsed?.account === undefined ? undefined : requireAccount(store, parsed.account).id;
  return store.keys.list(accountId).map(view);
}

/**
 * Immediate (the listener looks the key up on every request) and permanent. Revoking a revoked key
 * succeeds with already_revoked: true: the admin's intent is met, and a retried or double-clicked
 * revoke must not look like a failure.
 */
export function revokeKey(store: Store, clock: WallClock, input: z.input<typeof RevokeKeyInput>): RevokedKey {
  const { id } = parseInput(RevokeKeyInput, input);
  return store.tx(() => {
    if (!store.keys.byId(id)) throw new AdminError('not_found', `No key with id ${id}. See "keys list".`);
    const changed = store.keys.revoke(id, clock.now().toISOString());
    return { ...view(store.keys.byId(id)!), already_revoked: !changed };
  });
}

function duplicateMessage(existing: KeyRow): string {
  return `This key is already stored as ${existing.id} (${JSON.stringify(existing.name)}, account ${JSON.stringify(existing.account_name)}).`;
}

/** Stores a key issued elsewhere (or a RateDesk key from another machine) so that it authenticates here. */
export function importKey(store: Store, clock: WallClock, input: z.input<typeof ImportKeyInput>): KeyView {
  const { account, name, secret: raw } = parseInput(ImportKeyInput, input);
  const secret = checkSecret(raw);
  const digest = digestKey(secret);
  const { prefix, lastFour } = maskKey(secret);
  return store.tx(() => {
    const acc = requireAccount(store, account);
    const existing = store.keys.byDigest(digest);
    if (existing) throw new AdminError('conflict', duplicateMessage(existing));
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

/** Every key (revoked ones too, so they stay revoked after a move), without any secret: only digests. */
export function exportKeys(
  store: Store,
  clock: WallClock,
  input?: z.input<typeof ExportKeysInput>,
): ExportDocument {
  const parsed = parseInput(ExportKeysInput, input);
  const accountId = parsed?.account === undefined ? undefined : requireAccount(store, parsed.account).id;
  return {
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
}

/**
 * Loads an export document in one transaction: all of it or nothing. A digest already present is skipped
 * (so importing the same file twice is harmless). A missing account is created with balance 0: keys move
 * between machines, balances do not, so an import can never mint requests.
 */
export function importExport(store: Store, clock: WallClock, input: unknown): ImportResult {
  const doc = parseInput(ExportDocument, input);
  const now = clock.now().toISOString();
  return store.tx(() => {
    const result: ImportResult = { imported: 0, skipped: 0, accounts_created: [] };
    for (const key of doc.keys) {
      if (store.keys.byDigest(key.digest)) {
        result.skipped++;
        continue;
      }
      let acc = store.accounts.byName(key.account);
      if (!acc) {
        acc = store.accounts.create(key.account, 0, now);
        result.accounts_created.push(key.account);
      }
      store.keys.insert({ id: newKeyId(), account_id: acc.id, ...pickKeyFields(key) });
      result.imported++;
    }
    return result;
  });
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
