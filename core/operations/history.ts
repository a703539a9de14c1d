// History: search, open, re-run with the price change, export (CSV/XLSX), copy as curl.
import type { HistoryRow, PriceChange } from '../contract/operations';
import type { Rate } from '../contract/v1';
import type { QuoteFilter, QuoteRow } from '../store/port';
import type { ServiceContext, StoreContext } from './context';
import type { AreaOperations } from './define';
import { curlCommand } from './curl';
import { exportedFile, exportLanguage, exportRows, stamp } from './history-export';
import { runDeskQuote } from './quotes';
import { placesOf } from '../contract/quote-ext';
import { parseStoredShipment, requireQuoteRow, storedQuote, storedResult } from './stored-quote';

/** An export reads at most this many quotes: years of desk use, and still a file Excel opens quickly. */
const EXPORT_MAX_QUOTES = 50_000;
const EXPORT_PAGE = 1_000;

function toHistoryRow(q: QuoteRow): HistoryRow {
  // The stored result names who was cheapest and who gave no rate (a page of rows is a few ms of parsing).
  const { rates, failures } = storedResult(q);
  // A shipment that no longer parses reads as what every /v1 shipment is: one place, no COD, no date.
  const shipment = parseStoredShipment(q.shipment_json);
  const cheapest = rates.reduce<Rate | null>(
    (best, r) => (best === null || r.price_kopecks < best.price_kopecks ? r : best),
    null,
  );
  return {
    id: q.id,
    created_at: q.created_at,
    source: q.source,
    from_city: q.from_city,
    to_city: q.to_city,
    weight_grams: q.weight_grams,
    cheapest_kopecks: q.cheapest_kopecks,
    cheapest_carrier: cheapest?.carrier ?? null,
    carriers: q.carriers.split(',').filter((c) => c !== ''),
    failures: failures.map((f) => ({
      carrier: f.carrier,
      kind: f.kind,
      ...(f.detail ? { detail: f.detail } : {}),
    })),
    sandbox: q.sandbox === 1,
    author: q.author,
    warehouse: q.warehouse,
    places: shipment ? Math.max(1, placesOf(shipment).length) : 1,
    cod_kopecks: shipment?.cod_kopecks ?? 0,
    ship_date: shipment?.ship_date ?? null,
  };
}

/** Rates are matched by carrier + service code; a service offered in only one run has a null side. */
export function priceChanges(before: readonly Rate[], after: readonly Rate[]): PriceChange[] {
  const key = (r: Rate): string => `${r.carrier}\u0000${r.service_code}`;
  const changes = new Map<string, PriceChange>();
  for (const r of before) {
    changes.set(key(r), {
      service_code: r.service_code,
      carrier: r.carrier,
      service_name: r.service_name,
      before_kopecks: r.price_kopecks,
      after_kopecks: null,
    });
  }
  for (const r of after) {
    const existing = changes.get(key(r));
    if (existing) {
      existing.after_kopecks = r.price_kopecks;
      existing.service_name = r.service_name;
    } else {
      changes.set(key(r), {
        service_code: r.service_code,
        carrier: r.carrier,
        service_name: r.service_name,
        before_kopecks: null,
        after_kopecks: r.price_kopecks,
      });
    }
  }
  // Offered now first, cheapest first; then those that disappeared.
  return [...changes.values()].sort(
    (a, b) =>
      (a.after_kopecks ?? Infinity) - (b.after_kopecks ?? Infinity) ||
      (a.before_kopecks ?? 0) - (b.before_kopecks ?? 0) ||
      a.service_code.localeCompare(b.service_code),
  );
}

/** The store's filter from an operation's input: only the fields given (exact names). */
function quoteFilter(input: { author?: string | undefined; warehouse?: string | undefined }): QuoteFilter {
  return {
    ...(input.author !== undefined ? { author: input.author } : {}),
    ...(input.warehouse !== undefined ? { warehouse: input.warehouse } : {}),
  };
}

async function matchingQuotes(ctx: StoreContext, text: string, filter: QuoteFilter): Promise<QuoteRow[]> {
  const all: QuoteRow[] = [];
  while (all.length < EXPORT_MAX_QUOTES) {
    const page = await ctx.store.quotes.search(text, EXPORT_PAGE, all.length, filter);
    all.push(...page);
    if (page.length < EXPORT_PAGE) break;
  }
  return all;
}

/** Where a pasted curl command should go: the running listener, else where it will listen once switched on. */
function apiBaseUrl(ctx: ServiceContext): string {
  const running = ctx.service.listener();
  if (running) return running.url;
  const host = ctx.service.settings.get('listener.host');
  return `http://${host.includes(':') ? `[${host}]` : host}:${ctx.service.settings.get('listener.port')}`;
}

type HistoryOperation =
  'history:search' | 'history:get' | 'history:rerun' | 'history:export' | 'history:curl';

export const historyOperations = {
  'history:search': {
    needs: 'store',
    run: async ({ store }, input) =>
      (await store.quotes.search(input.text, input.limit, input.offset, quoteFilter(input))).map(
        toHistoryRow,
      ),
  },

  'history:get': {
    needs: 'store',
    run: async ({ store }, { id }) => {
      const q = storedQuote(await requireQuoteRow(store.quotes, id));
      return {
        id: q.row.id,
        request_id: q.row.request_id,
        created_at: q.row.created_at,
        source: q.row.source,
        sandbox: q.row.sandbox === 1,
        shipment: q.shipment,
        rates: q.rates,
        failures: q.failures,
        author: q.row.author,
        warehouse: q.row.warehouse,
      };
    },
  },

  'history:rerun': {
    needs: 'service',
    run: async (ctx, { id, quoteKey }) => {
      const before = storedQuote(await requireQuoteRow(ctx.store.quotes, id));
      // From the same place as before (a warehouse's place is in the stored shipment), under the same name.
      const quote = await runDeskQuote(ctx, quoteKey, before.shipment, { warehouse: before.row.warehouse });
      return { quote, changes: priceChanges(before.rates, quote.rates) };
    },
  },

  'history:export': {
    needs: 'store',
    run: async (ctx, input) => {
      const now = ctx.clock.now();
      const lang = await exportLanguage(ctx);
      const rows = exportRows(await matchingQuotes(ctx, input.text ?? '', quoteFilter(input)), lang);
      return exportedFile(rows, lang, input.format, now, { base: `ratedesk-history-${stamp(now)}` });
    },
  },

  'history:curl': {
    needs: 'service',
    run: async (ctx, { id }) =>
      curlCommand(apiBaseUrl(ctx), storedQuote(await requireQuoteRow(ctx.store.quotes, id)).shipment),
  },
} satisfies AreaOperations<HistoryOperation>;
