// The server key: 32 random bytes, written as base64, that seal carrier secrets where no keychain exists (a
// company database shared by `serve` instances, and `admin` beside them). Given by a file
// (--server-key-file, RATEDESK_SERVER_KEY_FILE) or by the environment (RATEDESK_SERVER_KEY), never by a
// command-line value: argv shows in `ps` to every user of the machine and stays in shell history.
// docs/operations.md, "The server key".
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

export const SERVER_KEY_BYTES = 32;
export const SERVER_KEY_FILE_ENV = 'RATEDESK_SERVER_KEY_FILE';
export const SERVER_KEY_ENV = 'RATEDESK_SERVER_KEY';

/** Every way to give the key, for the messages that ask for one. */
export const HOW_TO_GIVE_A_KEY =
  `--server-key-file FILE, or the environment variable ${SERVER_KEY_FILE_ENV} (a file) or ` +
  `${SERVER_KEY_ENV} (base64)`;
/** What a user runs to make one (docs/operations.md). */
export const HOW_TO_MAKE_A_KEY = 'npm run admin -- server-key new --file FILE';

/** A key file is a line of base64 (44 characters); anything much longer is not one (or is /dev/zero). */
const MAX_KEY_FILE_BYTES = 1024;

export type ServerKeyProblem = 'unreadable' | 'exposed' | 'malformed' | 'ambiguous' | 'missing' | 'wrong';

/** A server key that cannot be used, with the message a user sees. Never holds the key or any secret. */
export class ServerKeyError extends Error {
  override readonly name = 'ServerKeyError';
  constructor(
    readonly problem: ServerKeyProblem,
    message: string,
  ) {
    super(message);
  }
}

/** AES-256-GCM with a random 96-bit nonce per seal (NIST SP 800-38D's recommended length) and a full tag. */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A loaded key, as two values derived from it with HKDF-SHA-256: one seals (AES-256-GCM), the other is the
 * check value stored beside the sealed secrets (server-secrets.ts). The 32 bytes themselves are not kept, and
 * nothing of it prints: `console.log(key)`, `String(key)` or a JSON dump shows `[server key]`.
 */
export class ServerKey {
  readonly #sealing: KeyObject;
  readonly #check: string;

  private constructor(raw: Buffer) {
    const derive = (info: string): Buffer =>
      Buffer.from(hkdfSync('sha256', raw, 'ratedesk server key', info, SERVER_KEY_BYTES));
    const sealing = derive('carrier secrets: aes-256-gcm v1');
    this.#sealing = createSecretKey(sealing);
    sealing.fill(0);
    this.#check = derive('check value v1').toString('base64');
  }

  /** The key from its 32 bytes; the buffer is zeroed, so the caller holds no copy either. */
  static fromBytes(raw: Buffer): ServerKey {
    if (raw.length !== SERVER_KEY_BYTES) {
      throw new ServerKeyError('malformed', `A server key is ${SERVER_KEY_BYTES} bytes, not ${raw.length}.`);
    }
    try {
      return new ServerKey(raw);
    } finally {
      raw.fill(0);
    }
  }

