// Carrier secrets sealed with the server key (server-key.ts): the SecretStore of `serve` and `admin`. A sealed
// value is `srv1:` + base64(nonce | ciphertext | tag), AES-256-GCM with the setting's name as associated data,
// so a value copied into another setting's row does not open there. Beside the secrets the settings keep the
// key's check value (KEY_CHECK_SETTING): a start with another key is refused at once, even before any secret
// was stored, and a start without a key is refused where secrets need one. docs/operations.md, "The server key".
import { timingSafeEqual } from 'node:crypto';
import type { SettingsStore } from '../store/port';
import { silentLogger, type Logger } from '../util/logger';
import { SEALED_PREFIX, SERVER_SEALED_PREFIX, type SecretStore } from './secrets';
import { HOW_TO_GIVE_A_KEY, ServerKeyError, type ServerKey } from './server-key';

/**
 * The settings row that holds the check value of the key the secrets are sealed with. Not a setting of
 * settings/schema.ts, so no operation lists, changes or resets it; it travels with the settings rows (a
 * backup, a move to another database).
 */
export const KEY_CHECK_SETTING = 'server_key.check';
const CHECK_PREFIX = 'check1:';

export const WRONG_KEY_MESSAGE =
  'The server key does not open the stored secrets (it is not the key they were sealed with). Give the key ' +
  `they were sealed with: ${HOW_TO_GIVE_A_KEY}.`;

export const MISSING_KEY_MESSAGE =
  'The carrier secrets in this database are sealed with a server key, and none was given: give ' +
  `${HOW_TO_GIVE_A_KEY}.`;

/** The value of KEY_CHECK_SETTING for `key`. */
export function keyCheckRow(key: ServerKey): string {
  return CHECK_PREFIX + key.checkValue();
}

const associated = (name: string): Buffer => Buffer.from(`${SERVER_SEALED_PREFIX}${name}`, 'utf8');

export interface ServerSecretStore extends SecretStore {
  readonly key: ServerKey | undefined;
}

/**
 * Seals with `key`; without one, secrets stay plain text (as before the server key existed) and a store
 * whose secrets need a key is refused at start. A stored value that does not open (sealed by the desktop's
 * keychain, damaged, or moved to another setting's row) reads as not configured, with one warning naming the
 * setting, never the value.
 */
export function serverSecrets(key: ServerKey | undefined, logger: Logger = silentLogger): ServerSecretStore {
  // Filled while prepare() reads every setting: what the opens met. prepare() decides what that means, so
  // nothing is logged before it passed (a wrong key is one refusal, not a warning per secret; a store may
  // read its settings as it opens, before the host calls prepare()).
  let seen: { serverSealed: number; unopened: Array<{ name: string; stored: string }> } | undefined;
  let prepared = false;
  const warned = new Set<string>();
  const warnOnce = (name: string, stored: string, message: string): void => {
    const id = `${name}\0${stored}`;
    if (!prepared || warned.has(id)) return;
    warned.add(id);
    logger.warn(message, { setting: name });
  };
  const damaged = (name: string, stored: string): void =>
    warnOnce(
      name,
      stored,
      'a stored carrier secret does not open with the server key (damaged, or copied from another ' +
        'setting): set it again',
    );

  return {
    key,
    encrypting: key !== undefined,
    seal(plain, name) {
      if (key === undefined || plain === '') return plain;
      const box = key.seal(Buffer.from(plain, 'utf8'), associated(name));
      return SERVER_SEALED_PREFIX + box.toString('base64');
    },
    open(stored, name) {
      if (stored.startsWith(SEALED_PREFIX)) {
        warnOnce(
          name,
          stored,
          "a carrier secret sealed by the desktop app's keychain cannot be opened here: set it again",
        );
        return '';
      }
      if (!stored.startsWith(SERVER_SEALED_PREFIX)) return stored;
      if (seen) seen.serverSealed++;
      const plain = key?.open(
        Buffer.from(stored.slice(SERVER_SEALED_PREFIX.length), 'base64'),
        associated(name),
      );
      if (plain === undefined) {
        seen?.unopened.push({ name, stored });
        if (key !== undefined) damaged(name, stored);
        return '';
      }
      return plain.toString('utf8');
    },
    async prepare(settings: SettingsStore, now: string) {
      const met: NonNullable<typeof seen> = { serverSealed: 0, unopened: [] };
      seen = met;
      let all: Map<string, string>;
      try {
        all = await settings.all();
      } finally {
        seen = undefined;
      }
      const stored = all.get(KEY_CHECK_SETTING);
      if (key === undefined) {
        if (stored !== undefined || met.serverSealed > 0) {
          throw new ServerKeyError('missing', MISSING_KEY_MESSAGE);
        }
      } else if (stored !== undefined) {
        if (!sameText(stored, keyCheckRow(key))) throw new ServerKeyError('wrong', WRONG_KEY_MESSAGE);
      } else {
        // No check value yet: the first start with a key, or secrets whose check value was removed. The key
        // is taken only if it opens every server-sealed secret there is.
        if (met.unopened.length > 0) throw new ServerKeyError('wrong', WRONG_KEY_MESSAGE);
        await settings.write([{ name: KEY_CHECK_SETTING, value: keyCheckRow(key) }], now);
        logger.info('server key: its check value is now stored with the settings');
      }
      prepared = true;
      // The right key, and still a secret that does not open: that one value was damaged or moved.
      for (const u of met.unopened) damaged(u.name, u.stored);
    },
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
