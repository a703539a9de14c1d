// Carrier secrets sealed with the server key: the sealed form read back independently (AES-256-GCM with the
// documented HKDF derivation and associated data), tampering of each part, another key, a value moved to
// another setting; then the start check on a real SQLite data file: the check value written with a first key,
// a wrong key refused before any secret exists, no key refused where one is needed, plain secrets sealed.
import { createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../../core/settings/schema';
import { plainSecrets, prepareSecrets, type SecretStore } from '../../../../core/settings/secrets';
import { ServerKey, ServerKeyError } from '../../../../core/settings/server-key';
import {
  KEY_CHECK_SETTING,
  MISSING_KEY_MESSAGE,
  serverSecrets,
  WRONG_KEY_MESSAGE,
} from '../../../../core/settings/server-secrets';
import { openStore, type SqliteStore } from '../../../../core/store';
import type { Logger } from '../../../../core/util/logger';

const SECRET = 'carriers.cdek.client_secret';
const OTHER = 'carriers.dellin.appkey';
const NOW = '2025-03-01T10:00:00.000Z';

function newKey(): { key: ServerKey; raw: Buffer } {
  const raw = randomBytes(32);
  return { key: ServerKey.fromBytes(Buffer.from(raw)), raw };
}

/** The sealed form as docs/operations.md describes it, opened without core's code. */
function openIndependently(stored: string, raw: Buffer, name: string): string {
  expect(stored.startsWith('srv1:')).toBe(true);
  const box = Buffer.from(stored.slice(5), 'base64');
  const key = Buffer.from(
    hkdfSync('sha256', raw, 'ratedesk server key', 'carrier secrets: aes-256-gcm v1', 32),
  );
  const d = createDecipheriv('aes-256-gcm', key, box.subarray(0, 12), { authTagLength: 16 });
  d.setAAD(Buffer.from(`srv1:${name}`, 'utf8'));
  d.setAuthTag(box.subarray(box.length - 16));
  return Buffer.concat([d.update(box.subarray(12, box.length - 16)), d.final()]).toString('utf8');
}

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const put = (level: string) => (m: string, f?: Record<string, unknown>) =>
    void lines.push(`${level} ${m} ${JSON.stringify(f ?? {})}`);
  return { lines, info: put('info'), warn: put('warn'), error: put('error') };
}

it('the settings used here are secret ones (a non-secret row is stored as it is)', () => {
  expect([SETTINGS[SECRET].secret, SETTINGS[OTHER].secret]).toEqual([true, true]);
});

describe('seal and open', () => {
  const { key, raw } = newKey();
  const s = serverSecrets(key);

  it('round trip, in the documented form, with a fresh nonce every time', () => {
    for (const plain of ['hunter2', 'пароль с пробелами и ёжиком', 'x'.repeat(200), '🔑 \u0000 end']) {
      const sealed = s.seal(plain, SECRET);
      expect(sealed).toMatch(/^srv1:[A-Za-z0-9+/]+=*$/);
      expect(sealed).not.toContain(plain);
      expect(s.open(sealed, SECRET)).toBe(plain);
      expect(openIndependently(sealed, raw, SECRET)).toBe(plain);
      // 12 bytes nonce + ciphertext (as long as the UTF-8 text) + 16 bytes tag.
      expect(Buffer.from(sealed.slice(5), 'base64').length).toBe(12 + Buffer.byteLength(plain) + 16);
    }
    const nonces = new Set<string>();
    for (let i = 0; i < 10_000; i++)
      nonces.add(Buffer.from(s.seal('same', SECRET).slice(5), 'base64').subarray(0, 12).toString('hex'));
    expect(nonces.size).toBe(10_000);
    expect(s.seal('', SECRET)).toBe('');
    expect(s.encrypting).toBe(true);
  });

  it('a change of any byte of nonce, ciphertext or tag, a cut or an extension: not opened', () => {
    const sealed = s.seal('hunter2-and-more', SECRET);
    const box = Buffer.from(sealed.slice(5), 'base64');
    let opened = 0;
    for (let i = 0; i < box.length; i++) {
      for (const bit of [0x01, 0x80]) {
        const t = Buffer.from(box);
        t[i]! ^= bit;
        if (s.open(`srv1:${t.toString('base64')}`, SECRET) !== '') opened++;
      }
    }
    expect(opened).toBe(0);
    for (const t of [
      box.subarray(0, box.length - 1),
      box.subarray(1),
      Buffer.concat([box, Buffer.from([0])]),
      box.subarray(0, 27),
      Buffer.alloc(0),
    ])
      expect(s.open(`srv1:${t.toString('base64')}`, SECRET)).toBe('');
    expect(s.open('srv1:not base64 at all!', SECRET)).toBe('');
  });

  it('another key does not open it, and neither does another setting', () => {
    const sealed = s.seal('hunter2', SECRET);
    expect(serverSecrets(newKey().key).open(sealed, SECRET)).toBe('');
    expect(s.open(sealed, OTHER)).toBe('');
    expect(s.open(sealed, SECRET)).toBe('hunter2');
  });

  it('a store without the key, the desktop’s plain store and a keychain value: never plain text', () => {
    const sealed = s.seal('hunter2', SECRET);
    expect(serverSecrets(undefined).open(sealed, SECRET)).toBe('');
    expect(plainSecrets.open(sealed, SECRET)).toBe('');
    expect(s.open('enc:AAECAwQ=', SECRET)).toBe('');
    // Plain text left by an earlier version passes until it is sealed at start.
    expect(s.open('typed-in-before', SECRET)).toBe('typed-in-before');
    expect(serverSecrets(undefined).seal('hunter2', SECRET)).toBe('hunter2');
  });
});

