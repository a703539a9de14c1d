// Carrier secrets at rest: encrypted with the OS keychain through Electron's safeStorage where it offers
// real protection, stored as `enc:<base64>`. This is the desktop's SecretStore (core/settings/secrets.ts):
// createRatingService takes it and the store's settings repository applies it to secret settings on every
// read and write, so every path is covered alike (carriers:update, settings:set, the registry building the
// CDEK adapter, the masked views), and secrets left as plain text are sealed at start.
import { isSealedValue, SEALED_PREFIX, type SecretStore } from '../../core/settings/secrets';
import type { Logger } from '../../core/util/logger';

/** Shared with the core, which treats such a value as "not configured" where it cannot open it. */
export const ENCRYPTED_PREFIX = SEALED_PREFIX;

/** The parts of Electron's safeStorage used here (the synchronous API: settings are read synchronously). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
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

export function keychainSecrets(
  safe: SafeStorageLike,
  platform: NodeJS.Platform,
  logger: Logger,
): SecretStore {
  const encrypting = canEncrypt(safe, platform);
  return {
    encrypting,
    seal(plain) {
      if (!encrypting || plain === '') return plain;
      return ENCRYPTED_PREFIX + safe.encryptString(plain).toString('base64');
    },
    open(stored) {
      // Sealed elsewhere (a company server's key): never taken for plain text; reads as not configured.
      if (!stored.startsWith(ENCRYPTED_PREFIX)) return isSealedValue(stored) ? '' : stored;
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
