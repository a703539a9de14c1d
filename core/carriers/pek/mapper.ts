// PEK calculateprice answers → aggregator rates (verified-2026.md §5.3–5.4).
//
// PEK reports logical errors inside HTTP 200 (`{"error":{…}}`, or `hasError` at the root or per product), so
// the status alone never says a quote succeeded. Price: `costTotal`, roubles (a number, sometimes a string),
// converted decimally to kopecks. Days: `estDeliveryTime`, calendar days with pickup and delivery included;
// without it, the product's `commonTerms` strings ("3" or "3 – 4"). VAT: PEK does not say; `costTotal` is
// taken as what the customer pays (PEK_PRICE_INCLUDES_VAT_AS_QUOTED, docs/carriers.md).
import type { CarrierRate, CarrierRateExtras } from '../../contract/quote-ext';
import type { DeliveryType } from '../../contract/v1';
import { roublesToKopecks } from '../money';
import type { CarrierOutcome } from '../types';
import { PEK_PRODUCTS } from './products';
import { PekCalculateResponse, PekCommonTerm, PekErrorBody, PekTransfer, type PekService } from './schema';
import { PEK } from './descriptor';

export const PEK_CARRIER_CODE = PEK.code;
export const PEK_CARRIER_NAME = PEK.name;

/** Whether costTotal includes VAT is not published; we show it as quoted (the amount PEK bills). */
export const PEK_PRICE_INCLUDES_VAT_AS_QUOTED = true;

export type PekLeg = 'terminal' | 'door';

/** What one answer means, plus what the adapter logs. */
export interface PekReading {
  outcome: CarrierOutcome;
  /** An error form we do not classify further (title/message), for the log; null when none. */
  unclassified: string | null;
}

/**
 * What a root `hasError` says when PEK does not serve a route. PEK publishes no error codes and what the root
 * flag means for an unserved route is not documented (audit P9, unverified): a message that speaks of the
 * route, direction or service area is read as "no service" (an answer, which must not count towards the
 * breaker); any other root `hasError` stays a carrier error and is logged, so its wording can be added here.
 */
export const PEK_ROUTE_REFUSAL =
  /направлени|маршрут|обслужива|вне зоны|нет возможности (доставки|перевозки)|не осуществля|не выполняет/i;

/**
 * What PEK says when it cannot place a door address (RateDesk sends a town, no street: audit P5). Neither the
 * form (400 validation, an error inside HTTP 200, a root `hasError`) nor the words are published: an error of
 * the door leg that names the delivery address (a `fields` key under `delivery`, or the words адрес /
 * координат) is read as "no door rate", never a carrier error.
 */
export const PEK_DOOR_ADDRESS_REFUSAL = /адрес|координат/i;

/** "3", "3-4", "3 – 4", "от 3 до 4" → [3, 4]; null when no number is in it. */
export function parseTermString(text: string): [number, number] | null {
  const numbers = [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));
  if (numbers.length === 0) return null;
  const min = Math.min(...numbers.slice(0, 2));
  const max = Math.max(...numbers.slice(0, 2));
  return [min, max];
}

function daysFor(
  transfer: PekTransfer,
  terms: PekCommonTerm | undefined,
  leg: PekLeg,
): [number | null, number | null] {
  if (transfer.estDeliveryTime !== undefined && transfer.estDeliveryTime !== null) {
    return [transfer.estDeliveryTime, transfer.estDeliveryTime];
  }
  const strings = leg === 'door' ? terms?.transportingWithDelivery : terms?.transporting;
  // Avia can list several cut-offs; the first is the next departure.
  const parsed = strings?.[0] === undefined ? null : parseTermString(strings[0]);
  return parsed ?? [null, null];
}

/** What the request asked for beyond the cargo: the breakdown and `options_not_priced` depend on it. */
export interface PekAsked {
  declaredValueKopecks: number;
  codKopecks: number;
}

const NOTHING_ASKED: PekAsked = { declaredValueKopecks: 0, codKopecks: 0 };

/**
 * PEK's cash on delivery (наложенный платёж) is a service of its order (`services.cashOnDelivery` with
 * `cashOnDeliverySum`, glook `CashOnDelivery.php`); calculateprice has no such field
 * (`CalculatePriceRequest.php`), so its prices never include the fee: said on the rate, never left out.
 */
