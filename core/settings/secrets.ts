// Secret settings (carrier credentials) at rest go through a SecretStore the host provides: the desktop
// passes one built on the OS keychain (Electron safeStorage); `serve` and `admin`, which have no keychain,
// pass plainSecrets. The store's settings repository applies it to secret settings only, on every read and
// write, so every path (carrier settings, settings:set, the registry, masked views) is covered alike.

/** A sealed value starts with this; a process that cannot open it treats the secret as not configured. */
export const SEALED_PREFIX = 'enc:';

export interface SecretStore {
  /** False where secrets stay plain text (no keychain): the UI and docs say so. */
  readonly encrypting: boolean;
  /** The stored form of a plain secret. */
  seal(plain: string): string;
  /** Plain text for the core; '' (= not configured) when a stored value cannot be opened here. */
  open(stored: string): string;
}

/**
 * No keychain: secrets stay plain text in the 0600 data file; a value sealed by the desktop app cannot be
 * opened here and reads as not configured (never sent to a carrier as a password).
 */
export const plainSecrets: SecretStore = {
  encrypting: false,
  seal: (plain) => plain,
  open: (stored) => (stored.startsWith(SEALED_PREFIX) ? '' : stored),
};
