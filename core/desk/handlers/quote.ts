// quote:run and cities:search: the quote form's two calls.
import { findCity, normaliseCityName, searchCities } from '../../carriers/cities/cities';
import type { Shipment } from '../../contract/v1';
import type { DeskQuote } from '../../service';
import type { CitySuggestion, DeskQuoteResult } from '../contract';
import type { DeskContext, HandlersOf } from '../context';
import { parseStoredShipment } from '../stored-quote';
import { SANDBOX_TRIGGERS } from '../../carriers/sandbox-triggers';

/** How many recent quotes are scanned for places; autocomplete must stay instant. */
const RECENT_QUOTES_SCANNED = 200;

/** Runs a desk quote, streaming each carrier's progress under the caller's quoteKey. */
export async function runDeskQuote(
  ctx: DeskContext,
  quoteKey: string,
  shipment: Shipment,
): Promise<DeskQuoteResult> {
  const quote = await ctx.service.quote(shipment, (progress) =>
    ctx.host.emit('quote:progress', { quoteKey, progress }),
  );
  return toResult(quote);
}

/** Only the contract's fields: the service's object may grow without the UI seeing internals. */
function toResult(q: DeskQuote): DeskQuoteResult {
  return {
    request_id: q.request_id,
    quote_id: q.quote_id,
    sandbox: q.sandbox,
    rates: q.rates,
    unavailable: q.unavailable,
    failures: q.failures.map((f) => ({
      carrier: f.carrier,
      kind: f.kind,
      ...(f.detail ? { detail: f.detail } : {}),
    })),
  };
}

/**
 * Places this desk used recently come first (people ship to the same few cities all day), then the
 * table's cities by population. An empty query lists only recent places, for the field's first focus.
 */
export function suggestCities(ctx: DeskContext, query: string, limit: number): CitySuggestion[] {
  const wanted = normaliseCityName(query);
  const seen = new Set<string>();
  const out: CitySuggestion[] = [];
  for (const place of recentPlaces(ctx)) {
    const key = normaliseCityName(place.city);
    if (out.length >= limit) break;
    if (seen.has(key) || !key.startsWith(wanted)) continue;
    seen.add(key);
    const known = findCity(place.city, place.postal_code);
    out.push({
      name: place.city,
      region: known?.region ?? '',
      postal_code: place.postal_code ?? known?.postalCode ?? null,
      recent: true,
    });
  }
  if (wanted === '') return out;
  // Over-fetch by what recent places may already have taken, then drop those duplicates.
  for (const city of searchCities(query, limit + seen.size)) {
    if (out.length >= limit) break;
    if (seen.has(normaliseCityName(city.name))) continue;
    out.push({ name: city.name, region: city.region, postal_code: city.postalCode, recent: false });
  }
  return out;
}

const TRIGGER_CODES: ReadonlySet<string> = new Set(Object.values(SANDBOX_TRIGGERS));

function* recentPlaces(ctx: DeskContext): Generator<{ city: string; postal_code: string | null }> {
  for (const row of ctx.searchQuotes('', RECENT_QUOTES_SCANNED, 0)) {
    const shipment = parseStoredShipment(row.shipment_json);
    if (!shipment) continue;
    for (const place of [shipment.from, shipment.to]) {
      // Sandbox trigger codes are test inputs, not places anyone ships to: never suggest them again.
      if (place.postal_code && TRIGGER_CODES.has(place.postal_code)) continue;
      yield { city: place.city, postal_code: place.postal_code ?? null };
    }
  }
}

export function quoteHandlers(ctx: DeskContext): HandlersOf<'quote:run' | 'cities:search'> {
  return {
    'quote:run': ({ quoteKey, shipment }) => runDeskQuote(ctx, quoteKey, shipment),
    'cities:search': async ({ query, limit }) => suggestCities(ctx, query, limit),
  };
}
