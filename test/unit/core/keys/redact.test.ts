// A key pasted as a property name must not come back in an error message (found by the secrets suite).
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../../../core/operations';
import { issuesToDetails } from '../../../../core/api/rates';
import { generateKey } from '../../../../core/keys/format';
import { REDACTED, safePropertyName } from '../../../../core/keys/redact';

const key = generateKey();
const schema = z.strictObject({ keys: z.record(z.string(), z.int()), name: z.string() });

describe('safePropertyName', () => {
  it('keeps ordinary names and hides key-like ones', () => {
    expect(safePropertyName('weight_grams')).toBe('weight_grams');
    expect(safePropertyName(3)).toBe('3');
    expect(safePropertyName(key)).toBe(REDACTED);
    expect(safePropertyName('rdk_x')).toBe(REDACTED);
    expect(safePropertyName('a'.repeat(20))).toBe(REDACTED);
  });
});

describe('error messages never repeat a key used as a property name', () => {
  const failure = schema.safeParse({ [key]: 'production', keys: { [key]: 'x' }, name: 'n' }).error!;
  it('admin (CLI and desk)', () => {
    const message = describeIssues(failure);
    expect(message).not.toContain(key.slice(4, 20));
    expect(message).toContain('unknown property');
    expect(message).toContain(REDACTED);
  });
  it('/v1 validation details', () => {
    const details = issuesToDetails(failure);
    expect(JSON.stringify(details)).not.toContain(key.slice(4, 20));
    expect(details.map((d) => d.path)).toContain(REDACTED);
  });
  it('ordinary unknown properties are still named', () => {
    const message = describeIssues(schema.safeParse({ keys: {}, name: 'n', colour: 1 }).error!);
    expect(message).toBe('unknown property "colour"');
  });
});
