// History's pure helpers: reading the core's stable reason phrases back into kinds, and describing a price
// change. No DOM: unit-tested in Node.
import type { PriceChange, UnavailableKind } from '../../../../core/desk/contract';

/**
 * Stored quotes keep `unavailable[].reason` as the core's stable English phrase (docs/api.md). The UI shows
 * its own wording for each kind; an unknown phrase is shown as is.
 */
export function kindFromReason(reason: string): UnavailableKind | null {
  const r = reason.trim().toLowerCase();
  if (r === 'timeout') return 'timeout';
  if (r.startsWith('not configured')) return 'not_configured';
  if (r.startsWith('no service')) return 'no_service';
  if (r.startsWith('postal code required')) return 'postal_code_required';
  if (r.startsWith('carrier error')) return 'carrier_error';
  if (r === 'unknown carrier') return 'unknown_carrier';
  if (r.startsWith('disabled')) return 'disabled';
  return null;
}

export type ChangeKind = 'same' | 'up' | 'down' | 'new' | 'gone';

export interface DescribedChange {
  kind: ChangeKind;
  /** after − before in kopecks; null when one side is missing. */
  delta: number | null;
}

export function describeChange(c: Pick<PriceChange, 'before_kopecks' | 'after_kopecks'>): DescribedChange {
  if (c.before_kopecks === null && c.after_kopecks === null) return { kind: 'same', delta: null };
  if (c.before_kopecks === null) return { kind: 'new', delta: null };
  if (c.after_kopecks === null) return { kind: 'gone', delta: null };
  const delta = c.after_kopecks - c.before_kopecks;
  return { kind: delta > 0 ? 'up' : delta < 0 ? 'down' : 'same', delta };
}

/** A file from history:export (base64) as bytes for a Blob. */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
