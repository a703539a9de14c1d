// A value's fingerprint: SHA-256 of its canonical JSON (keys sorted, undefined members left out), so the same
// value written differently has the same fingerprint. The /v1 idempotency record compares requests by it
// (core/api/idempotency.ts) and the rate cache keys shipments by it (core/rating/aggregator.ts); it lives down
// here so that rating does not import the /v1 listener's modules (docs/architecture.md, "Layers").
import { createHash } from 'node:crypto';

/** SHA-256 of the validated request, keys sorted: the same shipment written differently is the same request. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
