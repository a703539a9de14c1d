// Company desks' credentials (#20): the one-time enrolment code an admin reads out to a clerk, and the device
// token the desk trades it for. Only SHA-256 digests of either are stored; both carry enough randomness
// (60 bits for a short-lived single-use code, 256 for the token) that a plain hash is the right digest.
import { hash, randomBytes } from 'node:crypto';
import { randomBase62 } from './base62';

/** Crockford's base32: no I, L, O or U, so a code read aloud or retyped from paper survives. */
export const CROCKFORD_BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;
const CODE_GROUP = 4;

export const DEVICE_TOKEN_PREFIX = 'rdd_';
const TOKEN_RANDOM_LENGTH = 43; // 62^43 > 2^256
export const DEVICE_TOKEN_PATTERN = /^rdd_[0-9A-Za-z]{43}$/;

/** A fresh code as shown to the admin: `XXXX-XXXX-XXXX`. */
export function generateEnrolmentCode(): string {
  // 256 is a multiple of 32, so the low five bits of each byte are uniform: no modulo bias.
  const bytes = randomBytes(CODE_LENGTH);
  let raw = '';
  for (const b of bytes) raw += CROCKFORD_BASE32[b & 31];
  const groups: string[] = [];
  for (let i = 0; i < raw.length; i += CODE_GROUP) groups.push(raw.slice(i, i + CODE_GROUP));
  return groups.join('-');
}

/**
 * A code as typed back to its canonical form: upper case, dashes and spaces dropped, and Crockford's
 * look-alikes read as digits (I and L as 1, O as 0), so `abcd-efgh-jk0o` and `ABCDEFGHJK00` are one code.
 */
export function normaliseEnrolmentCode(typed: string): string {
  return typed
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
}

/** What the store keeps for a code: SHA-256 hex of its normal form. */
export function digestEnrolmentCode(typed: string): string {
  return hash('sha256', normaliseEnrolmentCode(typed), 'hex');
}

/** A fresh device token: `rdd_` + 43 base62 characters (256 bits). Shown to the desk once. */
export function generateDeviceToken(): string {
  return `${DEVICE_TOKEN_PREFIX}${randomBase62(TOKEN_RANDOM_LENGTH)}`;
}

/** What the store keeps for a device token: SHA-256 hex. */
export function digestDeviceToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A device's public id (in `devices list`, the audit log): not a secret, short enough to type. */
export function generateDeviceId(): string {
  return `dev_${randomBase62(12)}`;
}