export const PEK_COD_NOT_QUOTED =
  "PEK's calculator does not price cash on delivery; PEK charges it when the order is placed";

/**
 * The service group that carries the insurance. Its name is not published: `insurance` is the spelling of
 * protocols.md §5.3's example, beside `transporting`, `pickup`, `delivery` (unverified: a live answer with
 * `isInsurance` will show it; `insuranceTerm` «встречается только у услуги страхования» marks it too).
 */
export const PEK_INSURANCE_SERVICE = /^insurance$/i;

/** A service's cost and its sub-services' (which PEK does not include in the parent's `cost`), kopecks. */
function costOf(service: PekService): number | null {
  const own = service.cost === undefined || service.cost === null ? 0 : roublesToKopecks(service.cost);
  if (own === undefined) return null;
  let total = own;
  for (const sub of service.services ?? []) {
    const c = costOf(sub);
    if (c === null) return null;
    total += c;
  }
  return total;
}

function isInsurance(service: PekService): boolean {
  return (
    PEK_INSURANCE_SERVICE.test(service.serviceType ?? '') ||
    (service as { insuranceTerm?: unknown }).insuranceTerm !== undefined
  );
}

/**
 * The fee breakdown of one product: the insurance services' costs (sub-services included) are the insurance,
 * the rest of `costTotal` the base. With a value declared and no insurance service in the answer, both parts
 * are unknown (inside the total).
 */
export function extrasOf(transfer: PekTransfer, price: number, asked: PekAsked): CarrierRateExtras {
  const insurance = (transfer.services ?? []).filter(isInsurance).map(costOf);
  const known = insurance.every((c): c is number => c !== null);
  const insuranceKopecks =
    insurance.length > 0 && known
      ? insurance.reduce((a, b) => a + b, 0)
      : asked.declaredValueKopecks > 0
        ? null
        : 0;
  return {
    breakdown: {
      base_kopecks: insuranceKopecks === null || insuranceKopecks > price ? null : price - insuranceKopecks,
      insurance_kopecks: insuranceKopecks,
      cod_fee_kopecks: asked.codKopecks > 0 ? null : 0,
    },
    ...(asked.codKopecks > 0
      ? { options_not_priced: [{ option: 'cod', reason: 'not_quoted', detail: PEK_COD_NOT_QUOTED }] }
      : {}),
  };
}

export function mapTransfer(
  transfer: PekTransfer,
  terms: PekCommonTerm | undefined,
  leg: PekLeg,
  asked: PekAsked = NOTHING_ASKED,
): CarrierRate | null {
  if (transfer.hasError === true) return null;
  if (transfer.costTotal === undefined || transfer.costTotal === null) return null;
  const price = roublesToKopecks(transfer.costTotal);
  if (price === undefined) return null;
  const product = PEK_PRODUCTS[transfer.type] ?? `ПЭК, продукт ${transfer.type}`;
  const [daysMin, daysMax] = daysFor(transfer, terms, leg);
  const deliveryType: DeliveryType = leg;
  return {
    carrier: PEK_CARRIER_CODE,
    carrier_name: PEK_CARRIER_NAME,
    service_code: `${PEK_CARRIER_CODE}:${transfer.type}:${leg}`,
    service_name: `${product}, ${leg === 'door' ? 'до двери' : 'до терминала'}`,
    delivery_type: deliveryType,
    price_kopecks: price,
    currency: 'RUB',
    days_min: daysMin,
    days_max: daysMax,
    price_type: 'public',
    ...extrasOf(transfer, price, asked),
  };
}

function describeError(body: PekErrorBody): string {
  const { title, message, fields } = body.error;
  const parts = [title, message].filter((p): p is string => Boolean(p && p.trim()));
  const fieldKeys = (fields ?? []).map((f) => f.key).filter((k): k is string => Boolean(k));
  if (fieldKeys.length) parts.push(`fields: ${fieldKeys.join(', ')}`);
  return parts.join(': ') || 'no message';
}

/** An error body of the door leg that is about the delivery address (PEK_DOOR_ADDRESS_REFUSAL). */
function refusesDoorAddress(body: PekErrorBody): boolean {
  const { title, message, fields } = body.error;
  if ((fields ?? []).some((f) => f.key?.toLowerCase().startsWith('delivery'))) return true;
  return PEK_DOOR_ADDRESS_REFUSAL.test(`${title ?? ''} ${message ?? ''}`);
}

