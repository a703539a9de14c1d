// How an audit query's filters read (#20), for both stores alike: one source for what `keys` and `to` mean.
import type { AuditQuery } from './rows';

export interface AuditBounds {
  actor?: string;
  /** Exact operation name. */
  action?: string;
  /** An area `keys` matches `keys:…`: actions from `keys:` (inclusive) to `keys;` (exclusive), byte-wise. */
  actionFrom?: string;
  actionBefore?: string;
  /** `at >= from`, ISO-8601 UTC with milliseconds (the form `at` is kept in). */
  from?: string;
  /** `at < before`: the day after a date alone, a millisecond after a timestamp (both bounds inclusive). */
  before?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The query's filters as bounds on the stored text; RangeError for a bound that is no date or timestamp. */
export function auditBounds(query: AuditQuery): AuditBounds {
  const bounds: AuditBounds = {};
  if (query.actor !== undefined) bounds.actor = query.actor;
  if (query.action !== undefined) {
    if (query.action.includes(':')) bounds.action = query.action;
    else {
      // ':' + 1 is ';': every `area:…` sorts between the two, and nothing else does.
      bounds.actionFrom = `${query.action}:`;
      bounds.actionBefore = `${query.action};`;
    }
  }
  if (query.from !== undefined) bounds.from = instant(query.from, 'from');
  if (query.to !== undefined) {
    const to = Date.parse(instant(query.to, 'to'));
    bounds.before = new Date(to + (DATE.test(query.to.trim()) ? 24 * 60 * 60 * 1000 : 1)).toISOString();
  }
  return bounds;
}

function instant(text: string, which: 'from' | 'to'): string {
  const t = text.trim();
  const ms = Date.parse(DATE.test(t) ? `${t}T00:00:00.000Z` : t);
  if (Number.isNaN(ms))
    throw new RangeError(`audit "${which}" must be an ISO date or timestamp, not ${JSON.stringify(text)}`);
  return new Date(ms).toISOString();
}
