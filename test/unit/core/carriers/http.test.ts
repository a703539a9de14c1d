// Retry-After as the carrier HTTP client reads it (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../../core/carriers/http';

const NOW = Date.parse('2026-11-25T10:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('30', NOW)).toBe(30_000);
    expect(parseRetryAfter(' 1 ', NOW)).toBe(1_000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(['5', '7'], NOW)).toBe(5_000);
  });

  it('reads an HTTP-date as the time left until then, never negative', () => {
    expect(parseRetryAfter('Wed, 25 Nov 2026 10:00:45 GMT', NOW)).toBe(45_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 09:59:00 GMT', NOW)).toBe(0);
  });

  it('caps a long wait at ten minutes', () => {
    expect(parseRetryAfter('86400', NOW)).toBe(600_000);
    expect(parseRetryAfter('Thu, 26 Nov 2026 10:00:00 GMT', NOW)).toBe(600_000);
  });

  it('ignores what it cannot read', () => {
    for (const v of [undefined, '', 'soon', '-5', '1.5', []]) expect(parseRetryAfter(v, NOW)).toBeNull();
  });
});
