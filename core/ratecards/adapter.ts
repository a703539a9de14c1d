// A rate card as a carrier: quotes from its rows in memory, no network. For each service of the card the
// row that applies is the most specific route (from first, then to: city, then the longest postal prefix,
// then *) among the rows whose band can carry the billable weight, and within that route the smallest band.
// docs/carriers.md ("Rate cards") states the same rules for people.
//
// Several places (#21) are priced place by place and summed: a card's bands are the weights of one parcel (its
// largest band is the heaviest box it takes), so ten 20 kg boxes are ten 20 kg parcels, never one 200 kg band.
// A service is offered only when every place finds a row of it on the route. The declared value is shared out
// over the places and each place's row adds its own percent. A card has no column for cash on delivery.
import type { CarrierRate, NotPriced } from '../contract/quote-ext';
import type { Parcel } from '../contract/v1';
import { splitKopecks } from '../carriers/money';
import type { CarrierAdapter, CarrierOutcome, CarrierQuoteRequest, QuoteLocation } from '../carriers/types';
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

  /** For one place: the best row of each service on the route, and the largest band the route has. */
  const rowsFor = (from: Located, to: Located, billable: number) => {
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
    return { best, largestOnRoute };
  };

  const quote = (from: Located, to: Located, request: CarrierQuoteRequest): CarrierOutcome => {
    const places: readonly Parcel[] = request.places;
    const billable = places.map((p) => billableWeightGrams(p, card.volumetricDivisor));
    const perPlace = billable.map((grams) => rowsFor(from, to, grams));
    const first = perPlace[0]!;
    // A service every place can go by, in the order of its first place's row.
    const services = [...first.best.entries()]
      .filter(([service]) => perPlace.every((p) => p.best.has(service)))
      .sort((a, b) => a[1].c.row.line - b[1].c.row.line)
      .map(([service]) => service);
    if (services.length === 0) {
      const largestOnRoute = first.largestOnRoute;
      const heaviest = Math.max(...billable);
      return {
        ok: false,
        kind: 'no_service',
        detail:
          largestOnRoute === 0
            ? `the rate card has no row for this route`
            : `billable weight ${heaviest} g is over the largest band for this route (${largestOnRoute} g)`,
      };
    }
    const declared = splitKopecks(request.declaredValueKopecks, places.length);
    const rates: CarrierRate[] = services.map((service) => {
      const chosen = perPlace.map((p) => p.best.get(service)!.c.row);
      const base = chosen.reduce((sum, row) => sum + row.priceKopecks, 0);
      const insurance = chosen.reduce(
        (sum, row, i) => sum + declaredValueCharge(declared[i]!, row.declaredValueBp),
        0,
      );
      const notPriced: NotPriced[] = [];
      // A row without a percent prices no insurance: the card says nothing about it, so it is not quoted.
      const unpriced = request.declaredValueKopecks > 0 && chosen.some((row) => row.declaredValueBp === 0);
      if (unpriced)
        notPriced.push({
          option: 'insurance',
          reason: 'not_quoted',
          detail: 'the rate card gives no declared_value_percent',
        });
      if (request.codKopecks > 0)
        notPriced.push({
          option: 'cod',
          reason: 'not_quoted',
          detail: 'a rate card has no cash-on-delivery column',
        });
      const row = chosen[0]!;
      const daysMin = Math.max(...chosen.map((r) => r.daysMin));
      const daysMax = Math.max(...chosen.map((r) => r.daysMax));
      return {
        carrier: card.code,
        carrier_name: card.name,
        service_code: `${card.code}:${service}`,
        service_name: row.serviceName ?? card.name,
        delivery_type: row.deliveryType,
        price_kopecks: base + insurance,
        currency: 'RUB',
        days_min: daysMin,
        days_max: daysMax,
        price_type: 'public',
        breakdown: {
          base_kopecks: base,
          insurance_kopecks: unpriced && insurance === 0 ? null : insurance,
          cod_fee_kopecks: request.codKopecks > 0 ? null : 0,
        },
        ...(notPriced.length > 0 ? { options_not_priced: notPriced } : {}),
      };
    });
    return { ok: true, rates };
  };

  return {
    code: card.code,
    name: card.name,
    // No network and nothing to wait for: the general carrier timeout never matters.
    quote: (request) => Promise.resolve(quote(locate(request.from), locate(request.to), request)),
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
