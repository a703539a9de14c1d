// Loading the server key: the three ways to give it and their precedence, the key file's permissions (refused
// when open to other users, as ssh refuses a private key), its format and length, and that neither a key nor
// a refusal ever shows the key's text.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadServerKey,
  newServerKeyText,
  parseServerKey,
  readServerKeyFile,
  ServerKey,
  ServerKeyError,
  type ServerKeyProblem,
} from '../../../../core/settings/server-key';

const root = mkdtempSync(join(tmpdir(), 'ratedesk-server-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function keyFile(content: string | Buffer, mode = 0o600): string {
  const path = join(root, `key-${n++}`);
  writeFileSync(path, content, { mode });
  chmodSync(path, mode); // the umask may have narrowed the mode given to writeFileSync
  return path;
}

const b64 = (bytes: number): string => randomBytes(bytes).toString('base64');

/** Calls `fn`, expects a ServerKeyError of `problem`, and returns its message. */
function refusal(fn: () => unknown, problem: ServerKeyProblem): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ServerKeyError);
    expect((error as ServerKeyError).problem).toBe(problem);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

const posix = process.platform !== 'win32';

describe('the key file', () => {
  it('takes base64 of 32 bytes, with or without padding, newline or URL-safe alphabet', () => {
    const raw = randomBytes(32);
    const forms = [
      raw.toString('base64'),
      `${raw.toString('base64')}\n`,
      `  ${raw.toString('base64')}\r\n`,
      raw.toString('base64').replace(/=+$/, ''),
      raw.toString('base64url'),
    ];
    const checks = forms.map((text) => readServerKeyFile(keyFile(text)).checkValue());
    // Every form is the same key.
    expect(new Set(checks).size).toBe(1);
    expect(newServerKeyText()).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(readServerKeyFile(keyFile(newServerKeyText()))).toBeInstanceOf(ServerKey);
  });

  it('refuses another length, saying how many bytes it holds and how to make a key', () => {
    for (const bytes of [16, 24, 31, 33, 64]) {
      const text = b64(bytes);
      const message = refusal(() => readServerKeyFile(keyFile(text)), 'malformed');
      expect(message).toContain(`holds ${bytes} bytes`);
      expect(message).toContain('server-key new');
      expect(message).not.toContain(text);
    }
    // Raw bytes, hex and a passphrase are not base64 of 32 bytes either.
    const hex = randomBytes(32).toString('hex');
    expect(refusal(() => readServerKeyFile(keyFile(hex)), 'malformed')).toContain('holds 48 bytes');
    refusal(() => readServerKeyFile(keyFile(randomBytes(32))), 'malformed');
    const pass = 'correct horse battery staple, all 32';
    expect(refusal(() => readServerKeyFile(keyFile(pass)), 'malformed')).not.toContain('horse');
    refusal(() => readServerKeyFile(keyFile('')), 'malformed');
    refusal(() => readServerKeyFile(keyFile('\n\n')), 'malformed');
  });

  it('refuses a big file before reading it', () => {
    expect(refusal(() => readServerKeyFile(keyFile('A'.repeat(4096))), 'malformed')).toContain(
      'holds 4096 bytes',
    );
  });

  it('refuses what is not a readable regular file', () => {
    expect(refusal(() => readServerKeyFile(join(root, 'absent')), 'unreadable')).toContain('no such file');
    const dir = join(root, 'a-directory');
    mkdirSync(dir, { mode: 0o700 });
    refusal(() => readServerKeyFile(dir), 'unreadable');
  });

  it.runIf(posix)(
    posix
      ? 'refuses a file open to group or others, before reading it, naming the fix'
      : 'refuses a file open to group or others (skipped: Windows has no POSIX mode bits to check)',
    () => {
      const text = b64(32);
      for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602, 0o660, 0o666, 0o610]) {
        const path = keyFile(text, mode);
        const message = refusal(() => readServerKeyFile(path), 'exposed');
        expect(message).toContain(`mode 0${mode.toString(8)}`);
        expect(message).toContain(`chmod 600 ${path}`);
        expect(message).not.toContain(text);
      }
      // Owner-only modes pass: read-only, read-write.
      for (const mode of [0o400, 0o600])
        expect(readServerKeyFile(keyFile(text, mode))).toBeInstanceOf(ServerKey);
      // Even a wrong file is refused for its mode first: nothing of an exposed file is read.
      expect(refusal(() => readServerKeyFile(keyFile('not a key', 0o644)), 'exposed')).not.toContain(
        'base64',
      );
    },
  );

  it('leaves the mode to the ACLs on Windows', () => {
    expect(readServerKeyFile(keyFile(b64(32), 0o644), 'win32')).toBeInstanceOf(ServerKey);
  });
});

