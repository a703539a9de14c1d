// Quoting from the desk: the run (streamed to the desk as quote:progress, stored in history, never charged
// to an API balance) and the city suggestions of the form.
import { findCity, normaliseCityName, postalIndexIn } from '../locations/cities';
import { findCities, matchName } from '../locations/city-search';
import { ALL_TRIGGER_CODES } from '../carriers/sandbox-triggers';
import {
  namesPlace,
  type CityMatch,
  type CitySuggestion,
  type DeskQuoteResult,
  type QuoteProgress,
} from '../contract/operations';
import { totalWeightGrams, type QuoteShipment } from '../contract/quote-ext';
import type { QuoteRate } from '../contract/quote-ext';
import type { QuoteProgress as CoreProgress } from '../rating/aggregator';
import type { WarehouseRow } from '../store/port';
import { newRequestId } from '../util/ids';
import type { ServiceContext, StoreContext } from './context';
import type { AreaOperations } from './define';
import { exportedFile, exportLanguage, exportRows, stamp } from './history-export';
import { parseStoredShipment, requireQuoteRow } from './stored-quote';
import { warehouseView } from './warehouse-view';
import { requireWarehouse } from './warehouses';

/** How many recent quotes are scanned for places; autocomplete must stay instant. */
const RECENT_QUOTES_SCANNED = 200;

