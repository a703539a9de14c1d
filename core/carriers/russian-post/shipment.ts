// Several places, cash on delivery and declared value for Russian Post (#21). The tariff calculator prices one
// postal item (one посылка) per call, and every place is its own item with its own declared value and cash on
// delivery: a shipment of N places is N items of the same product, priced one by one and summed. The amounts
// are shared out over the items, and Russian Post's rule that a COD item's declared value is at least its COD
// ("сумма наложенного платежа не может превышать сумму объявленной ценности") raises the declared value.
import type { CarrierRate, NotPriced } from '../../contract/quote-ext';
import type { Parcel } from '../../contract/v1';
import { splitKopecks } from '../money';
import type { ObjectResult } from './mapper';
import type { ObjectRequest } from './objects';

/** One postal item: one place with its share of the declared value and of the cash on delivery. */
export interface PostItem {
  parcel: Parcel;
  declaredValueKopecks: number;
  codKopecks: number;
}

/**
 * The declared value Russian Post insures for a product: with cash on delivery at least the COD amount (its
 * rule for "с ОЦ и НП" items), else the declared value as given.
 */
export function insuredValueFor(
  product: ObjectRequest,
  declaredValueKopecks: number,
  codKopecks: number,
): number {
  return product.withCod ? Math.max(declaredValueKopecks, codKopecks) : declaredValueKopecks;
}

/**
 * The items of a shipment for one product. Both amounts are shared the same way, so each item's declared value
 * stays at least its COD when the totals are (the item rule holds item by item).
 */
export function itemsFor(
  product: ObjectRequest,
  places: readonly Parcel[],
  declaredValueKopecks: number,
  codKopecks: number,
): PostItem[] {
  const n = places.length;
  const declared = splitKopecks(
    product.withDeclaredValue ? insuredValueFor(product, declaredValueKopecks, codKopecks) : 0,
    n,
  );
  const cod = splitKopecks(product.withCod ? codKopecks : 0, n);
  return places.map((parcel, i) => ({ parcel, declaredValueKopecks: declared[i]!, codKopecks: cod[i]! }));
}

/** A stable key of what one item's query depends on: identical places are asked once. */
export function itemKey(item: PostItem): string {
  const p = item.parcel;
  return [
    p.weight_grams,
    p.length_cm,
    p.width_cm,
    p.height_cm,
    item.declaredValueKopecks,
    item.codKopecks,
  ].join('/');
}

/**
 * The answers for every item of one product → the product's answer: a rate only when every item has one (a
 * shipment is sent whole), priced as their sum; else the first error, else the first "not offered".
 */
export function combineItems(results: readonly ObjectResult[]): ObjectResult {
  const error = results.find((r) => r.kind === 'error');
  if (error) return error;
  const refused = results.find((r) => r.kind === 'no_service');
  if (refused) return refused;
  const rates = results.flatMap((r) => (r.kind === 'rate' ? [r.rate] : []));
  const first = rates[0]!;
  const sum = (pick: (r: CarrierRate) => number | null | undefined): number | null =>
    rates.every((r) => typeof pick(r) === 'number')
      ? rates.reduce((total, r) => total + (pick(r) as number), 0)
      : null;
  const maxOf = (pick: (r: CarrierRate) => number | null | undefined): number | null => {
    const values = rates.map(pick).filter((v): v is number => typeof v === 'number');
    return values.length > 0 ? Math.max(...values) : null;
  };
  return {
    kind: 'rate',
    rate: {
      ...first,
      price_kopecks: rates.reduce((total, r) => total + r.price_kopecks, 0),
      // The items travel together; the shipment is delivered when its slowest item is.
      days_min: maxOf((r) => r.days_min),
      days_max: maxOf((r) => r.days_max),
      breakdown: {
        base_kopecks: sum((r) => r.breakdown?.base_kopecks),
        insurance_kopecks: sum((r) => r.breakdown?.insurance_kopecks),
        cod_fee_kopecks: sum((r) => r.breakdown?.cod_fee_kopecks),
      },
    },
  };
}

/** What the rate says about the options beyond its price: refused by the product, or not priced by the calculator. */
export function optionsOf(
  product: ObjectRequest,
  declaredValueKopecks: number,
  codKopecks: number,
): Pick<CarrierRate, 'options_not_priced' | 'insured_value_kopecks'> {
  const notPriced: NotPriced[] = product.notOffered.map((option) => ({
    option,
    reason: 'not_offered',
    detail:
      option === 'cod'
        ? 'no "с ОЦ и НП" variant of this product: no cash on delivery'
        : 'no "с ОЦ" variant of this product: no declared value',
  }));
  if (product.withCod) {
    // The calculator prices carriage and the declared-value fee; the postal transfer of the collected money
    // (плата за пересылку наложенного платежа) is not in its answer (unverified: docs/carriers.md).
    notPriced.push({
      option: 'cod',
      reason: 'not_quoted',
      detail: 'the tariff calculator does not price the transfer of the cash on delivery',
    });
  }
  const insured = product.withDeclaredValue ? insuredValueFor(product, declaredValueKopecks, codKopecks) : 0;
  return {
    ...(notPriced.length > 0 ? { options_not_priced: notPriced } : {}),
    ...(insured !== declaredValueKopecks ? { insured_value_kopecks: insured } : {}),
  };
}
