// Pickup points that take the parcel (#21): the carrier's point directory (cached, refreshed on a schedule),
// filtered by what the parcel needs, nearest to the town's centre first.
// SKELETON (issue-21): the points helper fills this in; the signature is what the service and /ext/v1 call.
import type { PointsQuery, PointsResponse } from '../contract/points';
import type { Store } from '../store/port';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';

export interface PointSearchDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Simulated carriers (sandbox) or the live ones. */
  sandbox(): boolean;
}

export type PointSearch = (query: PointsQuery, signal?: AbortSignal) => Promise<PointsResponse>;

export function createPointSearch(_deps: PointSearchDeps): PointSearch {
  return () => Promise.resolve({ points: [], filtered_out: 0, directory_fetched_at: null });
}
