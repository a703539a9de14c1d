import { describe, expect, it } from 'vitest';
import { ExportDocument, isKeyNameTaken } from '../../../../core/contract/operations';
import {
  OperationError,
  createAccount,
  createKey,
  exportKeys,
  importKey,
  listKeys,
  revokeKey,
  type WallClock,
} from '../../../../core/operations';
import type { Store } from '../../../../core/store';

// keys:import takes one secret or an export document's text, keys:export gives the document as text: these
// three keep the tests below in terms of the key, the document and the counts they check.
const importSecret = async (
  store: Store,
  clock: WallClock,
  input: { account: string; name: string; secret: string },
) => (await importKey(store, clock, input)).key!;
const exportDoc = async (
  store: Store,
  clock: WallClock,
  input?: { account?: string },
): Promise<ExportDocument> => JSON.parse((await exportKeys(store, clock, input)).json) as ExportDocument;
async function importExport(store: Store, clock: WallClock, doc: unknown) {
  const { key: _key, ...counts } = await importKey(store, clock, { document: JSON.stringify(doc) });
  return counts;
}
import { digestKey, generateKey, hasValidChecksum } from '../../../../core/keys/format';
import { KEY_IMPORT_CHUNK } from '../../../../core/operations/keys';
import { TestClock, freshFolder } from '../../../helpers/store-fixtures';