// ---- the start check on a real data file --------------------------------------------------------------------

const dirs: string[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const st of stores.splice(0)) await st.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Reads and writes stored values as they are: what a person with the file sees. */
const raw: SecretStore = { encrypting: false, seal: (p) => p, open: (s) => s };

function folder(): (secrets: SecretStore) => SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-server-secrets-'));
  dirs.push(dir);
  return (secrets) => {
    const st = openStore(join(dir, 'ratedesk.db'), { secrets });
    stores.push(st);
    return st;
  };
}

async function start(open: (s: SecretStore) => SqliteStore, secrets: SecretStore): Promise<SqliteStore> {
  const st = open(secrets);
  await prepareSecrets(st.settings, secrets, NOW);
  return st;
}

async function refusedWith(p: Promise<unknown>, problem: string, message: string): Promise<void> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServerKeyError);
  expect((error as ServerKeyError).problem).toBe(problem);
  expect((error as Error).message).toBe(message);
}

describe('the start check', () => {
  it('a first key writes its check value; the same key starts again', async () => {
    const open = folder();
    const { key } = newKey();
    await start(open, serverSecrets(key));
    const check = await open(raw).settings.get(KEY_CHECK_SETTING);
    expect(check).toMatch(/^check1:[A-Za-z0-9+/]{43}=$/);
    await start(open, serverSecrets(key));
    expect(await open(raw).settings.get(KEY_CHECK_SETTING)).toBe(check);
  });

  it('another key is refused even before any secret was stored, and writes nothing', async () => {
    const open = folder();
    await start(open, serverSecrets(newKey().key));
    const before = await open(raw).settings.all();
    await refusedWith(start(open, serverSecrets(newKey().key)), 'wrong', WRONG_KEY_MESSAGE);
    expect(WRONG_KEY_MESSAGE.toLowerCase()).toContain(
      'the server key does not open the stored secrets (it is not the key they were sealed with)',
    );
    expect(await open(raw).settings.all()).toEqual(before);
  });

  it('no key where the secrets need one: refused, naming the flag and both variables', async () => {
    const open = folder();
    const { key } = newKey();
    const st = await start(open, serverSecrets(key));
    await st.settings.write([{ name: SECRET, value: 'hunter2' }], NOW);
    await refusedWith(start(open, serverSecrets(undefined)), 'missing', MISSING_KEY_MESSAGE);
    for (const way of ['--server-key-file', 'RATEDESK_SERVER_KEY_FILE', 'RATEDESK_SERVER_KEY'])
      expect(MISSING_KEY_MESSAGE).toContain(way);
    // Sealed secrets without their check value (removed by hand) still need the key.
    await open(raw).settings.write([{ name: KEY_CHECK_SETTING, value: null }], NOW);
    await refusedWith(start(open, serverSecrets(undefined)), 'missing', MISSING_KEY_MESSAGE);
    // A check value alone, before any secret, is enough to ask for the key.
    const bare = folder();
    await start(bare, serverSecrets(key));
    await refusedWith(start(bare, serverSecrets(undefined)), 'missing', MISSING_KEY_MESSAGE);
    // A data file that never saw a key starts without one, as before.
    await start(folder(), serverSecrets(undefined));
  });

  it('without a check value, a key that does not open the sealed secrets is refused, not adopted', async () => {
    const open = folder();
    const st = await start(open, serverSecrets(newKey().key));
    await st.settings.write([{ name: SECRET, value: 'hunter2' }], NOW);
    await open(raw).settings.write([{ name: KEY_CHECK_SETTING, value: null }], NOW);
    await refusedWith(start(open, serverSecrets(newKey().key)), 'wrong', WRONG_KEY_MESSAGE);
    expect(await open(raw).settings.get(KEY_CHECK_SETTING)).toBeUndefined();
  });

  it('with the right key, one damaged or moved value reads as not configured, with a warning naming the setting', async () => {
    const open = folder();
    const { key } = newKey();
    const st = await start(open, serverSecrets(key));
    await st.settings.write(
      [
        { name: SECRET, value: 'hunter2' },
        { name: OTHER, value: 'dellin-app-key-value' },
      ],
      NOW,
    );
    // Someone with write access to the database copies one sealed value over another.
    const r = open(raw);
    await r.settings.write([{ name: OTHER, value: (await r.settings.get(SECRET))! }], NOW);
    const log = capture();
    const again = await start(open, serverSecrets(key, log));
    expect(await again.settings.get(SECRET)).toBe('hunter2');
    expect(await again.settings.get(OTHER)).toBe('');
    expect(log.lines.filter((l) => l.startsWith('warn'))).toEqual([
      `warn a stored carrier secret does not open with the server key (damaged, or copied from another setting): set it again {"setting":"${OTHER}"}`,
    ]);
    expect(log.lines.join('\n')).not.toContain('hunter2');
  });

  it('a wrong key logs no warning per secret: one refusal says it all', async () => {
    const open = folder();
    const st = await start(open, serverSecrets(newKey().key));
    await st.settings.write([{ name: SECRET, value: 'hunter2' }], NOW);
    const log = capture();
    const wrong = serverSecrets(newKey().key, log);
    const again = open(wrong);
    // A store may read its settings as it opens, before the host's check (the PostgreSQL one does).
    expect(await again.settings.get(SECRET)).toBe('');
    await refusedWith(prepareSecrets(again.settings, wrong, NOW), 'wrong', WRONG_KEY_MESSAGE);
    expect(log.lines).toEqual([]);
  });

  it('plain secrets left by an earlier version are sealed at start; keychain values are left as they are', async () => {
    const open = folder();
    await open(plainSecrets).settings.write(
      [
        { name: SECRET, value: 'typed-before-the-key' },
        { name: OTHER, value: 'enc:AAECAwQ=' },
        { name: 'carriers.cdek.client_id', value: 'acme' },
      ],
      NOW,
    );
    const { key, raw: bytes } = newKey();
    const s = serverSecrets(key);
    const st = open(s);
    expect(await prepareSecrets(st.settings, s, NOW)).toBe(1);
    const stored = open(raw).settings;
    expect(openIndependently((await stored.get(SECRET))!, bytes, SECRET)).toBe('typed-before-the-key');
    expect(await stored.get(OTHER)).toBe('enc:AAECAwQ=');
    expect(await stored.get('carriers.cdek.client_id')).toBe('acme');
    expect(await st.settings.get(SECRET)).toBe('typed-before-the-key');
    expect(await prepareSecrets(st.settings, s, NOW)).toBe(0);
  });

  it('a store that seals with a keychain leaves server-sealed values alone', async () => {
    const open = folder();
    const st = await start(open, serverSecrets(newKey().key));
    await st.settings.write([{ name: SECRET, value: 'hunter2' }], NOW);
    const sealedBefore = await open(raw).settings.get(SECRET);
    const keychain: SecretStore = {
      encrypting: true,
      seal: (p) => `enc:${Buffer.from(p).toString('base64')}`,
      open: (v) => (v.startsWith('enc:') ? Buffer.from(v.slice(4), 'base64').toString() : v),
    };
    expect(await open(keychain).settings.sealPlainSecrets(NOW)).toBe(0);
    expect(await open(raw).settings.get(SECRET)).toBe(sealedBefore);
  });
});
