// Secret settings (carrier credentials) at rest go through a SecretStore the host provides: the desktop
// passes one built on the OS keychain (Electron safeStorage); `serve` and `admin` pass one sealed with the
// server key (server-secrets.ts), or plain text when no key is given. The store's settings repository applies
// it to secret settings only, on every read and write, so every path (carrier settings, settings:set, the
// registry, masked views) is covered alike.
import type { SettingsStore } from '../store/port';

/** A value sealed by the desktop's keychain starts with this. */
export const SEALED_PREFIX = 'enc:';
/** A value sealed with a server key starts with this (server-secrets.ts). */
export const SERVER_SEALED_PREFIX = 'srv1:';

/**
 * Whether a stored value is sealed by any host, whichever can open it: such a value is never taken for plain
 * text (sent to a carrier as a password, or sealed a second time).
 */
export function isSealedValue(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX) || stored.startsWith(SERVER_SEALED_PREFIX);
}

export interface SecretStore {
  /** False where secrets stay plain text (no keychain, no server key): the UI and docs say so. */
  readonly encrypting: boolean;
  /**
   * The stored form of a plain secret. `name` is the setting it is stored under: a store may bind the sealed
   * value to it, so that a value copied to another setting's row does not open there.
   */
  seal(plain: string, name: string): string;
  /** Plain text for the core; '' (= not configured) when a stored value cannot be opened here. */
  open(stored: string, name: string): string;
  /**
   * Run once when a host opens the store, before anything else reads or writes a secret: refuses a store this
   * one cannot serve (throws, with the message a user sees) and writes what it needs (the server key's check
   * value). Absent where there is nothing to check (the keychain, plain text).
   */
  prepare?(settings: SettingsStore, now: string): Promise<void>;
}

/**
 * No keychain: secrets stay plain text in the 0600 data file; a value sealed elsewhere (the desktop app, a
 * server key) cannot be opened here and reads as not configured (never sent to a carrier as a password).
 */
export const plainSecrets: SecretStore = {
  encrypting: false,
  seal: (plain) => plain,
  open: (stored) => (isSealedValue(stored) ? '' : stored),
};

/**
 * What every host does when it opens a store: the secret store's own check, then the plain secrets an earlier
 * version, the admin CLI or a machine without a keychain left are sealed. Returns how many were sealed.
 */
export async function prepareSecrets(
  settings: SettingsStore,
  secrets: SecretStore,
  now: string,
): Promise<number> {
  await secrets.prepare?.(settings, now);
  return settings.sealPlainSecrets(now);
}
