// The simulators' pickup points of a town (#21), shared by the CDEK, Boxberry and DPD simulators, each of which
// writes them in its carrier's own record (simulators/<carrier>-points.ts). Deterministic: the same carrier and
// town always give the same points. Every town of the city table with 10,000 people or more has points; the
// first two lie within a kilometre of the centre and differ only in what they take, so the filter is testable in
// any town: point 0 a small one (the carrier's 15 kg kind), point 1 a large one (20 kg or more). The rest are
// drawn from the carrier's kinds, one a point per POINT_PEOPLE people up to MAX_POINTS (a real directory of
// Moscow has thousands; a sandbox list of 60 keeps answers small and still shows sorting by distance).
import { createHash } from 'node:crypto';
import { allCities, type City } from '../../locations/cities';

export const MIN_POPULATION = 10_000;
export const POINT_PEOPLE = 40_000;
export const MAX_POINTS = 60;

/** One kind of point a carrier has: its limits in the simulator's units (grams, cm), cash and card. */
export interface SimPointKind {
  kind: 'pvz' | 'postamat';
  maxWeightGrams: number;
  /** The largest box, cm, sorted longest first; null when the carrier publishes none for this kind. */
  box: [number, number, number] | null;
  cod: boolean;
  card: boolean;
  open: string;
  close: string;
}

export interface SimPickupPoint extends SimPointKind {
  /** The point's number in its town (0 is the nearest small one, 1 the nearest large one). */
  n: number;
  city: City;
  lat: number;
  lon: number;
  street: string;
  house: string;
  postalCode: string;
}

const STREETS = [
  'ул. Ленина',
  'пр-т Мира',
  'ул. Советская',
  'ул. Гагарина',
  'ул. Садовая',
  'ул. Победы',
  'ул. Московская',
  'пр-т Ленинградский',
  'ул. Молодёжная',
  'ул. Октябрьская',
  'ул. Заводская',
  'ул. Центральная',
];

function unit(seed: string): number {
  return createHash('sha1').update(seed).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The points of `city` for one carrier: `small` first (≤ 15 kg), `large` second (≥ 20 kg), then `others` drawn
 * in turn. Empty for towns under MIN_POPULATION.
 */
export function simTownPoints(
  carrier: string,
  city: City,
  kinds: { small: SimPointKind; large: SimPointKind; others: readonly SimPointKind[] },
): SimPickupPoint[] {
  if (city.population < MIN_POPULATION) return [];
  const count = Math.min(MAX_POINTS, Math.max(3, Math.ceil(city.population / POINT_PEOPLE)));
  const radiusKm = Math.max(2, 0.006 * Math.sqrt(city.population));
  const cos = Math.cos((city.lat * Math.PI) / 180);
  const points: SimPickupPoint[] = [];
  for (let n = 0; n < count; n++) {
    const seed = `${carrier}|${city.name}|${city.region}|${n}`;
    const kind =
      n === 0
        ? kinds.small
        : n === 1
          ? kinds.large
          : kinds.others[Math.floor(unit(`${seed} k`) * kinds.others.length)]!;
    // The first two within 0.3–0.9 km of the centre; the rest spread out, denser towards the middle.
    const r = n < 2 ? 0.3 + 0.3 * n + 0.2 * unit(`${seed} r`) : radiusKm * unit(`${seed} r`) ** 0.6;
    const angle = 2 * Math.PI * unit(`${seed} a`);
    const base = Number(city.postalCode ?? '100000');
    points.push({
      ...kind,
      n,
      city,
      lat: round6(city.lat + (r * Math.sin(angle)) / 111.32),
      lon: round6(city.lon + (r * Math.cos(angle)) / (111.32 * cos)),
      street: STREETS[Math.floor(unit(`${seed} s`) * STREETS.length)]!,
      house: String(1 + Math.floor(unit(`${seed} h`) * 150)),
      postalCode: String(base + Math.floor(unit(`${seed} z`) * 90)).padStart(6, '0'),
    });
  }
  return points;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

let byNameRegion: Map<string, City> | undefined;

/** The city table's row of a simulator's town (by its exact name and region), for its points. */
export function tableCity(name: string, region: string): City | undefined {
  if (!byNameRegion) {
    byNameRegion = new Map();
    for (const c of allCities()) {
      const key = `${c.name}|${c.region}`;
      if (!byNameRegion.has(key)) byNameRegion.set(key, c);
    }
  }
  return byNameRegion.get(`${name}|${region}`);
}
