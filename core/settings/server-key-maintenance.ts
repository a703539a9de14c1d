// What an operator does with the server key besides giving it (admin `server-key check | rotate | forget`):
// see what the stored secrets are sealed with, reseal them all with a new key, or clear the ones a lost key
// sealed. Each works on settings stores opened with a SecretCensus, which sees the stored form of every
// secret as the store opens it; plain text leaves this module only as the values written back, sealed.
import { isSealedValue, SEALED_PREFIX, SERVER_SEALED_PREFIX, type SecretStore } from './secrets';
import { ServerKeyError, type ServerKey } from './server-key';
import { KEY_CHECK_SETTING, keyCheckRow, type ServerSecretStore } from './server-secrets';
import type { SettingsStore } from '../store/port';

export type SealedWith = 'server key' | 'keychain' | 'plain text';

export interface StoredSecret {
  name: string;
  sealedWith: SealedWith;
  /** Whether this process opened it (plain text always does). */
  opened: boolean;
}

/**
 * A secret store that passes everything to `inner` and notes, for each secret the store opens, how it is
 * stored and whether it opened. Never notes a value, sealed or plain.
 */
export class SecretCensus implements ServerSecretStore {
  private noted = new Map<string, StoredSecret>();

  constructor(private readonly inner: ServerSecretStore) {}

  get key(): ServerKey | undefined {
    return this.inner.key;
  }

  get encrypting(): boolean {
    return this.inner.encrypting;
  }

  seal(plain: string, name: string): string {
    return this.inner.seal(plain, name);
  }

  open(stored: string, name: string): string {
    const plain = this.inner.open(stored, name);
    if (stored !== '') {
      const sealedWith: SealedWith = stored.startsWith(SERVER_SEALED_PREFIX)
        ? 'server key'
        : stored.startsWith(SEALED_PREFIX)
          ? 'keychain'
          : 'plain text';
      this.noted.set(name, { name, sealedWith, opened: plain !== '' || !isSealedValue(stored) });
    }
    return plain;
  }

  prepare(settings: SettingsStore, now: string): Promise<void> {
    return this.inner.prepare?.(settings, now) ?? Promise.resolve();
  }

  /** Reads every setting and returns the secrets it met (name order), with the plain values of those opened. */
  async take(settings: SettingsStore): Promise<{ secrets: StoredSecret[]; plain: Map<string, string> }> {
    this.noted = new Map();
    const all = await settings.all();
    const secrets = [...this.noted.values()].sort((a, b) => a.name.localeCompare(b.name));
    const plain = new Map<string, string>();
    for (const s of secrets) if (s.opened) plain.set(s.name, all.get(s.name) ?? '');
    return { secrets, plain };
  }
}

/**
 * Reseals every stored secret with `next`, in one write with its check value: after it only `next` opens
 * them. `from` is a store opened with the current key (and checked: prepare() passed); `to` the same
 * database opened with `next`'s secret store. Refused, with nothing written, while a secret does not open with
 * the current key (it could not be carried over): the names say which to set again or reset first.
 */
export async function rotateServerKey(
  from: { settings: SettingsStore; census: SecretCensus },
  to: { settings: SettingsStore; secrets: SecretStore },
  next: ServerKey,
  now: string,
): Promise<{ resealed: string[] }> {
  const current = from.census.key;
  if (current === undefined) {
    throw new ServerKeyError('missing', 'server-key rotate needs the current key as well as the new one.');
  }
  if (current.checkValue() === next.checkValue()) {
    throw new ServerKeyError('malformed', 'The new key is the current key: nothing to rotate.');
  }
  const { secrets, plain } = await from.census.take(from.settings);
  const stuck = secrets.filter((s) => !s.opened).map((s) => `${s.name} (${s.sealedWith})`);
  if (stuck.length > 0) {
    throw new ServerKeyError(
      'wrong',
      `These secrets do not open with the current key and could not be carried over: ${stuck.join(', ')}. ` +
        'Set them again (carriers secret CODE) or reset them (settings reset NAME), then rotate. Nothing was changed.',
    );
  }
  const writes = [...plain].map(([name, value]) => ({ name, value }));
  // One write: the secrets sealed with the new key and the new check value, all or nothing.
  await to.settings.write([...writes, { name: KEY_CHECK_SETTING, value: keyCheckRow(next) }], now);
  return { resealed: writes.map((w) => w.name) };
}

/**
 * For a lost key: removes every secret sealed with a server key (no one can open them any more) and the check
 * value, so that the next start takes a new key. Refused when `given` is the key they were sealed with.
 */
export async function forgetServerKey(
  settings: SettingsStore,
  census: SecretCensus,
  given: ServerKey | undefined,
  now: string,
): Promise<{ cleared: string[] }> {
  const storedCheck = await settings.get(KEY_CHECK_SETTING);
  if (given !== undefined && storedCheck !== undefined && storedCheck === keyCheckRow(given)) {
    throw new ServerKeyError(
      'wrong',
      'The key given opens the stored secrets: it is not lost. To change it, use server-key rotate. Nothing was changed.',
    );
  }
  const { secrets } = await census.take(settings);
  const cleared = secrets.filter((s) => s.sealedWith === 'server key').map((s) => s.name);
  await settings.write(
    [...cleared.map((name) => ({ name, value: null })), { name: KEY_CHECK_SETTING, value: null }],
    now,
  );
  return { cleared };
}
