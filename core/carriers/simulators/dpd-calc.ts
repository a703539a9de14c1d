// What the DPD simulator answers to one SOAP request to /services/calculator2, as a pure function: the
// envelope checked like DPD's JAX-WS endpoint checks it (SOAP 1.1 envelope, getServiceCost2 in the lowercase
// calculator namespace with an unqualified <request>), the account, the cities (ambiguous names → Fault with
// candidates), the parcel, then prices from the shared model: an express courier, dear and fast (1–3 days).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DPD_LIMITS } from '../dpd/limits';
import { buildSoapFault, buildSoapResponse, DPD_CALCULATOR_NS, SOAP_ENV_NS, type XmlTree } from '../dpd/soap';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import {
  dpdCityById,
  dpdCityByIndex,
  findDpdCities,
  listsSparseCandidates,
  type SimDpdCity,
} from './dpd-cities';
import { modelPriceKopecks, zoneOf } from './tariff-model';

export type DpdAnswer = { kind: 'hang' } | { kind: 'reply'; status: number; body: string };

export interface DpdAccount {
  clientNumber: string;
  clientKey: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  trimValues: true,
});

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function fault(code: 'S:Client' | 'S:Server' | 'S:VersionMismatch', text: string): DpdAnswer {
  return { kind: 'reply', status: 500, body: buildSoapFault(code, text) };
}

/**
 * The simulator's own ServiceCostFault2 codes: DPD publishes none and none is in our sources (audit DP8, DP9).
 * The adapter reads DPD's words, never these codes, and logs a coded fault it cannot read by its words.
 */
export const SIM_DPD_FAULT_CODES = ['no-auth', 'city-not-found', 'ambiguous-city', 'bad-request'] as const;
type SimDpdFaultCode = (typeof SIM_DPD_FAULT_CODES)[number];

/** DPD's own fault: HTTP 500, faultstring = message, detail ServiceCostFault2{code, message, *Dups}. */
function serviceFault(
  code: SimDpdFaultCode,
  message: string,
  dups: { pickupDups?: XmlTree[]; deliveryDups?: XmlTree[] } = {},
): DpdAnswer {
  return {
    kind: 'reply',
    status: 500,
    body: buildSoapFault('S:Server', message, {
      element: 'ServiceCostFault2',
      namespace: DPD_CALCULATOR_NS,
      content: {
        code,
        ...(dups.deliveryDups ? { deliveryDups: dups.deliveryDups } : {}),
        message,
        ...(dups.pickupDups ? { pickupDups: dups.pickupDups } : {}),
      },
    }),
  };
}

/** A prefixed or unprefixed element and the namespace it is in (declared on it or on an ancestor). */
function element(
  parent: Node,
  local: string,
  inherited: Record<string, string>,
): { node: unknown; ns: string | null; scope: Record<string, string> } | null {
  for (const [key, node] of Object.entries(parent)) {
    if (key.startsWith('@_')) continue;
    const [prefix, name] = key.includes(':') ? key.split(':', 2) : ['', key];
    if (name !== local) continue;
    const scope = { ...inherited };
    if (isNode(node)) {
      for (const [attr, value] of Object.entries(node)) {
        if (attr === '@_xmlns') scope[''] = String(value);
        else if (attr.startsWith('@_xmlns:')) scope[attr.slice('@_xmlns:'.length)] = String(value);
      }
    }
    return { node, ns: scope[prefix!] ?? null, scope };
  }
  return null;
}

interface CityWanted {
  cityId?: string;
  index?: string;
  cityName?: string;
  regionCode?: string;
  countryCode?: string;
}

type Located = { ok: true; city: SimDpdCity | { index: string } } | { ok: false; answer: DpdAnswer };

/** A candidate as CityIndex; for SPARSE_CANDIDATE_NAMES without the optional abbreviation and index range. */
function asCityIndex(c: SimDpdCity): XmlTree {
  const fields: XmlTree = {
    cityId: c.cityId,
    countryCode: 'RU',
    countryName: 'Россия',
    regionCode: c.regionCode,
    regionName: c.regionName,
    cityName: c.cityName,
  };
  if (listsSparseCandidates(c.cityName)) return fields;
  return { ...fields, abbreviation: c.abbreviation, indexMin: c.index, indexMax: c.index };
}