describe('loadServerKey: flag, RATEDESK_SERVER_KEY_FILE, RATEDESK_SERVER_KEY', () => {
  const a = keyFile(b64(32));
  const b = keyFile(b64(32));
  const check = (path: string): string => readServerKeyFile(path).checkValue();

  it('no key at all: undefined, or the refusal with the reason when one is required', () => {
    expect(loadServerKey({ env: {} })).toBeUndefined();
    const message = refusal(
      () => loadServerKey({ env: {}, required: 'A company database (--database)' }),
      'missing',
    );
    expect(message).toContain('A company database (--database) needs a server key');
    for (const way of [
      '--server-key-file',
      'RATEDESK_SERVER_KEY_FILE',
      'RATEDESK_SERVER_KEY',
      'server-key new',
    ])
      expect(message).toContain(way);
  });

  it('the flag wins over the environment; a file variable over nothing; the value variable last', () => {
    const value = b64(32);
    const fromValue = parseServerKey(value, 'x').checkValue();
    expect(
      loadServerKey({
        flag: a,
        env: { RATEDESK_SERVER_KEY_FILE: b, RATEDESK_SERVER_KEY: value },
      })?.checkValue(),
    ).toBe(check(a));
    expect(loadServerKey({ env: { RATEDESK_SERVER_KEY_FILE: b } })?.checkValue()).toBe(check(b));
    expect(loadServerKey({ env: { RATEDESK_SERVER_KEY: value } })?.checkValue()).toBe(fromValue);
  });

  it('refuses both variables together, an empty variable and an empty flag', () => {
    const value = b64(32);
    const both = refusal(
      () => loadServerKey({ env: { RATEDESK_SERVER_KEY_FILE: a, RATEDESK_SERVER_KEY: value } }),
      'ambiguous',
    );
    expect(both).not.toContain(value);
    refusal(() => loadServerKey({ env: { RATEDESK_SERVER_KEY: '' } }), 'malformed');
    refusal(() => loadServerKey({ env: { RATEDESK_SERVER_KEY_FILE: '' } }), 'unreadable');
    refusal(() => loadServerKey({ flag: '', env: {} }), 'unreadable');
  });

  it('refuses a variable of the wrong length without repeating it', () => {
    const value = b64(16);
    const message = refusal(() => loadServerKey({ env: { RATEDESK_SERVER_KEY: value } }), 'malformed');
    expect(message).toContain('RATEDESK_SERVER_KEY holds 16 bytes');
    expect(message).not.toContain(value);
  });
});

describe('a loaded key', () => {
  it('prints as [server key] however it is printed, and its check value does not reveal the key', () => {
    const text = b64(32);
    const key = parseServerKey(text, 'x');
    const raw = Buffer.from(text, 'base64');
    for (const shown of [
      inspect(key, { showHidden: true, depth: 5 }),
      JSON.stringify({ key }),
      String(key),
    ]) {
      expect(shown).toContain('[server key]');
      expect(shown).not.toContain(text);
      expect(shown).not.toContain(raw.toString('hex'));
    }
    expect(key.checkValue()).not.toBe(text);
    expect(Buffer.from(key.checkValue(), 'base64').equals(raw)).toBe(false);
  });

  it('fromBytes zeroes the buffer it was given', () => {
    const raw = randomBytes(32);
    ServerKey.fromBytes(raw);
    expect(raw.equals(Buffer.alloc(32))).toBe(true);
  });
});
