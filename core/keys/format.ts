// RateDesk API key format (design.md): `rdk_` + 32 base62 random chars + 6-char base62 CRC32 of the random
// part. The checksum lets us reject typos and look-alikes before touching the database.
import { hash, timingSafeEqual } from 'node:crypto';
import { randomBase62, uint32ToBase62 } from './base62';
import { crc32 } from './crc32';

import { FOREIGN_KEY_PATTERN, KEY_PREFIX, RATEDESK_KEY_PATTERN } from '../contract/key-shape';

export { FOREIGN_KEY_PATTERN, KEY_PREFIX, RATEDESK_KEY_PATTERN };
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

export function generateKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${KEY_PREFIX}${random}${uint32ToBase62(crc32(random), CHECKSUM_LENGTH)}`;
}

export function isRatedeskKeyShape(secret: string): boolean {
  return secret.startsWith(KEY_PREFIX);
}

/** True when the secret is a well-formed RateDesk key whose checksum matches. */
export function hasValidChecksum(secret: string): boolean {
  const m = RATEDESK_KEY_PATTERN.exec(secret);
  if (!m) return false;
  return uint32ToBase62(crc32(m[1]!), CHECKSUM_LENGTH) === m[2];
}

/**
 * Cheap offline check run before any database lookup: a RateDesk-looking key must carry a valid checksum;
 * anything else must at least look like an importable foreign key.
 */
export function isPlausibleSecret(secret: string): boolean {
  if (isRatedeskKeyShape(secret)) return hasValidChecksum(secret);
  return FOREIGN_KEY_PATTERN.test(secret);
}

/**
 * SHA-256 is enough for ≥128-bit random secrets (no dictionary to attack); stored as hex. The one-shot
 * crypto.hash is a third of createHash's cost, and this runs on every /v1 request.
 */
export function digestKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What may be shown after creation: `rdk_AbCd…` and the last four characters. */
export function maskKey(secret: string): { prefix: string; lastFour: string } {
  const visible = isRatedeskKeyShape(secret) ? KEY_PREFIX.length + 4 : 4;
  return { prefix: `${secret.slice(0, visible)}…`, lastFour: secret.slice(-4) };
}