function locate(wanted: unknown, side: 'pickup' | 'delivery'): Located {
  if (!isNode(wanted)) return { ok: false, answer: serviceFault('bad-request', `Не задан параметр ${side}`) };
  const w = wanted as CityWanted;
  const notFound = (): Located => ({
    ok: false,
    answer: serviceFault(
      'city-not-found',
      `Населенный пункт ${side === 'pickup' ? 'отправления' : 'доставки'} не найден`,
    ),
  });
  if (w.cityId !== undefined) {
    const c = /^\d+$/.test(w.cityId) ? dpdCityById(Number(w.cityId)) : undefined;
    return c ? { ok: true, city: c } : notFound();
  }
  // An index wins over a name sent beside it (DPD_PLACE_WITH_INDEX): the simulator's own reading, DPD's
  // precedence between the two is not in our sources (audit DP5).
  if (w.index !== undefined) {
    if (!/^\d{6}$/.test(w.index)) return notFound();
    // Another carrier's sandbox trigger is an ordinary index here, so one carrier's trigger never fails DPD.
    if (ALL_TRIGGER_CODES.has(w.index)) return { ok: true, city: { index: w.index } };
    const c = dpdCityByIndex(w.index);
    return c ? { ok: true, city: c } : notFound();
  }
  if (w.cityName !== undefined && w.cityName !== '') {
    if (w.countryCode !== undefined && w.countryCode.toUpperCase() !== 'RU') return notFound();
    const region = w.regionCode !== undefined && /^\d+$/.test(w.regionCode) ? Number(w.regionCode) : null;
    const found = findDpdCities(w.cityName, region);
    if (found.length === 0) return notFound();
    if (found.length > 1) {
      const dups = found.map(asCityIndex);
      return {
        ok: false,
        answer: serviceFault(
          'ambiguous-city',
          'Неоднозначно задан населенный пункт',
          side === 'pickup' ? { pickupDups: dups } : { deliveryDups: dups },
        ),
      };
    }
    return { ok: true, city: found[0]! };
  }
  return {
    ok: false,
    answer: serviceFault('bad-request', `Не задан населенный пункт (${side}): cityId, index или cityName`),
  };
}

/**
 * The simulator's DPD services: what each costs relative to the model, on which delivery side, and up to which
 * weight it is offered (DPD_LIMITS' weight for all: DPD publishes no per-service figure we found, DP10).
 */
const SERVICES: ReadonlyArray<{
  code: string;
  name: string;
  factor: number;
  dayOffset: number;
  selfDelivery: boolean;
  maxWeightGrams: number;
}> = [
  { code: 'NDY', name: 'DPD EXPRESS', factor: 2.6, dayOffset: -1, selfDelivery: false },
  { code: 'BZP', name: 'DPD 18:00', factor: 2.2, dayOffset: -1, selfDelivery: false },
  { code: 'CUR', name: 'DPD CLASSIC', factor: 1.9, dayOffset: 0, selfDelivery: false },
  { code: 'CUR', name: 'DPD CLASSIC', factor: 1.7, dayOffset: 0, selfDelivery: true },
  { code: 'PCL', name: 'DPD OPTIMUM', factor: 1.6, dayOffset: 0, selfDelivery: true },
].map((s) => ({ ...s, maxWeightGrams: DPD_LIMITS.maxWeightGrams }));

/**
 * The largest volume one parcel within DPD_LIMITS can have: a box of length L and square end W with
 * L + 4W ≤ the length-plus-girth limit is largest at L = limit / 3 (100 × 50 × 50 cm = 0.25 m³ for 300 cm).
 */
const MAX_PARCEL_VOLUME_M3 = (() => {
  const lpg = DPD_LIMITS.maxLengthPlusGirthCm ?? 300;
  const length = Math.min(lpg / 3, DPD_LIMITS.maxLengthCm ?? lpg);
  const end = (lpg - length) / 4;
  return (length * end * end) / 1e6;
})();

const DECIMAL = /^\d+(?:\.\d+)?$/;

