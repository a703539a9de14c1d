// A carrier's own directory of pickup points (#21): what one town's points are, as the carrier publishes them
// (address, hours, coordinates, limits, cash and card), read by each carrier's client in its folder
// (cdek/points.ts, boxberry/points.ts, …) and kept between refreshes through the store's `pointDirectories`
// slice (declared here, where the directories live, as LocationCache is in core/locations). The search over
// them (filtering by the parcel, distance, the refresh schedule) is core/points/.
import type { PickupPoint } from '../contract/points';
import type { CarrierAdapter } from './types';

/** A point as every directory is mapped to it: the contract's point without the distance (the search adds it). */
export interface DirectoryPoint extends Omit<PickupPoint, 'carrier' | 'distance_km'> {
  /**
   * Limits some carriers publish beside weight and box, the search filters by them too (never sent): Boxberry's
   * VolumeLimit (m³, here cm³), DPD's dimensionSum (cm) and maxShipmentWeight (the whole shipment, grams).
   */
  max_volume_cm3?: number | null;
  max_dimension_sum_cm?: number | null;
  max_shipment_weight_grams?: number | null;
}

/** The town whose points are asked for: the city table's row when it knows the town, else what was typed. */
export interface DirectoryTown {
  city: string;
  region: string | null;
  postalCode: string | null;
  /** The town's centre (city table), for carriers whose directory is asked by a map window (Яндекс). */
  centre: { lat: number; lon: number } | null;
  /** The city table's 13-digit KLADR code (DPD names towns by it); null for a town the table lacks. */
  kladrId: string | null;
}

/** Why a directory could not be read: the search keeps the old copy and says this when it has none. */
export class PointDirectoryError extends Error {
  override readonly name = 'PointDirectoryError';
  constructor(
    readonly kind: 'carrier_error' | 'not_configured' | 'town_not_found',
    message: string,
  ) {
    super(message);
  }
}

export interface CarrierPointDirectory {
  /**
   * Carrier and host (and account where the list depends on it): the simulator's made-up points must never
   * answer for the live API, as with the location cache's namespaces.
   */
  readonly namespace: string;
  /**
   * Every point of the town the carrier lists (not yet filtered by any parcel). A town the carrier has no
   * point in is an empty list; a failure is a PointDirectoryError (or the signal's reason).
   */
  fetch(town: DirectoryTown, signal: AbortSignal): Promise<DirectoryPoint[]>;
}

/** One town's directory as kept: the points and when they were fetched. */
export interface StoredDirectory {
  fetchedAtMs: number;
  points: DirectoryPoint[];
}

/**
 * Where directories are kept between refreshes: the store's `pointDirectories` slice (table
 * point_directories, SQLite migration 0009 and PostgreSQL 0004), memory in tests. One row per (namespace, town).
 */
export interface PointDirectoryStore {
  get(namespace: string, townKey: string): Promise<StoredDirectory | undefined>;
  /** Replaces the town's directory whole. */
  put(namespace: string, townKey: string, directory: StoredDirectory): Promise<void>;
}

export function memoryPointDirectoryStore(): PointDirectoryStore {
  const rows = new Map<string, StoredDirectory>();
  const id = (namespace: string, townKey: string): string => JSON.stringify([namespace, townKey]);
  return {
    get: async (namespace, townKey) => rows.get(id(namespace, townKey)),
    async put(namespace, townKey, directory) {
      rows.set(id(namespace, townKey), { fetchedAtMs: directory.fetchedAtMs, points: [...directory.points] });
    },
  };
}

/** Sides sorted longest first (how every box and every point's largest box is compared). */
export function sortedSides(a: number, b: number, c: number): [number, number, number] {
  return [a, b, c].sort((x, y) => y - x) as [number, number, number];
}

/** "55.75,37.62" (Boxberry's GPS) or two numbers → coordinates; null when unreadable or (0, 0). */
export function coordinates(lat: unknown, lon: unknown): { lat: number | null; lon: number | null } {
  const a = typeof lat === 'string' ? Number(lat.trim()) : lat;
  const b = typeof lon === 'string' ? Number(lon.trim()) : lon;
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b)) {
    return { lat: null, lon: null };
  }
  if ((a === 0 && b === 0) || Math.abs(a) > 90 || Math.abs(b) > 180) return { lat: null, lon: null };
  return { lat: a, lon: b };
}

/** The adapter with its directory beside it (each carrier's heavy half, carrier.ts): the quote path untouched. */
export function withPoints(adapter: CarrierAdapter, points: CarrierPointDirectory): CarrierAdapter {
  return Object.assign(adapter, { points });
}
