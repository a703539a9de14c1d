// Declared value and cash on delivery for CDEK (#21). tarifflist prices carriage only; insurance is the
// INSURANCE service of /calculator/tariff, one tariff per call (protocols.md §2.5), so with a declared value
// each tariff of the list is asked again with it, and its answer gives the parts: `delivery_sum` (carriage),
// `services[]{code, sum}` (INSURANCE) and `total_sum` (what CDEK charges). CDEK's calculator has no field for
// cash on delivery: its fee is the contract's commission on the collected money, never in a quote.
import type { CarrierRate, NotPriced } from '../../contract/quote-ext';
import { roublesToKopecks } from '../money';
import type { CarrierFailure } from '../types';
import type { CdekLocation } from './locations';
import { CDEK_INSURANCE } from './request';
import { CdekTariffResult } from './schema';

export const CDEK_COD_NOT_QUOTED: NotPriced = {
  option: 'cod',
  reason: 'not_quoted',
  detail:
    "CDEK's calculator does not price the cash-on-delivery commission (a share of the collected money, by contract)",
};

/** The breakdown of a tarifflist rate (carriage only) and what it leaves out. */
export function carriageOnly(rate: CarrierRate, codKopecks: number): CarrierRate {
  return {
    ...rate,
    breakdown: {
      base_kopecks: rate.price_kopecks,
      insurance_kopecks: 0,
      cod_fee_kopecks: codKopecks > 0 ? null : 0,
    },
    ...(codKopecks > 0 ? { options_not_priced: [CDEK_COD_NOT_QUOTED] } : {}),
  };
}

/**
 * A /calculator/tariff answer for one tariff with INSURANCE → that tariff's rate priced with it, or why not.
 * `total_sum` is the price; a `total_sum` below the carriage plus insurance would be an answer we misread.
 */
export function readInsuredTariff(
  rate: CarrierRate,
  status: number,
  json: unknown,
  codKopecks: number,
): { ok: true; rate: CarrierRate } | { ok: false; detail: string } {
  if (status < 200 || status >= 300) return { ok: false, detail: `HTTP ${status}` };
  const parsed = CdekTariffResult.safeParse(json);
  if (!parsed.success) return { ok: false, detail: 'an unexpected body' };
  const base = roublesToKopecks(parsed.data.delivery_sum);
  const total = roublesToKopecks(parsed.data.total_sum);
  const service = parsed.data.services?.find((s) => s.code.toUpperCase() === CDEK_INSURANCE);
  const insurance = service?.sum === undefined ? undefined : roublesToKopecks(service.sum);
  if (base === undefined || total === undefined) return { ok: false, detail: 'unreadable sums' };
  if (insurance === undefined) return { ok: false, detail: 'no INSURANCE among the services priced' };
  return {
    ok: true,
    rate: {
      ...rate,
      price_kopecks: total,
      breakdown: {
        base_kopecks: base,
        insurance_kopecks: insurance,
        cod_fee_kopecks: codKopecks > 0 ? null : 0,
      },
      ...(codKopecks > 0 ? { options_not_priced: [CDEK_COD_NOT_QUOTED] } : {}),
    },
  };
}

/** A tariff CDEK did not price with insurance: its carriage price stands, and says insurance is left out. */
export function insuranceNotQuoted(
  rate: CarrierRate,
  codKopecks: number,
  why: CarrierFailure | string,
): CarrierRate {
  const carriage = carriageOnly(rate, codKopecks);
  const detail = typeof why === 'string' ? why : 'detail' in why && why.detail ? why.detail : why.kind;
  return {
    ...carriage,
    breakdown: { ...carriage.breakdown, insurance_kopecks: null },
    options_not_priced: [
      {
        option: 'insurance',
        reason: 'not_quoted',
        detail: `CDEK /calculator/tariff with INSURANCE failed: ${detail}`,
      },
      ...(carriage.options_not_priced ?? []),
    ],
  };
}

/**
 * GET /location/cities for the recipient's place, one result: its `payment_limit`, CDEK's ceiling on cash on
 * delivery there (protocols.md §2.7 lists the field; CDEK's cities page: -1 no ceiling, 0 no cash on delivery,
 * otherwise the most it collects, roubles).
 */
export function paymentLimitPath(to: CdekLocation): string {
  const params = new URLSearchParams(
    'code' in to ? { code: String(to.code) } : { postal_code: to.postal_code, country_codes: 'RU' },
  );
  params.set('size', '1');
  return `/location/cities?${params.toString()}`;
}

/** The ceiling in kopecks (null: none, or nothing readable: no refusal is guessed). */
export function readPaymentLimit(status: number, json: unknown): number | null {
  if (status < 200 || status >= 300 || !Array.isArray(json)) return null;
  const first: unknown = json[0];
  if (typeof first !== 'object' || first === null) return null;
  const limit = (first as { payment_limit?: unknown }).payment_limit;
  if (typeof limit !== 'number' && typeof limit !== 'string') return null;
  if (Number(limit) < 0) return null;
  return roublesToKopecks(limit) ?? null;
}

/** CDEK's refusal of this COD in the recipient's town, or null when it takes it (as far as CDEK says). */
export function codRefusal(limitKopecks: number | null, codKopecks: number): NotPriced | null {
  if (limitKopecks === null || codKopecks <= 0 || codKopecks <= limitKopecks) return null;
  return {
    option: 'cod',
    reason: 'not_offered',
    detail:
      limitKopecks === 0
        ? 'CDEK takes no cash on delivery in the recipient town (payment_limit 0)'
        : `CDEK takes cash on delivery up to ${limitKopecks / 100} RUB in the recipient town (payment_limit)`,
  };
}

/** The refusal replaces "not quoted" on every rate: COD is then not part of the shipment at all. */
export function withCodRefusal(rate: CarrierRate, refusal: NotPriced): CarrierRate {
  const others = (rate.options_not_priced ?? []).filter((o) => o.option !== 'cod');
  return {
    ...rate,
    breakdown: { ...rate.breakdown, cod_fee_kopecks: 0 },
    options_not_priced: [...others, refusal],
  };
}
