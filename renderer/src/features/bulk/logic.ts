// The Bulk screen's pure parts (#21 item 6): the fields in the order the mapping shows them, a problem's
// words, and the service choices of a row.
import {
  BULK_FIELDS,
  type BulkChoice,
  type BulkMapping,
  type BulkProblem,
  type BulkRowResult,
} from '../../../../core/desk/contract';

export const MAPPING_FIELDS = BULK_FIELDS;

/** The mapping with `field` read from `column` (null: not in the file); a column serves one field at most. */
export function remap(mapping: BulkMapping, field: keyof BulkMapping, column: number | null): BulkMapping {
  const next: BulkMapping = { ...mapping };
  delete next[field];
  if (column !== null) next[field] = column;
  return next;
}

/** Parameters of a problem's message: the field in the UI's words, the value as found. */
export function problemParams(p: BulkProblem, fieldName: (f: string) => string): Record<string, string> {
  return { field: p.field ? fieldName(p.field) : '', value: p.value ?? '' };
}

/** A row's service key for the select: carrier and service code. */
export const choiceKey = (c: BulkChoice): string => `${c.carrier}\u0000${c.service_code}`;

export function choiceOf(key: string): BulkChoice {
  const [carrier = '', service_code = ''] = key.split('\u0000');
  return { carrier, service_code };
}

/** The service a row starts with: its cheapest. */
export function defaultChoice(row: BulkRowResult): BulkChoice | null {
  const r = row.cheapest === null ? undefined : row.rates[row.cheapest];
  return r ? { carrier: r.carrier, service_code: r.service_code } : null;
}

/** Rows in the file's order, a result replacing the row of the same line (progress events, then the answer). */
export function mergeRows(rows: readonly BulkRowResult[], row: BulkRowResult): BulkRowResult[] {
  const next = rows.filter((r) => r.line !== row.line);
  next.push(row);
  return next.sort((a, b) => a.line - b.line);
}
