// Quoting from the desk: the run (streamed to the desk as quote:progress, stored in history, never charged
// to an API balance) and the city suggestions of the form.
import { findCities, findCity, normaliseCityName } from '../locations/cities';
import { ALL_TRIGGER_CODES } from '../carriers/sandbox-triggers';
import type { CitySuggestion, DeskQuoteResult, QuoteProgress } from '../contract/operations';
import type { Shipment } from '../contract/v1';
import type { QuoteProgress as CoreProgress } from '../rating/aggregator';
import { newRequestId } from '../util/ids';
import type { ServiceContext, StoreContext } from './context';
import type { AreaOperations } from './define';
import { exportedFile, exportLanguage, exportRows, stamp } from './history-export';
import { parseStoredShipment, requireQuoteRow } from './stored-quote';

/** How many recent quotes are scanned for places; autocomplete must stay instant. */
const RECENT_QUOTES_SCANNED = 200;

/** The aggregator's progress without its English reason: the desk words each kind itself. */
function deskProgress(p: CoreProgress): QuoteProgress {
  if (p.state !== 'unavailable') return p;
  return {
    carrier: p.carrier,
    state: 'unavailable',
    kind: p.kind,
    ...(p.detail ? { detail: p.detail } : {}),
    ...(p.retryInMs !== undefined ? { retryInMs: p.retryInMs } : {}),
    elapsedMs: p.elapsedMs,
  };
}

/**
 * A quote from the desk: rated like /v1/rates (same carriers, same rules) but not charged to any account's
 * API balance; kept in history, its failures as kinds.
 */
export async function runDeskQuote(
  ctx: ServiceContext,
  quoteKey: string,
  shipment: Shipment,
  probe?: readonly string[],
): Promise<DeskQuoteResult> {
  const requestId = newRequestId();
  const result = await ctx.service.rate(
    shipment,
    (p) => ctx.emit('quote:progress', { quoteKey, progress: deskProgress(p) }),
    probe,
  );
  const sandbox = ctx.service.sandbox();
  // History keeps kind and detail; how long a breaker stays open means nothing once the moment has passed.
  const failures = result.failures.map((f) => ({
    carrier: f.carrier,
    kind: f.kind,
    ...(f.detail ? { detail: f.detail } : {}),
  }));
  const now = ctx.clock.now().toISOString();
  // Through the group committer like every other write of a running service (one fsync for a busy moment).
  const quoteId = await ctx.commit(() =>
    ctx.store.quotes.insert({
      request_id: requestId,
      source: 'desk',
      created_at: now,
      from_city: shipment.from.city,
      to_city: shipment.to.city,
      weight_grams: shipment.parcel.weight_grams,
      cheapest_kopecks: result.rates[0]?.price_kopecks ?? null,
      carriers: [...new Set(result.rates.map((r) => r.carrier))].join(','),
      sandbox: sandbox ? 1 : 0,
      shipment_json: JSON.stringify(shipment),
      result_json: JSON.stringify({ rates: result.rates, failures }),
    }),
  );
  // The answer itself says until when a skipped carrier rests (retryInMs), for the screen that shows it now.
  return {
    request_id: requestId,
    quote_id: quoteId,
    sandbox,
    rates: result.rates,
    failures: result.failures,
  };
}

function* recentPlaces(ctx: StoreContext): Generator<{ city: string; postal_code: string | null }> {
  for (const row of ctx.store.quotes.search('', RECENT_QUOTES_SCANNED, 0)) {
    const shipment = parseStoredShipment(row.shipment_json);
    if (!shipment) continue;
    for (const place of [shipment.from, shipment.to]) {
      // Sandbox trigger codes are test inputs, not places anyone ships to: never suggest them again.
      if (place.postal_code && ALL_TRIGGER_CODES.has(place.postal_code)) continue;
      yield { city: place.city, postal_code: place.postal_code ?? null };
    }
  }
}

/**
 * Places this desk used recently come first (people ship to the same few cities all day), then the
 * table's cities by population. An empty query lists only recent places, for the field's first focus.
 */
export function suggestCities(ctx: StoreContext, query: string, limit: number): CitySuggestion[] {
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
      match: key === wanted ? 'exact' : 'prefix',
    });
  }
  if (wanted === '') return out;
  // Over-fetch by what recent places may already have taken, then drop those duplicates.
  for (const { city, match } of findCities(query, limit + seen.size)) {
    if (out.length >= limit) break;
    if (seen.has(normaliseCityName(city.name))) continue;
    out.push({ name: city.name, region: city.region, postal_code: city.postalCode, recent: false, match });
  }
  return out;
}

export const quoteOperations = {
  'quote:run': {
    needs: 'service',
    run: (ctx, { quoteKey, shipment, probe }) => runDeskQuote(ctx, quoteKey, shipment, probe),
  },
  // The Quote screen's "save as CSV/XLSX": the stored row, not the renderer's copy of it, goes through the
  // one CSV writer and the one XLSX writer (formula guard included), in the history export's columns.
  'quote:export': {
    needs: 'store',
    run: (ctx, { id, format }) => {
      const now = ctx.clock.now();
      const lang = exportLanguage(ctx);
      const rows = exportRows([requireQuoteRow(ctx.store.quotes, id)], lang);
      return exportedFile(rows, lang, format, now, {
        base: `ratedesk-quote-${id}-${stamp(now)}`,
        sheet: lang === 'ru' ? `Расчёт ${id}` : `Quote ${id}`,
      });
    },
  },
  'cities:search': { needs: 'store', run: (ctx, { query, limit }) => suggestCities(ctx, query, limit) },
} satisfies AreaOperations<'quote:run' | 'quote:export' | 'cities:search'>;