export function answerDpdRequest(text: string, account: DpdAccount): DpdAnswer {
  if (XMLValidator.validate(text) !== true)
    return fault('S:Client', "Couldn't create SOAP message due to exception: XML reader error");
  const tree = parser.parse(text) as Node;
  const env = element(tree, 'Envelope', {});
  if (!env || !isNode(env.node)) return fault('S:Client', "Couldn't create SOAP message: no Envelope");
  if (env.ns !== SOAP_ENV_NS)
    return fault(
      'S:VersionMismatch',
      `Invalid SOAP envelope namespace ${env.ns ?? '(none)'}; SOAP 1.1 expected`,
    );
  const body = element(env.node, 'Body', env.scope);
  if (!body || !isNode(body.node) || body.ns !== SOAP_ENV_NS) return fault('S:Client', 'SOAP Body missing');
  // getServiceCost2 prices one parcel by weight and volume; getServiceCostByParcels2 prices parcel[] each with
  // its weight (kg), sides (cm) and quantity (protocols.md §6.2).
  const byParcels = element(body.node, 'getServiceCostByParcels2', body.scope);
  const operation = byParcels ? 'getServiceCostByParcels2' : 'getServiceCost2';
  const op = byParcels ?? element(body.node, 'getServiceCost2', body.scope);
  if (!op || op.ns !== DPD_CALCULATOR_NS) {
    const first = Object.keys(body.node).find((k) => !k.startsWith('@_')) ?? '(nothing)';
    return fault('S:Client', `Cannot find dispatch method for {${op?.ns ?? ''}}${first.split(':').pop()}`);
  }
  // <request> must be unqualified: a prefixed one is a different element to JAX-WS and arrives as null.
  const request = isNode(op.node) ? op.node.request : undefined;
  if (!isNode(request)) return serviceFault('bad-request', 'Не задан параметр request');

  const auth = request.auth;
  if (!isNode(auth) || auth.clientNumber !== account.clientNumber || auth.clientKey !== account.clientKey) {
    return serviceFault('no-auth', 'Ошибка авторизации: неверный номер клиента или ключ');
  }

  const pickup = locate(request.pickup, 'pickup');
  if (!pickup.ok) return pickup.answer;
  const delivery = locate(request.delivery, 'delivery');
  if (!delivery.ok) return delivery.answer;

  for (const flag of ['selfPickup', 'selfDelivery'] as const) {
    if (request[flag] !== 'true' && request[flag] !== 'false')
      return serviceFault('bad-request', `Неверное значение параметра ${flag}`);
  }
  const load = operation === 'getServiceCostByParcels2' ? parcelsLoad(request.parcel) : singleLoad(request);
  if ('fault' in load) return serviceFault('bad-request', load.fault);
  const declared = request.declaredValue;
  if (declared !== undefined && (typeof declared !== 'string' || !DECIMAL.test(declared)))
    return serviceFault('bad-request', 'Неверное значение параметра declaredValue');

  const toIndex = delivery.city.index;
  switch (sandboxBehaviour('dpd', toIndex)) {
    case 'timeout':
      return { kind: 'hang' };
    case 'error':
      return fault('S:Server', 'Internal Error');
    case 'no_service':
      return emptyAnswer(operation);
    case 'ok':
      break;
  }

  const { grams, volumeM3, chargeable, overSides } = load;
  // getServiceCost2 carries weight and volume, never the sides, so DPD can refuse a parcel only by those. What
  // DPD answers for a parcel over its limits is not in our sources (audit: "DPD's real reaction is unknown").
  // The simulator's own plausible answer: its calculator lists the services that can carry the parcel (none
  // over DPD_LIMITS' weight, or over the volume no parcel within them can have), and an empty list is DPD's
  // documented "no service" (verified-2026 §6.4).
  // By parcels, each parcel is judged on its own, its sides against DPD_LIMITS too (they are sent there).
  const offered =
    overSides || volumeM3 > MAX_PARCEL_VOLUME_M3 ? [] : SERVICES.filter((s) => grams <= s.maxWeightGrams);
  if (offered.length === 0) return emptyAnswer(operation);
  const zone = zoneOf(pickup.city.index, toIndex);
  const selfDelivery = request.selfDelivery === 'true';
  const insurance = declared === undefined ? 0 : Math.round(Number(declared) * 0.5); // 0.5 % of the value, in kopecks
  const returns = offered
    .filter((s) => s.selfDelivery === selfDelivery)
    .map((s) => {
      const kopecks = modelPriceKopecks(zone, chargeable, s.factor) + 40 + insurance;
      const days = Math.min(3, Math.max(1, Math.ceil(zone / 2) + s.dayOffset));
      return { serviceCode: s.code, serviceName: s.name, cost: roubles(kopecks), days };
    });
  return {
    kind: 'reply',
    status: 200,
    body: buildSoapResponse(`${operation}Response`, DPD_CALCULATOR_NS, { return: returns }),
  };
}

