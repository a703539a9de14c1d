// Carrier secrets at rest: encrypted with the OS keychain through Electron's safeStorage where it offers
// real protection, stored as `enc:<base64>`. The core keeps reading and writing plain text; the
// encryption sits in the settings repository of the store, so every path is covered alike: carriers:update,
// settings:set, the registry building the CDEK adapter, and the masked views (their last four characters
// are the secret's, not the ciphertext's).
//
// The core has no hook for this yet, so protectSecretSettings wraps the repository object in place; the
// intended core change (a `secretCodec` option of createRatingService passed down to settingsRepo) is
// described in docs/desktop.md, "Carrier credentials".
import { ENCRYPTED_SECRET_PREFIX } from '../../core/carriers/registry';
import { SETTINGS, isSettingName } from '../../core/settings/schema';
import type { SettingsRepo } from '../../core/store/settings';
import type { Logger } from '../../core/util/logger';

/** Shared with the core, which treats such a value as "not configured" where it cannot decrypt it. */
export const ENCRYPTED_PREFIX = ENCRYPTED_SECRET_PREFIX;

/** The parts of Electron's safeStorage used here (the synchronous API: settings are read synchronously). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
}

export interface SecretCodec {
  /** False where secrets stay plain text (no keychain): the UI and docs say so. */
  readonly encrypting: boolean;
  encode(plain: string): string;
  /** Plain text for the core; '' (= not configured) when a stored ciphertext cannot be opened here. */
  decode(stored: string): string;
}

export function isSecretSetting(name: string): boolean {
  return isSettingName(name) && SETTINGS[name].secret;
}

/**
 * On Linux without a keyring Chromium falls back to `basic_text`: a fixed, public password. Encrypting with
 * it would only look safe, so such machines keep the secret as plain text in the 0600 data file, like the
 * headless service does (research/reliability.md §5, "safeStorage").
 */
export function canEncrypt(safe: SafeStorageLike, platform: NodeJS.Platform): boolean {
  if (!safe.isEncryptionAvailable()) return false;
  if (platform === 'linux' && safe.getSelectedStorageBackend?.() === 'basic_text') return false;
  return true;
}

export function createSecretCodec(
  safe: SafeStorageLike,
  platform: NodeJS.Platform,
  logger: Logger,
): SecretCodec {
  const encrypting = canEncrypt(safe, platform);
  return {
    encrypting,
    encode(plain) {
      if (!encrypting || plain === '') return plain;
      return ENCRYPTED_PREFIX + safe.encryptString(plain).toString('base64');
    },
    decode(stored) {
      if (!stored.startsWith(ENCRYPTED_PREFIX)) return stored;
      try {
        return safe.decryptString(Buffer.from(stored.slice(ENCRYPTED_PREFIX.length), 'base64'));
      } catch {
        // Another user account, another machine, or a reset keychain: the secret is gone for us. The carrier
        // shows as not configured, and the user types the secret again.
        logger.warn('a stored carrier secret cannot be decrypted on this machine; enter it again');
        return '';
      }
    },
  };
}

/**
 * Makes the repository encrypt secret settings on write and decrypt them on read, then encrypts secrets an
 * earlier version, the admin CLI or a machine without a keychain left as plain text. Returns how many it
 * sealed that way.
 */
export function protectSecretSettings(repo: SettingsRepo, codec: SecretCodec, now: string): number {
  const { get, all, set } = repo;
  repo.get = (name) => {
    const value = get(name);
    return value !== undefined && isSecretSetting(name) ? codec.decode(value) : value;
  };
  repo.all = () => {
    const values = all();
    for (const [name, value] of values) if (isSecretSetting(name)) values.set(name, codec.decode(value));
    return values;
  };
  repo.set = (name, value, writtenAt) =>
    set(name, isSecretSetting(name) ? codec.encode(value) : value, writtenAt);

  if (!codec.encrypting) return 0;
  let sealed = 0;
  for (const [name, value] of all()) {
    if (isSecretSetting(name) && value !== '' && !value.startsWith(ENCRYPTED_PREFIX)) {
      repo.set(name, value, now);
      sealed++;
    }
  }
  return sealed;
}
