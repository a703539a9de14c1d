import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CROCKFORD_BASE32,
  DEVICE_TOKEN_PATTERN,
  digestDeviceToken,
  digestEnrolmentCode,
  generateDeviceId,
  generateDeviceToken,
  generateEnrolmentCode,
  normaliseEnrolmentCode,
} from '../../../../core/keys/desk-credentials';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('desk credentials', () => {
  it('enrolment codes: XXXX-XXXX-XXXX of Crockford base32, unique, every letter of the alphabet used', () => {
    const codes = new Set(Array.from({ length: 5_000 }, generateEnrolmentCode));
    expect(codes.size).toBe(5_000);
    const seen = new Set<string>();
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      for (const ch of code.replace(/-/g, '')) seen.add(ch);
    }
    expect([...seen].sort().join('')).toBe([...CROCKFORD_BASE32].sort().join(''));
  });

  it('a code typed in lower case, without dashes, with spaces or look-alikes has the same digest', () => {
    const code = 'AB1C-D0EF-GH2J';
    const digest = digestEnrolmentCode(code);
    expect(digest).toBe(sha256('AB1CD0EFGH2J'));
    for (const typed of [
      'ab1c-d0ef-gh2j',
      'AB1CD0EFGH2J',
      ' ab1c d0ef gh2j ',
      'ABIC-DOEF-GH2J',
      'ablc-doef-gh2j',
    ]) {
      expect(digestEnrolmentCode(typed)).toBe(digest);
    }
    expect(digestEnrolmentCode('AB1C-D0EF-GH2K')).not.toBe(digest);
    expect(normaliseEnrolmentCode('il-o')).toBe('110');
  });

  it('device tokens: rdd_ + 43 base62, unique; the digest is SHA-256 hex of the token', () => {
    const tokens = new Set(Array.from({ length: 5_000 }, generateDeviceToken));
    expect(tokens.size).toBe(5_000);
    for (const t of tokens) expect(t).toMatch(DEVICE_TOKEN_PATTERN);
    const t = generateDeviceToken();
    expect(digestDeviceToken(t)).toBe(sha256(t));
    expect(digestDeviceToken(t)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('device ids are short, public and unique', () => {
    const ids = new Set(Array.from({ length: 1_000 }, generateDeviceId));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(id).toMatch(/^dev_[0-9A-Za-z]{12}$/);
  });
});