const noDoorRate = (said: string): PekReading => ({
  outcome: { ok: false, kind: 'no_service', detail: `no PEK door rate: ${said}` },
  unclassified: null,
});

/** The whole HTTP answer of calculateprice → outcome, for one leg (terminal or door). */
export function readCalculate(
  status: number,
  json: unknown,
  leg: PekLeg,
  asked: PekAsked = NOTHING_ASKED,
): PekReading {
  const fail = (detail: string, unclassified: string | null = null): PekReading => ({
    outcome: { ok: false, kind: 'carrier_error', detail },
    unclassified,
  });
  const errorBody = json === undefined ? undefined : PekErrorBody.safeParse(json);
  if (status === 401 || status === 403) {
    const said = errorBody?.success ? `: ${describeError(errorBody.data)}` : '';
    return fail(`PEK rejected the credentials (HTTP ${status})${said}`);
  }
  if (status >= 500) {
    const said = errorBody?.success ? `: ${describeError(errorBody.data)}` : '';
    return fail(`PEK HTTP ${status}${said}`);
  }
  if (errorBody?.success) {
    // 400 is PEK's validation error; 200 with `error` a logical one (the help says to check every body).
    const text = describeError(errorBody.data);
    if (leg === 'door' && (status === 200 || status === 400) && refusesDoorAddress(errorBody.data))
      return noDoorRate(text);
    if (status === 400) return fail(`PEK validation error: ${text}`);
    if (status === 200) return fail(`PEK error: ${text}`, `HTTP 200: ${text}`);
    // 429 (PEK's 100 requests a minute) and the like: the status says more than the body.
    return fail(`PEK HTTP ${status}: ${text}`, `HTTP ${status}: ${text}`);
  }
  if (status < 200 || status >= 300) return fail(`PEK HTTP ${status}`);
  if (json === undefined) return fail(`PEK answered HTTP ${status} without valid JSON`);
  const parsed = PekCalculateResponse.safeParse(json);
  if (!parsed.success) return fail(`PEK answered HTTP ${status} with an unexpected body`);
  const body = parsed.data;
  if (body.hasError === true) {
    const text = body.errorMessage?.trim() || 'no message';
    if (PEK_ROUTE_REFUSAL.test(text))
      return { outcome: { ok: false, kind: 'no_service', detail: text }, unclassified: null };
    if (leg === 'door' && PEK_DOOR_ADDRESS_REFUSAL.test(text)) return noDoorRate(text);
    return fail(`PEK error: ${text}`, `hasError: ${text}`);
  }
  if (body.currencyCode !== undefined && String(body.currencyCode) !== '643') {
    return fail(`PEK answered in currency ${String(body.currencyCode)}, not roubles (643)`);
  }
  if (body.transfers === undefined) return fail('PEK answered without transfers');

  const terms = (body.commonTerms ?? []).flatMap((t) => {
    const r = PekCommonTerm.safeParse(t);
    return r.success ? [r.data] : [];
  });
  const transfers = body.transfers.flatMap((t) => {
    const r = PekTransfer.safeParse(t);
    return r.success ? [r.data] : [];
  });
  const rates = transfers
    .map((t) =>
      mapTransfer(
        t,
        terms.find((c) => c.type === t.type),
        leg,
        asked,
      ),
    )
    .filter((r): r is CarrierRate => r !== null);
  if (rates.length > 0) return { outcome: { ok: true, rates }, unclassified: null };

  // No usable product: every product said why (hasError + errorMessage) → PEK does not carry this.
  const refusals = transfers.filter((t) => t.hasError === true);
  if (body.transfers.length === 0 || (refusals.length > 0 && refusals.length === body.transfers.length)) {
    const said = [...new Set(refusals.map((t) => t.errorMessage?.trim()).filter(Boolean))].join('; ');
    return {
      outcome: { ok: false, kind: 'no_service', detail: said || 'no PEK product for this route and cargo' },
      unclassified: null,
    };
  }
  return fail(`none of the ${body.transfers.length} PEK products could be read`);
}