  /**
   * nonce | ciphertext | tag of `plain`, authenticated together with `associated` (which is not in the box: the
   * opener must present the same bytes, or the box does not open).
   */
  seal(plain: Buffer, associated: Buffer): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#sealing, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(associated);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([nonce, body, cipher.getAuthTag()]);
  }

  /** The plain bytes, or undefined when the box was not sealed by this key with these associated bytes. */
  open(box: Buffer, associated: Buffer): Buffer | undefined {
    if (box.length < NONCE_BYTES + TAG_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', this.#sealing, box.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(associated);
    decipher.setAuthTag(box.subarray(box.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(box.subarray(NONCE_BYTES, box.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      // GCM's tag did not verify: another key, other associated bytes, or a changed nonce, body or tag.
      return undefined;
    }
  }

  /**
   * Stored in the settings the first time the key seals there: a later start with another key is told so at
   * once, even before any secret was stored. One-way (HKDF): it tells nothing of the key or the sealing key.
   */
  checkValue(): string {
    return this.#check;
  }

  toJSON(): string {
    return '[server key]';
  }

  toString(): string {
    return '[server key]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[server key]';
  }
}

/** A new key as the text a key file holds: base64 of 32 random bytes and a newline. */
export function newServerKeyText(): string {
  const raw = randomBytes(SERVER_KEY_BYTES);
  try {
    return `${raw.toString('base64')}\n`;
  } finally {
    raw.fill(0);
  }
}

/**
 * The key from base64 text (a file's content, or the variable). Standard or URL-safe alphabet, padding
 * optional, surrounding whitespace ignored; anything else, or another length, is refused with what it is,
 * never with the text itself. `source` names where the text came from.
 */
export function parseServerKey(text: string, source: string): ServerKey {
  const b64 = text.trim();
  if (b64 === '') throw new ServerKeyError('malformed', `${source} is empty. ${makeOne()}`);
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(b64)) {
    throw new ServerKeyError(
      'malformed',
      `${source} is not base64 of ${SERVER_KEY_BYTES} bytes (it holds other characters). ${makeOne()}`,
    );
  }
  const raw = Buffer.from(b64.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (raw.length !== SERVER_KEY_BYTES) {
    raw.fill(0);
    throw new ServerKeyError(
      'malformed',
      `${source} holds ${raw.length} bytes; a server key is ${SERVER_KEY_BYTES} random bytes in base64. ${makeOne()}`,
    );
  }
  return ServerKey.fromBytes(raw);
}

const makeOne = (): string => `Make one with: ${HOW_TO_MAKE_A_KEY}`;

/**
 * Reads a key file. Like ssh with a private key, a file that other users can read or change (group or others
 * have any permission bit) is refused on POSIX systems before its content is read: whoever can read it can
 * read every carrier secret in the database, and whoever can change it can make new secrets be sealed with a
 * key of theirs. Windows has no such mode bits; its ACLs are the operator's to set (docs/operations.md).
 */
export function readServerKeyFile(path: string, platform: NodeJS.Platform = process.platform): ServerKey {
  const source = `The server key file ${path}`;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ServerKeyError('unreadable', `${source} cannot be read: ${fsReason(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ServerKeyError('unreadable', `${source} is not a regular file.`);
    const mode = stat.mode & 0o777;
    if (platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new ServerKeyError(
        'exposed',
        `${source} is open to other users (mode ${mode.toString(8).padStart(4, '0')}); it must be readable ` +
          `by its owner only. Run: chmod 600 ${path}`,
      );
    }
    if (stat.size > MAX_KEY_FILE_BYTES) {
      throw new ServerKeyError(
        'malformed',
        `${source} holds ${stat.size} bytes; a key file is one line of base64 (44 characters). ${makeOne()}`,
      );
    }
    const buf = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    let size = 0;
    for (;;) {
      const n = readSync(fd, buf, size, buf.length - size, null);
      if (n === 0) break;
      size += n;
      if (size > MAX_KEY_FILE_BYTES) {
        buf.fill(0);
        throw new ServerKeyError('malformed', `${source} is longer than a key file. ${makeOne()}`);
      }
    }
    const text = buf.toString('latin1', 0, size);
    buf.fill(0);
    return parseServerKey(text, source);
  } finally {
    closeSync(fd);
  }
}

function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file.';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied.';
  if (code === 'EISDIR') return 'it is a directory.';
  return code ?? String(error);
}

export interface ServerKeyOptions {
  /** --server-key-file, when given. */
  flag?: string | undefined;
  /** Where RATEDESK_SERVER_KEY_FILE and RATEDESK_SERVER_KEY are read. */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Why this run cannot go without a key (e.g. "a company database (--database)"): with it, no key at all is
   * refused with that reason instead of returning undefined.
   */
  required?: string | undefined;
  platform?: NodeJS.Platform;
}

/**
 * The key the host was given, or undefined when none was. The flag wins over the environment (as --data-dir
 * over RATEDESK_DATA_DIR); the two variables together are refused, since they could name two keys. A variable
 * that is set but empty is refused too: it is a mistake (an unset variable in a compose file), not "no key".
 * Throws ServerKeyError with a message for the user.
 */
export function loadServerKey(options: ServerKeyOptions): ServerKey | undefined {
  const { flag, env } = options;
  const platform = options.platform ?? process.platform;
  if (flag !== undefined) {
    if (flag === '') throw new ServerKeyError('unreadable', '--server-key-file needs a file name.');
    return readServerKeyFile(flag, platform);
  }
  const file = env[SERVER_KEY_FILE_ENV];
  const value = env[SERVER_KEY_ENV];
  if (file !== undefined && value !== undefined) {
    throw new ServerKeyError(
      'ambiguous',
      `Both ${SERVER_KEY_FILE_ENV} and ${SERVER_KEY_ENV} are set: set only one of them.`,
    );
  }
  if (file !== undefined) {
    if (file === '') throw new ServerKeyError('unreadable', `${SERVER_KEY_FILE_ENV} is set but empty.`);
    return readServerKeyFile(file, platform);
  }
  if (value !== undefined) return parseServerKey(value, `The variable ${SERVER_KEY_ENV}`);
  if (options.required !== undefined) {
    throw new ServerKeyError(
      'missing',
      `${options.required} needs a server key to seal carrier secrets: give ${HOW_TO_GIVE_A_KEY}. ${makeOne()}`,
    );
  }
  return undefined;
}