async function adminError(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

/** Flips one character of the random part, keeping the shape: the checksum must catch it. */
function typo(secret: string): string {
  const i = 10;
  return secret.slice(0, i) + (secret[i] === 'a' ? 'b' : 'a') + secret.slice(i + 1);
}

describe('createKey', () => {
  it('returns the secret once and stores only its digest', async () => {
    const { store, clock } = freshFolder();
    const key = await createKey(store, clock, { account: 'default', name: 'production' });
    expect(key.id).toMatch(/^key_[0-9A-Za-z]{12}$/);
    expect(hasValidChecksum(key.secret)).toBe(true);
    expect(key).toMatchObject({
      name: 'production',
      account: 'default',
      prefix: `${key.secret.slice(0, 8)}…`,
      last_four: key.secret.slice(-4),
      created_at: '2025-03-01T10:00:00.000Z',
    });
    const row = (await store.keys.byId(key.id))!;
    expect(row.digest).toBe(digestKey(key.secret));
    expect(JSON.stringify(row)).not.toContain(key.secret);
    expect(await store.keys.authLookup(digestKey(key.secret))).toMatchObject({
      key_id: key.id,
      revoked_at: null,
    });
  });

  it('gives every key its own id and secret', async () => {
    const { store, clock } = freshFolder();
    const keys = [];
    for (let i = 0; i < 50; i++)
      keys.push(await createKey(store, clock, { account: 'default', name: `k${i}` }));
    expect(new Set(keys.map((k) => k.id)).size).toBe(50);
    expect(new Set(keys.map((k) => k.secret)).size).toBe(50);
  });

  it('validates the name and the account', async () => {
    const { store, clock } = freshFolder();
    expect((await createKey(store, clock, { account: 'default', name: 'ключ для 1С' })).name).toBe(
      'ключ для 1С',
    );
    expect((await createKey(store, clock, { account: 'default', name: 'x'.repeat(64) })).name).toHaveLength(
      64,
    );
    expect((await createKey(store, clock, { account: 'default', name: '  padded  ' })).name).toBe('padded');
    for (const name of ['', '   ', 'x'.repeat(65), 'two\nlines']) {
      expect((await adminError(() => createKey(store, clock, { account: 'default', name }))).code).toBe(
        'invalid',
      );
    }
    expect((await adminError(() => createKey(store, clock, { account: 'ghost', name: 'k' }))).code).toBe(
      'not_found',
    );
    expect(await store.keys.list()).toHaveLength(3);
  });
});

describe('listKeys', () => {
  it('shows state and masked key, never a secret or a digest', async () => {
    const { store, clock } = freshFolder();
    await createAccount(store, clock, { name: 'other' });
    const a = await createKey(store, clock, { account: 'default', name: 'a' });
    clock.advance(1000);
    const b = await createKey(store, clock, { account: 'other', name: 'b' });
    await revokeKey(store, clock, { id: a.id });

    const all = await listKeys(store, clock);
    expect(all.map((k) => [k.id, k.state])).toEqual([
      [a.id, 'revoked'],
      [b.id, 'active'],
    ]);
    const text = JSON.stringify(all);
    for (const secret of [a.secret, b.secret]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(digestKey(secret));
    }
    expect(Object.keys(all[0]!).sort()).toEqual(
      [
        'account',
        'created_at',
        'id',
        'last_four',
        'last_used_at',
        'name',
        'origin',
        'prefix',
        'revoked_at',
        'state',
      ].sort(),
    );
    expect((await listKeys(store, clock, { account: 'other' })).map((k) => k.id)).toEqual([b.id]);
    expect((await adminError(() => listKeys(store, clock, { account: 'ghost' }))).code).toBe('not_found');
  });
});

describe('revokeKey', () => {
  it('revokes at once; a second revoke succeeds and keeps the first time', async () => {
    const clock = new TestClock();
    const { store } = freshFolder(clock);
    const key = await createKey(store, clock, { account: 'default', name: 'k' });
    clock.advance(60_000);
    const first = await revokeKey(store, clock, { id: key.id });
    expect(first).toMatchObject({
      state: 'revoked',
      revoked_at: '2025-03-01T10:01:00.000Z',
      already_revoked: false,
    });
    expect((await store.keys.authLookup(digestKey(key.secret)))!.revoked_at).toBe('2025-03-01T10:01:00.000Z');

    clock.advance(60_000);
    const second = await revokeKey(store, clock, { id: key.id });
    expect(second).toMatchObject({
      state: 'revoked',
      revoked_at: '2025-03-01T10:01:00.000Z',
      already_revoked: true,
    });
  });

  it('reports unknown and malformed ids', async () => {
    const { store, clock } = freshFolder();
    expect((await adminError(() => revokeKey(store, clock, { id: 'key_AAAAAAAAAAAA' }))).code).toBe(
      'not_found',
    );
    expect((await adminError(() => revokeKey(store, clock, { id: 'rdk_whatever' }))).code).toBe('invalid');
  });
});

describe('importKey', () => {
  it('imports a RateDesk key from another machine; it then authenticates here', async () => {
    const { store, clock } = freshFolder();
    const secret = generateKey();
    const key = await importSecret(store, clock, {
      account: 'default',
      name: 'from laptop',
      secret: `  ${secret}\n`,
    });
    expect(key).toMatchObject({ origin: 'imported', state: 'active', last_four: secret.slice(-4) });
    expect((await store.keys.authLookup(digestKey(secret)))?.key_id).toBe(key.id);
    expect(JSON.stringify(await store.keys.byId(key.id))).not.toContain(secret);
  });

  it('imports a foreign key of 20 to 200 printable characters', async () => {
    const { store, clock } = freshFolder();
    for (const [i, secret] of [
      'x'.repeat(20),
      `sk_live_${'Z'.repeat(192)}`,
      '{weird}!~key-with=sy#mbols',
    ].entries()) {
      const key = await importSecret(store, clock, { account: 'default', name: `foreign ${i}`, secret });
      expect((await store.keys.authLookup(digestKey(secret)))?.key_id).toBe(key.id);
      expect(key.prefix).toBe(`${secret.slice(0, 4)}…`);
    }
  });

  it.each([
    ['a RateDesk key with a typo', () => typo(generateKey()), 'checksum'],
    ['a truncated RateDesk key', () => generateKey().slice(0, -1), 'checksum'],
    ['19 characters', () => 'y'.repeat(19), '20 to 200'],
    ['201 characters', () => 'y'.repeat(201), '20 to 200'],
    ['an inner space', () => 'abcdefghij klmnopqrstuvwxyz', '20 to 200'],
    ['non-ASCII', () => 'ключключключключключключ', '20 to 200'],
    ['an empty string', () => '', '20 to 200'],
  ])('refuses %s without quoting it', async (_label, make, hint) => {
    const { store, clock } = freshFolder();
    const secret = make();
    const error = await adminError(() =>
      importSecret(store, clock, { account: 'default', name: 'k', secret }),
    );
    expect(error.code).toBe('invalid');
    expect(error.message).toContain(hint);
    if (secret.length > 0) expect(error.message).not.toContain(secret);
    expect(await store.keys.list()).toHaveLength(0);
  });

  it('refuses a key that is already stored, whichever account has it', async () => {
    const { store, clock } = freshFolder();
    await createAccount(store, clock, { name: 'other' });
    const created = await createKey(store, clock, { account: 'default', name: 'k' });
    const error = await adminError(() =>
      importSecret(store, clock, { account: 'other', name: 'again', secret: created.secret }),
    );
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(created.id);
    expect(error.message).not.toContain(created.secret);
  });

  it('requires the account to exist', async () => {
    const { store, clock } = freshFolder();
    expect(
      (
        await adminError(() =>
          importSecret(store, clock, { account: 'ghost', name: 'k', secret: generateKey() }),
        )
      ).code,
    ).toBe('not_found');
  });
});

describe('exportKeys / importExport', () => {
  it('moves keys to a second machine: same digests, keys authenticate there, no secret in the file', async () => {
    const a = freshFolder();
    await createAccount(a.store, a.clock, { name: 'shop' });
    const live = await createKey(a.store, a.clock, { account: 'shop', name: 'live' });
    a.clock.advance(1000);
    const old = await createKey(a.store, a.clock, { account: 'default', name: 'old' });
    a.clock.advance(1000);
    const foreign = 'legacy-token-0123456789abcdef';
    await importSecret(a.store, a.clock, { account: 'default', name: 'legacy', secret: foreign });
    await revokeKey(a.store, a.clock, { id: old.id });

    const doc = await exportDoc(a.store, a.clock);
    const text = JSON.stringify(doc);
    for (const secret of [live.secret, old.secret, foreign]) expect(text).not.toContain(secret);
    expect(ExportDocument.parse(JSON.parse(text))).toEqual(doc);
    expect(doc).toMatchObject({
      format: 'ratedesk-keys',
      version: 1,
      exported_at: '2025-03-01T10:00:02.000Z',
    });
    expect(doc.keys.map((k) => [k.name, k.account, k.origin, k.revoked_at !== null])).toEqual([
      ['live', 'shop', 'created', false],
      ['old', 'default', 'created', true],
      ['legacy', 'default', 'imported', false],
    ]);

    const b = freshFolder();
    const result = await importExport(b.store, b.clock, JSON.parse(text));
    expect(result).toEqual({ imported: 3, skipped: 0, accounts_created: ['shop'] });
    expect((await b.store.keys.list()).map((k) => k.digest).sort()).toEqual(
      (await a.store.keys.list()).map((k) => k.digest).sort(),
    );
    expect(await b.store.keys.authLookup(digestKey(live.secret))).toMatchObject({ revoked_at: null });
    expect(await b.store.keys.authLookup(digestKey(foreign))).toMatchObject({ revoked_at: null });
    // A key revoked on A stays revoked on B.
    expect((await b.store.keys.authLookup(digestKey(old.secret)))!.revoked_at).not.toBeNull();
    // Balances do not travel: the new account starts at 0, the existing one keeps its own.
    expect((await b.store.accounts.byName('shop'))!.balance).toBe(0);
    expect((await b.store.accounts.byName('default'))!.balance).toBe(100);
    expect(await b.store.accounts.invariantViolations()).toEqual([]);

    // A second import of the same file changes nothing.
    expect(await importExport(b.store, b.clock, JSON.parse(text))).toEqual({
      imported: 0,
      skipped: 3,
      accounts_created: [],
    });
    expect(await b.store.keys.list()).toHaveLength(3);
  });

  it('exports one account only when asked', async () => {
    const { store, clock } = freshFolder();
    await createAccount(store, clock, { name: 'shop' });
    await createKey(store, clock, { account: 'shop', name: 'a' });
    await createKey(store, clock, { account: 'default', name: 'b' });
    expect((await exportDoc(store, clock, { account: 'shop' })).keys.map((k) => k.name)).toEqual(['a']);
    expect((await adminError(() => exportDoc(store, clock, { account: 'ghost' }))).code).toBe('not_found');
  });

  it('counts a digest repeated inside one document once', async () => {
    const a = freshFolder();
    await createKey(a.store, a.clock, { account: 'default', name: 'a' });
    const doc = await exportDoc(a.store, a.clock);
    const b = freshFolder();
    expect(await importExport(b.store, b.clock, { ...doc, keys: [doc.keys[0], doc.keys[0]] })).toEqual({
      imported: 1,
      skipped: 1,
      accounts_created: [],
    });
  });

  it('refuses a malformed document as a whole, importing nothing', async () => {
    const a = freshFolder();
    await createKey(a.store, a.clock, { account: 'default', name: 'a' });
    await createKey(a.store, a.clock, { account: 'default', name: 'b' });
    const doc = await exportDoc(a.store, a.clock);
    const good = doc.keys[0]!;
    const broken: Array<[string, unknown]> = [
      ['wrong format', { ...doc, format: 'other' }],
      ['version 2', { ...doc, version: 2 }],
      ['bad digest', { ...doc, keys: [good, { ...good, digest: 'xyz' }] }],
      [
        'uppercase digest',
        { ...doc, keys: [good, { ...doc.keys[1]!, digest: doc.keys[1]!.digest.toUpperCase() }] },
      ],
      ['a secret field', { ...doc, keys: [good, { ...doc.keys[1]!, secret: 'rdk_x' }] }],
      ['bad account name', { ...doc, keys: [good, { ...doc.keys[1]!, account: 'a b' }] }],
      ['bad timestamp', { ...doc, keys: [good, { ...doc.keys[1]!, created_at: 'yesterday' }] }],
      ['not an object', 'ratedesk-keys'],
    ];
    const b = freshFolder();
    for (const [label, input] of broken) {
      const error = await adminError(() => importExport(b.store, b.clock, input));
      expect(error.code, label).toBe('invalid');
    }
    expect(await b.store.keys.list()).toHaveLength(0);
  });

  it('writes a large document in chunks: counts add up across them, and the same file again skips every key', async () => {
    const a = freshFolder();
    const n = 2 * KEY_IMPORT_CHUNK + 17;
    const doc: ExportDocument = {
      format: 'ratedesk-keys',
      version: 1,
      exported_at: '2025-03-01T10:00:00.000Z',
      keys: Array.from({ length: n }, (_, i) => ({
        name: `k${i}`,
        account: i % 2 === 0 ? 'even' : 'odd',
        digest: digestKey(`foreign-key-number-${i}-of-the-document`),
        prefix: 'foreign-',
        last_four: String(i % 10_000).padStart(4, '0'),
        created_at: '2025-01-01T00:00:00.000Z',
        last_used_at: null,
        revoked_at: i === 5 ? '2025-02-01T00:00:00.000Z' : null,
        origin: 'imported' as const,
      })),
    };
    expect(await importExport(a.store, a.clock, doc)).toEqual({
      imported: n,
      skipped: 0,
      accounts_created: ['even', 'odd'],
    });
    expect(await a.store.keys.list()).toHaveLength(n);
    expect((await a.store.keys.list()).filter((k) => k.revoked_at !== null).map((k) => k.name)).toEqual([
      'k5',
    ]);
    expect(await importExport(a.store, a.clock, doc)).toEqual({
      imported: 0,
      skipped: n,
      accounts_created: [],
    });
  });
});

describe('a key name already in use (#17 item 9)', () => {
  it('keys:create refuses a second active key of one account with the same name, case aside', async () => {
    const { store, clock } = freshFolder();
    const first = await createKey(store, clock, { account: 'default', name: 'Склад' });
    const e = await adminError(() => createKey(store, clock, { account: 'default', name: ' склад ' }));
    expect(e.code).toBe('conflict');
    expect(e.message).toBe(
      `A key named "Склад" is already in use for account "default" (${first.id}). Choose another name, or revoke that key first.`,
    );
    expect(isKeyNameTaken(e.message)).toBe(true);
    expect(await listKeys(store, clock, {})).toHaveLength(1);
  });

  it('allows the name in another account, and again once the old key is revoked', async () => {
    const { store, clock } = freshFolder();
    await createAccount(store, clock, { name: 'other' });
    const first = await createKey(store, clock, { account: 'default', name: 'Склад' });
    await createKey(store, clock, { account: 'other', name: 'Склад' });
    await revokeKey(store, clock, { id: first.id });
    await createKey(store, clock, { account: 'default', name: 'Склад' });
    expect((await listKeys(store, clock, {})).map((k) => `${k.account} ${k.name} ${k.state}`).sort()).toEqual(
      ['default Склад active', 'default Склад revoked', 'other Склад active'],
    );
  });

  it('keys:import of one secret refuses the name the same way, and stores nothing', async () => {
    const { store, clock } = freshFolder();
    await createKey(store, clock, { account: 'default', name: '1С' });
    const e = await adminError(() =>
      importSecret(store, clock, { account: 'default', name: '1с', secret: 'x'.repeat(24) }),
    );
    expect(e.code).toBe('conflict');
    expect(isKeyNameTaken(e.message)).toBe(true);
    expect(await store.keys.authLookup(digestKey('x'.repeat(24)))).toBeUndefined();
  });
});
