// One getServiceCost2 answer (HTTP status + XML text) → rates, "no service", an ambiguous city with its
// candidates, or a failure (protocols.md §6.2, verified-2026 §6.3–6.4).
import type { CarrierRate } from '../../contract/quote-ext';
import type { Rate } from '../../contract/v1';
import { roublesToKopecks } from '../money';
import type { CarrierFailure } from '../types';
import { DpdServiceCost, DpdServiceCostFault, DpdServiceCostResponse, type DpdCityIndex } from './schema';
import { readSoap } from './soap';
import { DPD } from './descriptor';
import type { DpdCostOperation } from './request';

export const DPD_CARRIER_CODE = DPD.code;
export const DPD_CARRIER_NAME = DPD.name;

/** DPD service codes (gam6itko/dpd-carrier ServiceCode.php, protocols.md §6.2), for answers without a name. */
export const DPD_SERVICE_NAMES: Readonly<Record<string, string>> = {
  BZP: 'DPD 18:00',
  ECN: 'DPD ECONOMY',
  ECU: 'DPD ECONOMY CU',
  CUR: 'DPD CLASSIC',
  NDY: 'DPD EXPRESS',
  CSM: 'DPD Online Express',
  PCL: 'DPD OPTIMUM',
  PUP: 'DPD Shop to Shop',
  MAX: 'DPD MAX domestic',
  MXO: 'DPD Online Max',
};

export type CostReading =
  | { kind: 'rates'; rates: CarrierRate[] }
  | { kind: 'no_service'; detail: string }
  | { kind: 'ambiguous'; pickupDups: DpdCityIndex[]; deliveryDups: DpdCityIndex[]; detail: string }
  | { kind: 'failure'; failure: CarrierFailure; unknownFault?: UnknownDpdFault };