/** The aggregator's progress without its English reason: the desk words each kind itself. */
function deskProgress(p: CoreProgress<QuoteRate>): QuoteProgress {
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

/** Who History names as having asked: a company desk's user; null for this computer's desk and the CLI. */
export function authorOf(ctx: StoreContext): string | null {
  return ctx.actor?.kind === 'user' ? ctx.actor.name : null;
}

/**
 * The parcel as asked from a warehouse: its place replaces `from`, and its default carriers apply when the
 * shipment names none.
 */
export function fromWarehouse(shipment: QuoteShipment, warehouse: WarehouseRow): QuoteShipment {
  const { default_carriers } = warehouseView(warehouse);
  const carriers =
    (shipment.carriers === undefined || shipment.carriers === null) && default_carriers.length > 0
      ? { carriers: default_carriers }
      : {};
  return {
    ...shipment,
    from: { country: 'RU', city: warehouse.city, postal_code: warehouse.postal_code },
    ...carriers,
  };
}

/**
 * A quote from the desk: rated like /v1/rates (same carriers, same rules) but not charged to any account's
 * API balance; kept in history, its failures as kinds.
 */
export async function runDeskQuote(
  ctx: ServiceContext,
  quoteKey: string,
  shipment: QuoteShipment,
  options: { probe?: readonly string[] | undefined; warehouse?: string | null } = {},
): Promise<DeskQuoteResult> {
  const requestId = newRequestId();
  const result = await ctx.service.rate(
    shipment,
    (p) => ctx.emit('quote:progress', { quoteKey, progress: deskProgress(p) }),
    options.probe,
  );
  const sandbox = ctx.service.sandbox();
  // History keeps kind and detail; how long a breaker stays open means nothing once the moment has passed.
  const failures = result.failures.map((f) => ({
    carrier: f.carrier,
    kind: f.kind,
    ...(f.detail ? { detail: f.detail } : {}),
  }));
  const now = ctx.clock.now().toISOString();
  const quoteId = await ctx.store.quotes.insert({
    request_id: requestId,
    source: 'desk',
    created_at: now,
    from_city: shipment.from.city,
    to_city: shipment.to.city,
    weight_grams: totalWeightGrams(shipment),
    cheapest_kopecks: result.rates[0]?.price_kopecks ?? null,
    carriers: [...new Set(result.rates.map((r) => r.carrier))].join(','),
    sandbox: sandbox ? 1 : 0,
    shipment_json: JSON.stringify(shipment),
    result_json: JSON.stringify({ rates: result.rates, failures }),
    author: authorOf(ctx),
    warehouse: options.warehouse ?? null,
  });
  // The answer itself says until when a skipped carrier rests (retryInMs), for the screen that shows it now.
  return {
    request_id: requestId,
    quote_id: quoteId,
    sandbox,
    rates: result.rates,
    failures: result.failures,
  };
}

async function recentPlaces(ctx: StoreContext): Promise<Array<{ city: string; postal_code: string | null }>> {
  const places: Array<{ city: string; postal_code: string | null }> = [];
  for (const row of await ctx.store.quotes.search('', RECENT_QUOTES_SCANNED, 0)) {
    const shipment = parseStoredShipment(row.shipment_json);
    if (!shipment) continue;
    for (const place of [shipment.from, shipment.to]) {
      // Sandbox trigger codes are test inputs, not places anyone ships to: never suggest them again.
      if (place.postal_code && ALL_TRIGGER_CODES.has(place.postal_code)) continue;
      places.push({ city: place.city, postal_code: place.postal_code ?? null });
    }
  }
  return places;
}

/**
 * The core's groups, in its order (city-search.ts): names first, then the guesses it ranks above prefixes
 * (a Latin spelling one letter off, «Moscov»), then prefixes.
 */
function matchRank(match: CityMatch): number {
  return namesPlace(match) ? 0 : match === 'closest' ? 1 : 2;
}

/**
 * The city field's suggestions, ranked by the core's rules (city-search.ts): the towns the text names, then
 * towns it starts, then the closest names. Places this desk used recently come first within each group
 * (people ship to the same few cities all day), never above a better match: a recent «Зеленоградск» does not
 * outrank «Зеленоград» typed in full. An empty query lists only recent places, for the field's first focus.
 */
export async function suggestCities(
  ctx: StoreContext,
  query: string,
  limit: number,
  postalHint?: string,
): Promise<CitySuggestion[]> {
  const table = findCities(query, limit, postalHint);
  const named = table.some((f) => namesPlace(f.match));
  const recent: CitySuggestion[] = [];
  const seen = new Set<string>();
  // An index is looked up in the table only: a recent place is a name, not the town of an index.
  const byIndex = table.some((f) => f.match === 'postal');
  for (const place of byIndex ? [] : await recentPlaces(ctx)) {
    if (recent.length >= limit) break;
    const match: CityMatch | null = query.trim() === '' ? 'prefix' : matchName(query, place.city);
    if (match === null || match === 'closest') continue;
    const known = findCity(place.city, place.postal_code);
    const key = `${normaliseCityName(place.city)}|${known?.region ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const twin = table.find((f) => f.city === known);
    recent.push({
      name: place.city,
      region: known?.region ?? '',
      postal_code: place.postal_code ?? known?.postalCode ?? null,
      recent: true,
      match,
      // A place quoted before with its index is settled; otherwise it is as questionable as the table says.
      confirm: match === 'prefix' && named ? 'far' : place.postal_code ? null : (twin?.confirm ?? null),
    });
  }
  if (query.trim() === '') return recent;
  const fromTable: CitySuggestion[] = table
    .filter((f) => !seen.has(`${normaliseCityName(f.city.name)}|${f.city.region}`))
    .map(({ city, match, confirm }) => ({
      name: city.name,
      region: city.region,
      // A town found by its index keeps the index typed: it is the address's own, more exact than the main.
      postal_code: match === 'postal' ? (postalIndexIn(query) ?? city.postalCode) : city.postalCode,
      recent: false,
      match,
      confirm,
    }));
  // Stable: within a group, recent places before the table's (which keep the core's order).
  return [...recent, ...fromTable].sort((a, b) => matchRank(a.match) - matchRank(b.match)).slice(0, limit);
}

export const quoteOperations = {
  'quote:run': {
    needs: 'service',
    run: async (ctx, { quoteKey, shipment, probe, warehouse_id }) => {
      if (warehouse_id === undefined) return runDeskQuote(ctx, quoteKey, shipment, { probe });
      const warehouse = await requireWarehouse(ctx.store, warehouse_id);
      return runDeskQuote(ctx, quoteKey, fromWarehouse(shipment, warehouse), {
        probe,
        warehouse: warehouse.name,
      });
    },
  },
  // The Quote screen's "save as CSV/XLSX": the stored row, not the renderer's copy of it, goes through the
  // one CSV writer and the one XLSX writer (formula guard included), in the history export's columns.
  'quote:export': {
    needs: 'store',
    run: async (ctx, { id, format, points }) => {
      const now = ctx.clock.now();
      const lang = await exportLanguage(ctx);
      const rows = exportRows([await requireQuoteRow(ctx.store.quotes, id)], lang, points);
      return exportedFile(rows, lang, format, now, {
        base: `ratedesk-quote-${id}-${stamp(now)}`,
        sheet: lang === 'ru' ? `Расчёт ${id}` : `Quote ${id}`,
      });
    },
  },
  'cities:search': {
    needs: 'store',
    run: (ctx, { query, limit, postal_code }) => suggestCities(ctx, query, limit, postal_code),
  },
} satisfies AreaOperations<'quote:run' | 'quote:export' | 'cities:search'>;
