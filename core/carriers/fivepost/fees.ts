// 5Post's fees for insurance and cash on delivery. 5Post has no calculator (its catalogue's `rate[]` is the
// delivery only), so these are its published percentages, applied by RateDesk (docs/carriers.md, 5Post):
// - insurance, «приём отправления с объявленной ценностью»: 0.5 % of the assessed value (integration guide
//   §7.1, FP-GUIDE, "совпадает с калькулятором ЛК"; lapaygroup/fivepost-sdk `TariffsTrait.php`
//   `valuated_amount_percent = 0.005`: the sources agree);
// - cash on delivery, «комиссия за наложенный платёж»: 2.5 % by card, 1.5 % in cash, of the sum the recipient
//   pays (guide §7.2, API v7.25, January 2026; its gross-up `goods / (100 − p) × 100 − goods` is p % of the
//   sum collected). lapaygroup's SDK (older) has 2.64 % and 1.92 %: the sources disagree, the newer is used.
// UNVERIFIED: the percentages of a given contract (5Post's tariffs are per partner), and whether 5Post rounds
// the fees per kopeck as here.
import type { ReadablePoint } from './points';

/** Per mille of the assessed value. */
export const FIVEPOST_INSURANCE_PERMILLE = 5;
/** Per mille of the sum collected, by how the recipient pays. */
export const FIVEPOST_COD_PERMILLE = { card: 25, cash: 15 } as const;

export type CodPayment = keyof typeof FIVEPOST_COD_PERMILLE;

/** Half-up kopecks of `permille` ‰ of `kopecks`, in integers. */
function share(kopecks: number, permille: number): number {
  return Math.floor((kopecks * permille + 500) / 1000);
}

/**
 * The value 5Post insures: the order's `cost.price`, «оценочная стоимость заказа… равняется сумме всех
 * товаров» (lapaygroup `Entity/Order.php`), which with cash on delivery is what the recipient pays for the goods
 * (`paymentValue` = goods + deliveryCost, guide §6.4, error 70 otherwise). So the COD amount is insured at
 * least: RateDesk takes max(declared value, COD) — at most the delivery charge above the goods, never under.
 */
export function insuredValue(declaredKopecks: number, codKopecks: number): number {
  return Math.max(declaredKopecks, codKopecks);
}

export function insuranceFee(insuredKopecks: number): number {
  return share(insuredKopecks, FIVEPOST_INSURANCE_PERMILLE);
}

/**
 * How a point collects: by card where it takes cards (the dearer of the two, so a quote never under-states
 * what the recipient may choose), else in cash; null when it takes neither (guide §3.4: both false, prepaid
 * parcels only). What the catalogue entry does not say is not ruled out.
 */
export function codPaymentAt(point: ReadablePoint): CodPayment | null {
  const takes = point.takes ?? {};
  if (takes.card !== false) return 'card';
  if (takes.cash !== false) return 'cash';
  return null;
}

export function codFee(codKopecks: number, payment: CodPayment): number {
  return share(codKopecks, FIVEPOST_COD_PERMILLE[payment]);
}
