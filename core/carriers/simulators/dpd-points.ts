// The DPD simulator's geography2 getParcelShops (#21): the town's parcel shops in DPD's SOAP answer (the shape
// core/carriers/dpd/points.ts cites, namespace http://dpd.ru/ws/geography/2015-05-20), from the shared point
// model. Strict like a JAX-WS endpoint: a malformed envelope or an operation outside the namespace is a Fault,
// a wrong account DPD's own fault; a town is found by its KLADR cityCode (or its name), an unknown one is an
// empty list.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { allCities, findCity, type City } from '../../locations/cities';
import { buildSoapFault, buildSoapResponse, type XmlTree } from '../dpd/soap';
import type { DpdAccount, DpdAnswer } from './dpd-calc';
import { simTownPoints, type SimPickupPoint, type SimPointKind } from './pickup-points-model';

const NS = 'http://dpd.ru/ws/geography/2015-05-20';

// DPD's kinds as the sandbox draws them: the captured shop (maxWeight 20, sides 200, dimensionSum 200,
// maxShipmentWeight 70) as the large one; a 15 kg shop and a postamat as the others. Per-point figures vary
// in the live directory; these are plausible, not published ones.
const HOURS = { open: '10:00', close: '21:00' } as const;
const KINDS: { small: SimPointKind; large: SimPointKind; others: SimPointKind[] } = {
  small: { kind: 'pvz', maxWeightGrams: 15_000, box: [100, 60, 60], cod: true, card: true, ...HOURS },
  large: { kind: 'pvz', maxWeightGrams: 20_000, box: [200, 200, 200], cod: true, card: false, ...HOURS },
  others: [
    { kind: 'pvz', maxWeightGrams: 20_000, box: [200, 200, 200], cod: true, card: true, ...HOURS },
    {
      kind: 'pvz',
      maxWeightGrams: 31_500,
      box: [200, 200, 200],
      cod: true,
      card: true,
      open: '09:00',
      close: '20:00',
    },
    {
      kind: 'postamat',
      maxWeightGrams: 15_000,
      box: [60, 40, 36],
      cod: false,
      card: true,
      open: '00:00',
      close: '23:59',
    },
  ],
};

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  trimValues: true,
});
type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

const fault = (code: string, text: string): DpdAnswer => ({
  kind: 'reply',
  status: 500,
  body: buildSoapFault(code, text),
});

/** The first child named `local` (any prefix) and the namespace its prefix is bound to on the way down. */
function child(
  parent: Node,
  local: string,
  scope: Record<string, string>,
): { node: unknown; ns: string | null; scope: Record<string, string> } | null {
  for (const [key, node] of Object.entries(parent)) {
    if (key.startsWith('@_')) continue;
    const [prefix, name] = key.includes(':') ? key.split(':', 2) : ['', key];
    if (name !== local) continue;
    const inner = { ...scope };
    if (isNode(node)) {
      for (const [attr, value] of Object.entries(node)) {
        if (attr === '@_xmlns') inner[''] = String(value);
        else if (attr.startsWith('@_xmlns:')) inner[attr.slice(8)] = String(value);
      }
    }
    return { node, ns: inner[prefix!] ?? null, scope: inner };
  }
  return null;
}

export function answerParcelShops(text: string, account: DpdAccount): DpdAnswer {
  if (XMLValidator.validate(text) !== true)
    return fault('S:Client', "Couldn't create SOAP message due to exception: XML reader error");
  const tree = parser.parse(text) as Node;
  const env = child(tree, 'Envelope', {});
  if (!env || !isNode(env.node) || env.ns !== 'http://schemas.xmlsoap.org/soap/envelope/')
    return fault('S:VersionMismatch', 'SOAP 1.1 envelope expected');
  const body = child(env.node, 'Body', env.scope);
  if (!body || !isNode(body.node)) return fault('S:Client', 'SOAP Body missing');
  const op = child(body.node, 'getParcelShops', body.scope);
  if (!op || op.ns !== NS)
    return fault('S:Client', `Cannot find dispatch method for {${op?.ns ?? ''}}getParcelShops`);
  const request = isNode(op.node) ? op.node.request : undefined;
  if (!isNode(request)) return fault('S:Server', 'Не задан параметр request');
  const auth = request.auth;
  if (!isNode(auth) || auth.clientNumber !== account.clientNumber || auth.clientKey !== account.clientKey) {
    return fault('S:Server', 'Ошибка авторизации: неверный номер клиента или ключ');
  }
  const country = typeof request.countryCode === 'string' ? request.countryCode : 'RU';
  const city = country === 'RU' ? townOf(request) : undefined;
  const shops = city ? simTownPoints('dpd', city, KINDS).map(shopRecord) : [];
  return {
    kind: 'reply',
    status: 200,
    body: buildSoapResponse('getParcelShopsResponse', NS, {
      return: shops.length > 0 ? { parcelShop: shops } : {},
    }),
  };
}

function townOf(request: Node): City | undefined {
  const code = typeof request.cityCode === 'string' ? request.cityCode : null;
  if (code !== null) {
    if (!/^\d{11}$/.test(code)) return undefined;
    return allCities().find((c) => c.kladrId.slice(0, 11) === code);
  }
  return typeof request.cityName === 'string' ? (findCity(request.cityName) ?? undefined) : undefined;
}

function shopRecord(p: SimPickupPoint): XmlTree {
  const code = `${p.city.kladrId.slice(0, 2)}${String(p.n).padStart(2, '0')}${p.kind === 'postamat' ? 'P' : 'G'}`;
  const [l, w, h] = p.box ?? [200, 200, 200];
  const timetable = {
    weekDays: 'Пн,Вт,Ср,Чт,Пт,Сб,Вс',
    workTime: `${p.open} - ${p.close}`,
  };
  const operations = ['Payment', ...(p.card ? ['PaymentByBankCard'] : []), 'SelfDelivery'];
  return {
    code,
    parcelShopType: p.kind === 'postamat' ? 'П' : 'ПВП',
    state: 'Open',
    address: {
      cityId: String(48_000_000 + Number(p.city.kladrId.slice(2, 8))),
      countryCode: 'RU',
      regionCode: p.city.kladrId.slice(0, 2),
      regionName: p.city.region,
      cityCode: p.city.kladrId.slice(0, 11),
      cityName: p.city.name,
      index: p.postalCode,
      street: p.street.replace(/^(ул\.|пр-т)\s*/, ''),
      streetAbbr: p.street.startsWith('пр-т') ? 'пр-кт' : 'ул',
      houseNo: p.house,
    },
    brand: p.kind === 'postamat' ? 'Постамат DPD' : 'DPD Pickup',
    geoCoordinates: { latitude: String(p.lat), longitude: String(p.lon) },
    limits: {
      maxShipmentWeight: String(Math.max(70, (p.maxWeightGrams / 1000) * 3)),
      maxWeight: String(p.maxWeightGrams / 1000),
      maxLength: String(l),
      maxWidth: String(w),
      maxHeight: String(h),
      dimensionSum: String(Math.min(l + w + h, 200)),
    },
    schedule: operations.map((operation) => ({ operation, timetable })),
    extraService: [
      ...(p.cod ? [{ esCode: 'НПП', params: { name: 'sum_npp', value: '100000' } }] : []),
      { esCode: 'ТРМ' },
    ],
    services: { serviceCode: ['PCL', 'CUR'] },
  };
}
