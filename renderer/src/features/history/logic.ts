// History's pure helpers: describing a price change, and the export file's bytes. No DOM: unit-tested in
// Node. (Reading old English reasons back into kinds is the core's job: core/contract/unavailable.ts.)
import type { PriceChange } from '../../../../core/desk/contract';

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
