// A rate card as a carrier: quotes from its rows in memory, no network. For each service of the card the
// row that applies is the most specific route (from first, then to: city, then the longest postal prefix,
// then *) among the rows whose band can carry the billable weight, and within that route the smallest band.
// docs/carriers.md ("Rate cards") states the same rules for people.
import type { Parcel, Rate } from '../contract/v1';
import type { CarrierAdapter, CarrierOutcome, QuoteLocation } from '../carriers/types';
import { tableCities, type CityLookup } from './cities';
import { serviceKey, type Place, type RateCardRow } from './parse';

export interface RateCard {
  code: string;
  name: string;
  volumetricDivisor: number;
  rows: readonly RateCardRow[];
}

/** How well a place matched: -1 not at all; any 0; a prefix its length (1–6); a city 7. */
type Rank = number;
const CITY_RANK = 7;

interface CompiledPlace {
  rank(at: Located): Rank;
}

interface Located {
  /** The city the city field finds for the location's name (and postal hint), or null. */
  cityKey: string | null;
  /** The postal code given, else the city's main index. */
  postalCode: string | null;
}

interface CompiledRow {
  row: RateCardRow;
  service: string;
  from: CompiledPlace;
  to: CompiledPlace;
}

/**
 * Billable weight in grams: the larger of the actual weight and L×W×H / divisor kg (cm³ per kg), rounded up
 * to the gram. The epsilon keeps 30×20×10 / 5000 at 1200 g, not 1201 g, when the float product is a hair over.
 */
export function billableWeightGrams(parcel: Parcel, divisor: number): number {
  const volumetric = (parcel.length_cm * parcel.width_cm * parcel.height_cm * 1000) / divisor;
  return Math.max(parcel.weight_grams, Math.ceil(volumetric - 1e-9));
}

/**
 * The declared-value charge in kopecks: `bp` hundredths of a percent of the declared value, rounded half up
 * to the kopeck, in integers (declared ≤ 10¹¹ kopecks × bp ≤ 10⁴ stays below 2⁵³).
 */
export function declaredValueCharge(declaredKopecks: number, bp: number): number {
  return Math.floor((declaredKopecks * bp + 5000) / 10000);
}

export function createRateCardAdapter(card: RateCard, cities: CityLookup = tableCities): CarrierAdapter {
  const compile = (place: Place): CompiledPlace => {
    if (place.kind === 'any') return { rank: () => 0 };
    if (place.kind === 'prefix') {
      const { prefix } = place;
      return { rank: (at) => (at.postalCode?.startsWith(prefix) ? prefix.length : -1) };
    }
    // Resolved once, as the file wrote it: the shipment's city then matches when the city field finds the
    // same city for it. A name the table no longer knows (a newer table) simply never matches.
    const key = cities.find(place.name)?.key ?? null;
    return { rank: (at) => (key !== null && at.cityKey === key ? CITY_RANK : -1) };
  };
  const rows: CompiledRow[] = card.rows.map((row) => ({
    row,
    service: serviceKey(row),
    from: compile(row.from),
    to: compile(row.to),
  }));

  const locate = (loc: QuoteLocation): Located => {
    const city = cities.find(loc.city, loc.postalCode);
    return { cityKey: city?.key ?? null, postalCode: loc.postalCode ?? city?.postalCode ?? null };
  };

  const quote = (from: Located, to: Located, parcel: Parcel, declared: number): CarrierOutcome => {
    const billable = billableWeightGrams(parcel, card.volumetricDivisor);
    const best = new Map<string, { c: CompiledRow; from: Rank; to: Rank }>();
    let largestOnRoute = 0;
    for (const c of rows) {
      const fromRank = c.from.rank(from);
      if (fromRank < 0) continue;
      const toRank = c.to.rank(to);
      if (toRank < 0) continue;
      largestOnRoute = Math.max(largestOnRoute, c.row.maxWeightGrams);
      if (c.row.maxWeightGrams < billable) continue;
      const current = best.get(c.service);
      if (!current || better({ c, from: fromRank, to: toRank }, current)) {
        best.set(c.service, { c, from: fromRank, to: toRank });
      }
    }
    if (best.size === 0) {
      return {
        ok: false,
        kind: 'no_service',
        detail:
          largestOnRoute === 0
            ? `the rate card has no row for this route`
            : `billable weight ${billable} g is over the largest band for this route (${largestOnRoute} g)`,
      };
    }
    const rates: Rate[] = [...best.values()]
      .sort((a, b) => a.c.row.line - b.c.row.line)
      .map(({ c: { row, service } }) => ({
        carrier: card.code,
        carrier_name: card.name,
        service_code: `${card.code}:${service}`,
        service_name: row.serviceName ?? card.name,
        delivery_type: row.deliveryType,
        price_kopecks: row.priceKopecks + declaredValueCharge(declared, row.declaredValueBp),
        currency: 'RUB',
        days_min: row.daysMin,
        days_max: row.daysMax,
        price_type: 'public',
      }));
    return { ok: true, rates };
  };

  return {
    code: card.code,
    name: card.name,
    // No network and nothing to wait for: the general carrier timeout never matters.
    quote: (request) =>
      Promise.resolve(
        quote(locate(request.from), locate(request.to), request.parcel, request.declaredValueKopecks),
      ),
  };
}

/** More specific on from, then on to; then the smaller band; then the earlier line. */
function better(
  a: { c: CompiledRow; from: Rank; to: Rank },
  b: { c: CompiledRow; from: Rank; to: Rank },
): boolean {
  if (a.from !== b.from) return a.from > b.from;
  if (a.to !== b.to) return a.to > b.to;
  if (a.c.row.maxWeightGrams !== b.c.row.maxWeightGrams)
    return a.c.row.maxWeightGrams < b.c.row.maxWeightGrams;
  return a.c.row.line < b.c.row.line;
}
