// What the DPD simulator answers to one SOAP request to /services/calculator2, as a pure function: the
// envelope checked like DPD's JAX-WS endpoint checks it (SOAP 1.1 envelope, getServiceCost2 in the lowercase
// calculator namespace with an unqualified <request>), the account, the cities (ambiguous names → Fault with
// candidates), the parcel, then prices from the shared model: an express courier, dear and fast (1–3 days).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DPD_LIMITS } from '../dpd/limits';
import { buildSoapFault, buildSoapResponse, DPD_CALCULATOR_NS, SOAP_ENV_NS, type XmlTree } from '../dpd/soap';
import { exceededLimits } from '../limits';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { dpdCityById, dpdCityByIndex, findDpdCities, type SimDpdCity } from './dpd-cities';
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

/** DPD's own fault: HTTP 500, faultstring = message, detail ServiceCostFault2{code, message, *Dups}. */
function serviceFault(
  code: string,
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

function asCityIndex(c: SimDpdCity): XmlTree {
  return {
    cityId: c.cityId,
    countryCode: 'RU',
    countryName: 'Россия',
    regionCode: c.regionCode,
    regionName: c.regionName,
    cityName: c.cityName,
    abbreviation: c.abbreviation,
    indexMin: c.index,
    indexMax: c.index,
  };
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

/** The simulator's DPD services: what each costs relative to the model and on which delivery side. */
const SERVICES: ReadonlyArray<{
  code: string;
  name: string;
  factor: number;
  dayOffset: number;
  selfDelivery: boolean;
}> = [
  { code: 'NDY', name: 'DPD EXPRESS', factor: 2.6, dayOffset: -1, selfDelivery: false },
  { code: 'BZP', name: 'DPD 18:00', factor: 2.2, dayOffset: -1, selfDelivery: false },
  { code: 'CUR', name: 'DPD CLASSIC', factor: 1.9, dayOffset: 0, selfDelivery: false },
  { code: 'CUR', name: 'DPD CLASSIC', factor: 1.7, dayOffset: 0, selfDelivery: true },
  { code: 'PCL', name: 'DPD OPTIMUM', factor: 1.6, dayOffset: 0, selfDelivery: true },
];

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
  const op = element(body.node, 'getServiceCost2', body.scope);
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
  const weight = request.weight;
  if (typeof weight !== 'string' || !DECIMAL.test(weight) || Number(weight) <= 0)
    return serviceFault('bad-request', 'Неверное значение параметра weight');
  const volume = request.volume;
  if (volume !== undefined && (typeof volume !== 'string' || !DECIMAL.test(volume)))
    return serviceFault('bad-request', 'Неверное значение параметра volume');
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
      return emptyAnswer();
    case 'ok':
      break;
  }

  const grams = Math.round(Number(weight) * 1000);
  const volumeM3 = volume === undefined ? 0 : Number(volume);
  // Over DPD's parcel limits no service is offered (an empty answer), as for any route it does not serve.
  const side = Math.round(Math.cbrt(volumeM3 * 1e6));
  if (
    exceededLimits(DPD_LIMITS, { weight_grams: grams, length_cm: side, width_cm: side, height_cm: side })
      .length > 0
  ) {
    return emptyAnswer();
  }
  const chargeable = Math.max(grams, Math.ceil((volumeM3 * 1e6) / 5000) * 1000);
  const zone = zoneOf(pickup.city.index, toIndex);
  const selfDelivery = request.selfDelivery === 'true';
  const insurance = declared === undefined ? 0 : Math.round(Number(declared) * 0.5); // 0.5 % of the value, in kopecks
  const returns = SERVICES.filter((s) => s.selfDelivery === selfDelivery).map((s) => {
    const kopecks = modelPriceKopecks(zone, chargeable, s.factor) + 40 + insurance;
    const days = Math.min(3, Math.max(1, Math.ceil(zone / 2) + s.dayOffset));
    return { serviceCode: s.code, serviceName: s.name, cost: roubles(kopecks), days };
  });
  return {
    kind: 'reply',
    status: 200,
    body: buildSoapResponse('getServiceCost2Response', DPD_CALCULATOR_NS, { return: returns }),
  };
}

function emptyAnswer(): DpdAnswer {
  return {
    kind: 'reply',
    status: 200,
    body: buildSoapResponse('getServiceCost2Response', DPD_CALCULATOR_NS, ''),
  };
}

/** Kopecks → "812.40": DPD's xsd:double, written with two decimals. */
function roubles(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}
