// Where the 5Post catalogue is kept between downloads: the data file's fivepost_* tables (migration 0007) in
// the running service (the store's PickupCatalogueStore, core/store/sqlite/pickup-catalogue.ts, passed in as this
// interface), a process-wide memory map otherwise (tests, adapters built without a store). Keyed by namespace
// (carrier and host).
import type { StoredPoint } from './points';

export interface CatalogueMeta {
  refreshedAtMs: number;
  points: number;
  unreadable: number;
}

export interface FivePostCatalogueStore {
  meta(namespace: string): Promise<CatalogueMeta | undefined>;
  /**
   * Replaces the namespace's catalogue whole (one transaction in SQLite, which also drops catalogues abandoned
   * for a week).
   */
  replace(namespace: string, points: readonly StoredPoint[], nowMs: number): Promise<void>;
  byZip(namespace: string, zip: string): Promise<StoredPoint[]>;
  byCity(namespace: string, cityKey: string): Promise<StoredPoint[]>;
}

const shared = new Map<string, { meta: CatalogueMeta; points: StoredPoint[] }>();

export function memoryCatalogueStore(): FivePostCatalogueStore {
  return {
    meta: async (namespace) => shared.get(namespace)?.meta,
    async replace(namespace, points, nowMs) {
      shared.set(namespace, { meta: catalogueMetaOf(points, nowMs), points: [...points] });
    },
    byZip: async (namespace, zip) => shared.get(namespace)?.points.filter((p) => p.zip === zip) ?? [],
    byCity: async (namespace, cityKey) =>
      shared.get(namespace)?.points.filter((p) => p.cityKey === cityKey) ?? [],
  };
}

/** What a catalogue of these points says of itself (the memory store and the store's slice both count so). */
export function catalogueMetaOf(points: readonly StoredPoint[], nowMs: number): CatalogueMeta {
  const unreadable = points.filter((p) => p.point === null).length;
  return { refreshedAtMs: nowMs, points: points.length - unreadable, unreadable };
}
