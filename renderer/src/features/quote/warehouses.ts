// Named warehouses on the quote form (#20): which origin the desk quotes from (remembered per desk in the
// local setting ui.warehouse), what picking one does to the form, and how the «из всех складов» result
// names its cheapest and fastest origin. Pure: unit-tested in Node.
import type { OriginsResult, Warehouse } from '../../../../core/desk/contract';
import type { QuoteDraft, Rate } from './logic';
import type { BoxPreset } from './presets';

/** «Откуда»: typed by hand, one warehouse, or every warehouse at once. */
export type OriginChoice = { kind: 'none' } | { kind: 'warehouse'; id: number } | { kind: 'all' };

export const NO_ORIGIN: OriginChoice = { kind: 'none' };

/** The setting's text ('', '12', 'all') as a choice; anything else reads as none. */
export function parseOriginSetting(value: string | undefined): OriginChoice {
  const v = (value ?? '').trim();
  if (v === 'all') return { kind: 'all' };
  if (/^\d{1,15}$/.test(v)) {
    const id = Number(v);
    if (Number.isSafeInteger(id) && id > 0) return { kind: 'warehouse', id };
  }
  return NO_ORIGIN;
}

export function formatOriginSetting(choice: OriginChoice): string {
  return choice.kind === 'all' ? 'all' : choice.kind === 'warehouse' ? String(choice.id) : '';
}

/** «Из всех складов» is offered only when there is more than one warehouse to compare. */
export function offersAll(list: readonly Warehouse[]): boolean {
  return list.length >= 2;
}

export interface ResolvedOrigin {
  choice: OriginChoice;
  warehouse: Warehouse | null;
  /** The remembered warehouse is no longer in the list (removed by an admin): the form says so once. */
  gone: boolean;
}

/** A remembered choice against today's list: a removed warehouse, or «all» with one left, reads as none. */
export function resolveOrigin(choice: OriginChoice, list: readonly Warehouse[]): ResolvedOrigin {
  if (choice.kind === 'warehouse') {
    const w = list.find((x) => x.id === choice.id);
    return w ? { choice, warehouse: w, gone: false } : { choice: NO_ORIGIN, warehouse: null, gone: true };
  }
  if (choice.kind === 'all') {
    return offersAll(list)
      ? { choice, warehouse: null, gone: false }
      : { choice: NO_ORIGIN, warehouse: null, gone: false };
  }
  return { choice: NO_ORIGIN, warehouse: null, gone: false };
}

/**
 * The form once a warehouse is picked: its city and postal code in «Откуда», and its default carriers (an
 * empty list: the desk's own default, `deskCarriers`; null means every carrier).
 */
export function applyWarehouse(
  draft: QuoteDraft,
  w: Pick<Warehouse, 'city' | 'postal_code' | 'default_carriers'>,
  deskCarriers: string[] | null,
): QuoteDraft {
  return {
    ...draft,
    fromCity: w.city,
    fromPostal: w.postal_code ?? '',
    carriers: w.default_carriers.length > 0 ? [...w.default_carriers] : deskCarriers,
  };
}

/** The boxes the form offers: the warehouse's own, or the desk's when it has none. */
export function presetsFor(
  w: Pick<Warehouse, 'box_presets'> | null,
  desk: readonly BoxPreset[],
): BoxPreset[] {
  return w && w.box_presets.length > 0 ? w.box_presets.map((p) => ({ ...p })) : [...desk];
}

/**
 * The place sent as `shipment.from` for «из всех складов»: the server replaces it per warehouse, but the
 * shipment must still be a valid one. The first warehouse's.
 */
export function anyOrigin(list: readonly Warehouse[]): { city: string; postal: string } | null {
  const w = list[0];
  return w ? { city: w.city, postal: w.postal_code ?? '' } : null;
}

/**
 * The cheapest rate and the fastest one of one origin's result. Fastest by the earliest promised day
 * (days_min), the measure the core compares origins by (fastest_days), so the figure shown is the one
 * the badge went by; a tie goes to the cheaper.
 */
export function bestOfOrigin(rates: readonly Rate[]): { cheapest: Rate | null; fastest: Rate | null } {
  let cheapest: Rate | null = null;
  let fastest: Rate | null = null;
  for (const r of rates) {
    if (!cheapest || r.price_kopecks < cheapest.price_kopecks) cheapest = r;
    const d = r.days_min ?? null;
    if (d === null) continue;
    const fd = fastest?.days_min ?? null;
    if (fd === null || d < fd || (d === fd && r.price_kopecks < fastest!.price_kopecks)) fastest = r;
  }
  return { cheapest, fastest };
}

export interface OriginMark {
  cheapest: boolean;
  fastest: boolean;
}

/**
 * Which origin gets «ДЕШЕВЛЕ ВСЕГО» and «БЫСТРЕЕ ВСЕГО»: the core's answer (cheapest_warehouse_id,
 * fastest_warehouse_id) is the one rule, not worked out again here; one warehouse may carry both.
 */
export function originMarks(result: OriginsResult): Map<number, OriginMark> {
  const marks = new Map<number, OriginMark>();
  for (const o of result.origins) {
    marks.set(o.warehouse_id, {
      cheapest: o.warehouse_id === result.cheapest_warehouse_id,
      fastest: o.warehouse_id === result.fastest_warehouse_id,
    });
  }
  return marks;
}

/**
 * What «из всех складов» asks: every warehouse, with the place each ships from (for its block's heading) and
 * the carriers it will ask. The core's rule (fromWarehouse): a shipment that names no carriers is asked from
 * each warehouse's own default carriers, when it has any; `named` is the shipment's list, `all` every carrier.
 */
export function originsOf(
  list: readonly Pick<Warehouse, 'id' | 'name' | 'city' | 'postal_code' | 'default_carriers'>[],
  named: readonly string[] | null | undefined,
  all: readonly string[],
): { id: number; name: string; place: string; wanted: string[] }[] {
  return list.map((w) => ({
    id: w.id,
    name: w.name,
    place: [w.city, w.postal_code].filter(Boolean).join(' '),
    wanted: [...(named ?? (w.default_carriers.length > 0 ? w.default_carriers : all))],
  }));
}
