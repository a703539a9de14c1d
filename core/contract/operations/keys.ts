// API keys: create (the secret is shown once), list, revoke, import, export (digests only, never secrets).
import { z } from 'zod';
import { AccountName, AccountRef } from './accounts';
import { Timestamp } from './common';

/** Free text for people, but one line: names end up in tables and logs. */
export const KeyName = z
  .string()
  .trim()
  .min(1, 'key name is required')
  .max(64, 'key name must be at most 64 characters')
  .regex(/^[^\p{Cc}]*$/u, 'key name must not contain control characters');

/**
 * A key is told apart from the others of its account by its name (#17 item 9): two active keys of one account
 * may not share a name, compared as a person reads it (case aside; the schema already trimmed it). Revoked
 * keys keep theirs, so «склад» can be issued again after the old «склад» was revoked. Export documents moving
 * keys between machines keep the names they carry.
 */
export function sameKeyName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The conflict keys:create and keys:import answer with; the desk recognises it to show it at the name field. */
export function keyNameTakenMessage(name: string, account: string, id: string): string {
  return `A key named ${JSON.stringify(name)} is already in use for account ${JSON.stringify(account)} (${id}). Choose another name, or revoke that key first.`;
}

export function isKeyNameTaken(message: string): boolean {
  return /^A key named ".*" is already in use for account /.test(message);
}

export const KeyId = z
  .string()
  .regex(/^key_[0-9A-Za-z]{12}$/, 'a key id looks like key_ followed by 12 letters or digits');

export const KeyView = z.object({
  id: z.string(),
  name: z.string(),
  account: z.string(),
  /** Masked start of the secret, e.g. `rdk_AbCd…`; with last_four it is all that is ever shown again. */
  prefix: z.string(),
  last_four: z.string(),
  origin: z.enum(['created', 'imported']),
  state: z.enum(['active', 'revoked']),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
export type KeyView = z.output<typeof KeyView>;

export const CreatedKey = z.object({
  id: z.string(),
  name: z.string(),
  account: z.string(),
  /** The only time the full key leaves the core: show it once, with a copy button. */
  secret: z.string(),
  prefix: z.string(),
  last_four: z.string(),
  created_at: Timestamp,
});
export type CreatedKey = z.output<typeof CreatedKey>;

export const RevokedKey = KeyView.extend({
  /** True when the key was revoked before this call; revoked_at then keeps the original time. */
  already_revoked: z.boolean(),
});
export type RevokedKey = z.output<typeof RevokedKey>;

const IsoTimestamp = z.iso.datetime({ offset: true });

export const ExportedKey = z.strictObject({
  name: KeyName,
  account: AccountName,
  digest: z.string().regex(/^[0-9a-f]{64}$/, 'digest must be 64 lowercase hex characters (SHA-256)'),
  prefix: z.string().min(1).max(40),
  last_four: z.string().max(4),
  created_at: IsoTimestamp,
  last_used_at: IsoTimestamp.nullable(),
  revoked_at: IsoTimestamp.nullable(),
  origin: z.enum(['created', 'imported']),
});
export type ExportedKey = z.output<typeof ExportedKey>;

export const EXPORT_FORMAT = 'ratedesk-keys';
export const EXPORT_VERSION = 1;

export const ExportDocument = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exported_at: IsoTimestamp,
  keys: z.array(ExportedKey).max(100_000),
});
export type ExportDocument = z.output<typeof ExportDocument>;

export const KeyImportResult = z.object({
  imported: z.number(),
  skipped: z.number(),
  /** Accounts an export document named that did not exist; created with a zero balance. */
  accounts_created: z.array(z.string()),
  /** The stored key when a single secret was imported; null for an export document. */
  key: KeyView.nullable(),
});
export type KeyImportResult = z.output<typeof KeyImportResult>;

const AccountFilter = z.strictObject({ account: AccountRef.optional() }).optional();

export const keyOperations = {
  'keys:list': { input: AccountFilter, output: z.array(KeyView) },
  'keys:create': { input: z.strictObject({ account: AccountRef, name: KeyName }), output: CreatedKey },
  /**
   * Either one secret issued elsewhere (checked by hand, so that no message can ever quote it), or an export
   * document: as its text (the desk's file picker) or already parsed (the CLI reads it from a file).
   */
  'keys:import': {
    input: z.union([
      z.strictObject({
        account: AccountRef,
        name: KeyName,
        secret: z.string().max(10_000, 'a key is at most 200 characters'),
      }),
      z.strictObject({ document: z.string().min(1).max(50_000_000) }),
    ]),
    output: KeyImportResult,
  },
  'keys:revoke': { input: z.strictObject({ id: KeyId }), output: RevokedKey },
  /** Digests only, never secrets: the file moves keys to another RateDesk, not to a person. */
  'keys:export': {
    input: AccountFilter,
    output: z.object({ filename: z.string(), json: z.string() }),
  },
} as const;
