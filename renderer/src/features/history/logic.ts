// History's pure helpers: describing a price change, and the export file's bytes. No DOM: unit-tested in
// Node. (Reading old English reasons back into kinds is the core's job: core/contract/unavailable.ts.)
import type { CarrierFailure, HistoryRow, PriceChange } from '../../../../core/desk/contract';

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

/** A file from history:export (base64) as bytes for a Blob: the one decoder, lib/base64.ts. */
export { base64ToBytes } from '../../lib/base64';

/** How many carriers of a stored quote answered, of those asked (a partial answer reads «3 из 8»). */
export function answeredOf(row: Pick<HistoryRow, 'carriers' | 'failures'>): {
  answered: number;
  asked: number;
} {
  const asked = new Set([...row.carriers, ...row.failures.map((f) => f.carrier)]);
  return { answered: row.carriers.length, asked: asked.size };
}

/** One change after a re-run: a price that moved, a service that appeared or went. */
export type ChangeLine = PriceChange & { kind: Exclude<ChangeKind, 'same'>; delta: number | null };

export interface RerunSummary {
  /** The services whose price moved, appeared or went, in the core's order. */
  changed: ChangeLine[];
  /** Services at the same price: said once («без изменений»), not per row. */
  unchanged: number;
  /**
   * Carriers that gave no rate this time. Their services are not listed as «больше не предлагается» one by
   * one (#17): the carrier is named once, with why.
   */
  failures: CarrierFailure[];
}

export function summariseRerun(
  changes: readonly PriceChange[],
  failures: readonly CarrierFailure[],
): RerunSummary {
  const failed = new Set(failures.map((f) => f.carrier));
  const changed: ChangeLine[] = [];
  let unchanged = 0;
  for (const c of changes) {
    const d = describeChange(c);
    if (d.kind === 'same') unchanged += 1;
    else if (d.kind === 'gone' && failed.has(c.carrier)) continue;
    else changed.push({ ...c, kind: d.kind, delta: d.delta });
  }
  return { changed, unchanged, failures: [...failures] };
}

/** History's author and warehouse filters (#20): an empty value is «все». */
export interface HistoryFilter {
  author: string;
  warehouse: string;
}

export const NO_FILTER: HistoryFilter = { author: '', warehouse: '' };

/** The filter as history:search / history:export take it: only what is set. */
export function filterInput(f: HistoryFilter): { author?: string; warehouse?: string } {
  return {
    ...(f.author !== '' ? { author: f.author } : {}),
    ...(f.warehouse !== '' ? { warehouse: f.warehouse } : {}),
  };
}

/**
 * The choices a filter offers: the names already known (the warehouses list, names seen before) and those in
 * the rows on screen, each once, sorted for the UI language; the chosen one stays listed even when no row
 * shows it now (so the select can show what it filters by).
 */
export function filterChoices(
  known: readonly string[],
  rows: readonly (string | null)[],
  chosen: string,
  lang: 'ru' | 'en',
): string[] {
  const all = new Set<string>();
  for (const n of [...known, ...rows, chosen]) if (n) all.add(n);
  return [...all].sort((a, b) => a.localeCompare(b, lang === 'ru' ? 'ru' : 'en'));
}

/** Whether a column has anything to show: a desk without warehouses or users never sees the column. */
export function anyValue(rows: readonly HistoryRow[], key: 'author' | 'warehouse'): boolean {
  return rows.some((r) => r[key] !== null && r[key] !== '');
}