const MAX_DETAIL = 160;
function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL - 1)}…` : flat;
}

function carrierError(detail: string): CostReading {
  return { kind: 'failure', failure: { kind: 'carrier_error', detail: short(detail) } };
}

/**
 * @param selfDelivery which call this answers: the recipient collects (pickup point) or the courier delivers.
 * @param contractCurrency the account's currency (setting carriers.dpd.contract_currency): DPD prices in it
 *   and says so nowhere in the answer.
 */
export function readCostAnswer(
  status: number,
  text: string,
  selfDelivery: boolean,
  contractCurrency: string,
  operation: DpdCostOperation = 'getServiceCost2',
): CostReading {
  const soap = readSoap(text);
  if (soap.kind === 'unreadable') return carrierError(`DPD answered HTTP ${status}: ${soap.why}`);
  if (soap.kind === 'fault') return readFault(soap.faultstring, soap.detail, soap.faultcode);
  if (status < 200 || status > 299) return carrierError(`DPD answered HTTP ${status}`);

  const answer = `${operation}Response`;
  const parsed = DpdServiceCostResponse.safeParse(soap.body[answer]);
  if (!parsed.success) return carrierError(`DPD answered without ${answer}`);
  const items = parsed.data === '' ? [] : (parsed.data.return ?? []);
  if (items.length === 0) return { kind: 'no_service', detail: 'no DPD service on this route' };

  const rates: Rate[] = [];
  for (const raw of items) {
    const item = DpdServiceCost.safeParse(raw);
    if (!item.success) continue;
    const currency = (item.data.currency ?? contractCurrency).toUpperCase();
    if (currency !== 'RUB' && currency !== 'RUR') {
      return carrierError(`DPD priced ${item.data.serviceCode} in ${currency}, not roubles`);
    }
    const rate = toRate(item.data, selfDelivery);
    if (rate) rates.push(rate);
  }
  if (rates.length === 0) return carrierError(`none of the ${items.length} DPD services could be read`);
  return { kind: 'rates', rates };
}

export function toRate(item: DpdServiceCost, selfDelivery: boolean): Rate | null {
  const price = roublesToKopecks(item.cost);
  if (price === undefined) return null;
  const days = item.days === undefined ? null : Number(item.days);
  const name = item.serviceName || DPD_SERVICE_NAMES[item.serviceCode] || `DPD ${item.serviceCode}`;
  return {
    carrier: DPD_CARRIER_CODE,
    carrier_name: DPD_CARRIER_NAME,
    // The same service is priced once per selfDelivery value, so the delivery side is part of the code.
    service_code: `${DPD_CARRIER_CODE}:${item.serviceCode}:${selfDelivery ? 'pickup' : 'door'}`,
    service_name: `${name}, ${selfDelivery ? 'до пункта выдачи' : 'до двери'}`,
    delivery_type: selfDelivery ? 'pickup_point' : 'door',
    price_kopecks: price,
    currency: 'RUB',
    // DPD gives one figure (protocols.md §10): min = max.
    days_min: days,
    days_max: days,
    price_type: 'public',
  };
}

/**
 * Words of DPD's fault texts. DPD publishes neither codes nor texts; the one captured is «Неоднозначно задан
 * населенный пункт» (protocols.md §6.2). Everything else here is our reading of plain Russian, unverified.
 */
const AMBIGUOUS = /неоднозначн|ambiguous/i;
const AUTH = /авториз|аутентиф|clientkey|clientnumber|ключ клиента|номер клиента|auth/i;
const PLACE_NOT_FOUND =
  /(?:город|населенн|пункт|city).*(?:не найден|не существует|not found)|не найден.*(?:город|населенн|пункт)/i;
/**
 * No service on this route or for this parcel (audit DP9: no source shows DPD's own answer; the documented
 * form is an empty getServiceCost2Response, verified-2026 §6.4). Only words that refuse the route itself: a
 * fault read as no_service never counts towards the circuit breaker, so a guess here would hide an outage.
 */
export const DPD_NO_SERVICE_WORDS = /нет доступных|не оказыва|недоступн|no service|не осуществля/i;
/** …unless the text says the refusal is passing («Услуга временно недоступна»): that is DPD being down. */
export const DPD_PASSING_WORDS = /временно|попробуйте позже|повторите|temporar|try again|later/i;
/** The JAX-WS container's own words for an exception inside DPD: an outage, already known, not logged. */
const SERVER_ERROR = /^internal (?:server )?error\.?$/i;

/** A fault the words above do not explain: logged, so that DPD's real texts become known (docs/carriers.md). */
export interface UnknownDpdFault {
  code?: string;
  faultcode: string;
  message: string;
}

/**
 * SOAP Fault → outcome. Candidates (pickupDups/deliveryDups) make it a choice to resolve, not a failure. A
 * text we cannot read is classified conservatively: `carrier_error` with DPD's own words ("DPD fault <code>:
 * <message>"), never a guessed `no_service`, and flagged for the log (DP9).
 */
export function readFault(faultstring: string, detail: Record<string, unknown>, faultcode = ''): CostReading {
  const fault = DpdServiceCostFault.safeParse(detail.ServiceCostFault2 ?? detail.ServiceCostFault ?? {});
  const data = fault.success
    ? fault.data
    : { code: undefined, message: undefined, pickupDups: [], deliveryDups: [] };
  const message = data.message || faultstring || 'SOAP Fault';
  const said = data.code ? `${data.code}: ${message}` : message;
  if (data.pickupDups.length > 0 || data.deliveryDups.length > 0) {
    return { kind: 'ambiguous', pickupDups: data.pickupDups, deliveryDups: data.deliveryDups, detail: said };
  }
  if (AMBIGUOUS.test(message) || PLACE_NOT_FOUND.test(message)) {
    return { kind: 'failure', failure: { kind: 'city_not_found', detail: short(`DPD: ${said}`) } };
  }
  if (AUTH.test(message)) {
    return carrierError(`DPD rejected the credentials (${said}); check the client number and key`);
  }
  if (DPD_NO_SERVICE_WORDS.test(message) && !DPD_PASSING_WORDS.test(message)) {
    return { kind: 'no_service', detail: short(said) };
  }
  const failure: CarrierFailure = { kind: 'carrier_error', detail: short(`DPD fault ${said}`) };
  if (!data.code && SERVER_ERROR.test(message.trim())) return { kind: 'failure', failure };
  return {
    kind: 'failure',
    failure,
    unknownFault: { ...(data.code ? { code: data.code } : {}), faultcode, message: short(message) },
  };
}

/**
 * What a DPD price holds of the clerk's options (#21). `cost` is one figure: with a declared value it includes
 * DPD's fee for it (the calculator takes `declaredValue` to price it), not given apart (null); the calculator
 * has no cash-on-delivery field at all (its НПП fee is the contract's), so COD is never in the price.
 */
export function withOptions(
  reading: CostReading,
  asked: { declaredValueKopecks: number; codKopecks: number },
): CostReading {
  if (reading.kind !== 'rates') return reading;
  const insured = asked.declaredValueKopecks > 0;
  const cod = asked.codKopecks > 0;
  return {
    kind: 'rates',
    rates: reading.rates.map((rate) => ({
      ...rate,
      breakdown: {
        base_kopecks: insured ? null : rate.price_kopecks,
        insurance_kopecks: insured ? null : 0,
        cod_fee_kopecks: cod ? null : 0,
      },
      ...(cod ? { options_not_priced: [DPD_COD_NOT_QUOTED] } : {}),
    })),
  };
}

export const DPD_COD_NOT_QUOTED = {
  option: 'cod',
  reason: 'not_quoted',
  detail: "DPD's calculator has no cash-on-delivery field; its fee (НПП) is the contract's",
} as const;
