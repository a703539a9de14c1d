// Kinds travel end to end; the English reason exists only on the /v1 wire. Quotes stored with reasons only
// (/v1 rows, older desk rows) are read back into kinds here, once (moved from the renderer in #9).
import { describe, expect, it } from 'vitest';
import { failureFromReason, reasonText, UnavailableKind } from '../../../../core/contract/unavailable';

describe('failureFromReason', () => {
  it('reads every reason phrase back into its kind (and the detail after a colon)', () => {
    for (const kind of UnavailableKind.options) {
      expect(failureFromReason('x', reasonText({ kind })).kind).toBe(kind);
      const withDetail = failureFromReason('x', reasonText({ kind, detail: 'something' }));
      expect(withDetail.kind).toBe(kind);
      if (kind === 'carrier_error' || kind === 'not_configured') expect(withDetail.detail).toBe('something');
    }
  });

  it('keeps an unknown phrase as the detail of a carrier error, never as a kind of its own', () => {
    expect(failureFromReason('cdek', 'the moon is full')).toEqual({
      carrier: 'cdek',
      kind: 'carrier_error',
      detail: 'the moon is full',
    });
  });
});
