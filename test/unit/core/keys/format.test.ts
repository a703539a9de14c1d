import { describe, expect, it } from 'vitest';
import {
  digestKey,
  generateKey,
  hasValidChecksum,
  isPlausibleSecret,
  maskKey,
  RATEDESK_KEY_PATTERN,
} from '../../../../core/keys/format';
import { BASE62 } from '../../../../core/keys/base62';
import { crc32 } from '../../../../core/keys/crc32';

describe('API key format', () => {
  it('10,000 generated keys: unique, match the published pattern, valid checksums', () => {
    const keys = new Set(Array.from({ length: 10_000 }, generateKey));
    expect(keys.size).toBe(10_000);
    for (const k of keys) {
      expect(k).toMatch(RATEDESK_KEY_PATTERN);
      expect(k.length).toBe(4 + 32 + 6);
      expect(hasValidChecksum(k)).toBe(true);
    }
  });

  it('every single-character substitution is rejected by the checksum', () => {
    const key = generateKey();
    let rejected = 0;
    let tried = 0;
    for (let i = 4; i < key.length; i++) {
      for (const ch of BASE62) {
        if (ch === key[i]) continue;
        tried++;
        if (!hasValidChecksum(key.slice(0, i) + ch + key.slice(i + 1))) rejected++;
      }
    }
    expect(rejected).toBe(tried);
  });

  it('CRC-32 matches the IEEE reference value', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
  });

  it('plausibility: RateDesk keys need a checksum; foreign keys 20–200 printable chars', () => {
    expect(isPlausibleSecret(generateKey())).toBe(true);
    expect(isPlausibleSecret('rdk_' + 'a'.repeat(38))).toBe(false);
    expect(isPlausibleSecret('sk_live_' + 'x'.repeat(24))).toBe(true);
    expect(isPlausibleSecret('x'.repeat(19))).toBe(false);
    expect(isPlausibleSecret('x'.repeat(201))).toBe(false);
    expect(isPlausibleSecret('has space in it 1234567')).toBe(false);
  });

  it('digest is SHA-256 hex; mask shows the prefix and last four only', () => {
    const key = generateKey();
    expect(digestKey(key)).toMatch(/^[0-9a-f]{64}$/);
    const m = maskKey(key);
    expect(m.prefix).toBe(`${key.slice(0, 8)}…`);
    expect(m.lastFour).toBe(key.slice(-4));
  });
});
