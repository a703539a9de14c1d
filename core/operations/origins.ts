// «Из всех складов» (#20): the same parcel quoted from several warehouses, each run one history row under its
// warehouse's name, with the cheapest and the fastest origin named.
import type { DeskQuoteResult, OriginsResult } from '../contract/operations';
import type { QuoteShipment } from '../contract/quote-ext';
import type { WarehouseRow } from '../store/port';
import type { ServiceContext } from './context';
import type { AreaOperations } from './define';
import { OperationError } from './errors';
import { fromWarehouse, runDeskQuote } from './quotes';

/**
 * Runs at once. Each run already asks every carrier in parallel; a few origins at a time keep a company's
 * ten warehouses quick without multiplying the load on each carrier's rate limit by ten.
 */
export const ORIGIN_CONCURRENCY = 3;

async function chosenWarehouses(
  ctx: ServiceContext,
  ids: readonly number[] | undefined,
): Promise<WarehouseRow[]> {
  const all = await ctx.store.warehouses.list();
  if (ids === undefined) {
    if (all.length === 0)
      throw new OperationError('not_found', 'No warehouses are defined yet. See "warehouses list".');
    return all;
  }
  const byId = new Map(all.map((w) => [w.id, w]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0)
    throw new OperationError('not_found', `No warehouse ${unknown.map((id) => `#${id}`).join(', ')}.`);
  // In the order asked, each once.
  return [...new Set(ids)].map((id) => byId.get(id)!);
}

/** The lowest value's index; ties go to the first, nulls never win. */
export function bestIndex(values: ReadonlyArray<number | null>): number | null {
  let best: number | null = null;
  values.forEach((v, i) => {
    if (v !== null && (best === null || v < values[best]!)) best = i;
  });
  return best;
}

function cheapest(result: DeskQuoteResult | null): number | null {
  if (!result || result.rates.length === 0) return null;
  return Math.min(...result.rates.map((r) => r.price_kopecks));
}

function fastest(result: DeskQuoteResult | null): number | null {
  const days = (result?.rates ?? []).flatMap((r) => (typeof r.days_min === 'number' ? [r.days_min] : []));
  return days.length === 0 ? null : Math.min(...days);
}

export async function runFromOrigins(
  ctx: ServiceContext,
  quoteKey: string,
  shipment: QuoteShipment,
  ids: readonly number[] | undefined,
): Promise<OriginsResult> {
  const warehouses = await chosenWarehouses(ctx, ids);
  const results: Array<DeskQuoteResult | null> = warehouses.map(() => null);
  const errors: unknown[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < warehouses.length) {
      const i = next++;
      const w = warehouses[i]!;
      try {
        results[i] = await runDeskQuote(ctx, `${quoteKey}:${w.id}`, fromWarehouse(shipment, w), {
          warehouse: w.name,
        });
      } catch (error) {
        // One origin failing as a whole (its result null) must not hide the others' prices.
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ORIGIN_CONCURRENCY, warehouses.length) }, worker));
  // Nothing to compare: the caller hears why, as from a single quote.
  if (errors.length === warehouses.length) throw errors[0];

  const origins = warehouses.map((w, i) => ({
    warehouse_id: w.id,
    warehouse: w.name,
    result: results[i] ?? null,
    cheapest_kopecks: cheapest(results[i] ?? null),
    fastest_days: fastest(results[i] ?? null),
  }));
  const c = bestIndex(origins.map((o) => o.cheapest_kopecks));
  const f = bestIndex(origins.map((o) => o.fastest_days));
  return {
    origins,
    cheapest_warehouse_id: c === null ? null : origins[c]!.warehouse_id,
    fastest_warehouse_id: f === null ? null : origins[f]!.warehouse_id,
  };
}

export const originOperations = {
  'quote:run-origins': {
    needs: 'service',
    run: (ctx, { quoteKey, shipment, warehouse_ids }) =>
      runFromOrigins(ctx, quoteKey, shipment, warehouse_ids),
  },
} satisfies AreaOperations<'quote:run-origins'>;