function emptyAnswer(operation: string): DpdAnswer {
  return {
    kind: 'reply',
    status: 200,
    body: buildSoapResponse(`${operation}Response`, DPD_CALCULATOR_NS, ''),
  };
}

/**
 * What the services are judged and priced by: `grams` the heaviest parcel (each service's weight limit is per
 * parcel), `volumeM3` the largest parcel's volume, `chargeable` the whole shipment's billable grams (actual or
 * volumetric at 5000 cm³/kg, whichever is more, parcel by parcel).
 */
interface Load {
  grams: number;
  volumeM3: number;
  chargeable: number;
  overSides: boolean;
}

function billable(grams: number, volumeM3: number): number {
  return Math.max(grams, Math.ceil((volumeM3 * 1e6) / 5000) * 1000);
}

/** getServiceCost2: one parcel, weight (kg) and volume (m³), never its sides. */
function singleLoad(request: Node): Load | { fault: string } {
  const weight = request.weight;
  if (typeof weight !== 'string' || !DECIMAL.test(weight) || Number(weight) <= 0)
    return { fault: 'Неверное значение параметра weight' };
  const volume = request.volume;
  if (volume !== undefined && (typeof volume !== 'string' || !DECIMAL.test(volume)))
    return { fault: 'Неверное значение параметра volume' };
  const grams = Math.round(Number(weight) * 1000);
  const volumeM3 = volume === undefined ? 0 : Number(volume);
  return { grams, volumeM3, chargeable: billable(grams, volumeM3), overSides: false };
}

/** getServiceCostByParcels2: parcel+ {weight kg, length, width, height cm, quantity}; at least one parcel. */
function parcelsLoad(raw: unknown): Load | { fault: string } {
  const parcels = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  if (parcels.length === 0) return { fault: 'Не задан параметр parcel' };
  const load: Load = { grams: 0, volumeM3: 0, chargeable: 0, overSides: false };
  for (const p of parcels) {
    if (!isNode(p)) return { fault: 'Неверное значение параметра parcel' };
    const weight = p.weight;
    if (typeof weight !== 'string' || !DECIMAL.test(weight) || Number(weight) <= 0)
      return { fault: 'Неверное значение параметра parcel.weight' };
    const sides: number[] = [];
    for (const side of ['length', 'width', 'height'] as const) {
      const v = p[side];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !DECIMAL.test(v))
        return { fault: `Неверное значение параметра parcel.${side}` };
      sides.push(Number(v));
    }
    const quantity = p.quantity === undefined ? '1' : p.quantity;
    if (typeof quantity !== 'string' || !/^[1-9]\d*$/.test(quantity))
      return { fault: 'Неверное значение параметра parcel.quantity' };
    const grams = Math.round(Number(weight) * 1000);
    const volumeM3 = sides.length === 3 ? (sides[0]! * sides[1]! * sides[2]!) / 1e6 : 0;
    const [l = 0, w = 0, h = 0] = [...sides].sort((a, b) => b - a);
    load.grams = Math.max(load.grams, grams);
    load.volumeM3 = Math.max(load.volumeM3, volumeM3);
    load.chargeable += billable(grams, volumeM3) * Number(quantity);
    load.overSides ||=
      l > (DPD_LIMITS.maxLengthCm ?? Infinity) ||
      l + 2 * (w + h) > (DPD_LIMITS.maxLengthPlusGirthCm ?? Infinity);
  }
  return load;
}

/** Kopecks → "812.40": DPD's xsd:double, written with two decimals. */
function roubles(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}
