// The 5Post simulator's catalogue, written the way 5Post writes it. Every point has the fields of the only raw
// capture (lapaygroup/fivepost-sdk README, getPvzList; the 2025 integration guide's point has the same):
// seven workHours, the address split into parts, `additional`, flags, `localityFiasCode`, `lastMileWarehouse`,
// about 2.2 KB as compact JSON. Towns read like the capture's «Зеленодольск г» (`cityType` "г"), regions like
// «Татарстан республика»; a point's zip is not always its town's main index, so quotes exercise town matching.
//
// Two parts, both deterministic:
// - The sandbox catalogue (SANDBOX_POINT_COUNT points, the simulator's default): 5Post, X5's network, is
//   strongest in European Russia and the Urals, so towns of 250 000 people or more west of longitude 61.5°
//   (Екатеринбург and Челябинск have points; Новосибирск, Омск or Владивосток honestly have none): a postamat,
//   a pickup point priced from two hubs (Moscow and St Petersburg), an inactive postamat that must never be
//   offered (cheaper than the rest, so it would show), and a tobacco point in cities of a million whose FIAS
//   code is not the town's (its town is matched by name). Then the sandbox trigger points. Small enough that
//   a fresh sandbox downloads it in two pages, quickly, however many services the tests start.
// - Filler points up to a requested total (5Post's real ~25,000: `startFivePostSimulator({ points })`), in
//   western towns of any size, one in 17 inactive, generated per page so memory stays bounded.
// Prices are cheap, by the shared zone model from each hub, with 22 % VAT (5Post's 2026 examples).
// Sandbox triggers: 5Post is never called per quote (prices come from this catalogue), so its trigger codes
// are points planted at those indexes: the no-service ones (999971, 999973, and the shared 999990 and 999999)
// are points without a rate, 999972 a point whose rate cannot be read.
import { allCities, citiesByPostalCode, type City } from '../../locations/cities';
import { CARRIER_TRIGGERS, SANDBOX_TRIGGERS } from '../sandbox-triggers';
import { zoneOf } from './tariff-model';

export const POINT_MIN_POPULATION = 250_000;
export const POINT_MAX_LONGITUDE = 61.5;
/** The guide's count of active points (§1; 25,038 in its example page). */
export const REAL_POINT_COUNT = 25_038;
const HUBS = [
  { rateType: 'HUB_MOSCOW', rateTypeCode: '10', postalCode: '101000' },
  { rateType: 'HUB_SPB', rateTypeCode: '20', postalCode: '190000' },
] as const;
const DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];
const FILLER_ID_BASE = 1_000_000;

type Json = Record<string, unknown>;
type PointType = 'POSTAMAT' | 'ISSUE_POINT' | 'TOBACCO';

function roubles(kopecks: number): number {
  return kopecks / 100;
}

function uuid(n: number, prefix = '5f05f000'): string {
  return `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function rate(hub: (typeof HUBS)[number], zone: number, withVatKopecks: number, extraKopecks: number): Json {
  // rateValue is without VAT, rounded to the kopeck: the same relation 5Post's fields have.
  return {
    rateType: hub.rateType,
    zone: String(zone),
    rateValue: roubles(Math.round(withVatKopecks / 1.22)),
    vat: 22,
    rateValueWithVat: roubles(withVatKopecks),
    rateExtraValueWithVat: roubles(extraKopecks),
    rateExtraValue: roubles(Math.round(extraKopecks / 1.22)),
    rateCurrency: 'RUB',
    rateTypeCode: hub.rateTypeCode,
  };
}

/** The base price from a hub to a town: 184 ₽ … 359 ₽ with VAT by zone, extra 24–54 ₽ a kilogram. */
function price(hub: (typeof HUBS)[number], town: City): { base: number; extra: number; zone: number } {
  const zone = zoneOf(hub.postalCode, town.postalCode!);
  return { base: 14_900 + zone * 3_500, extra: 1_800 + zone * 600, zone };
}

/** 5Post's spelling of a region: the capture has «Татарстан республика» for the table's «Республика Татарстан». */
export function fivePostRegion(region: string): { region: string; regionType: string } {
  const republic = /^Республика (.+)$/.exec(region);
  if (republic) return { region: `${republic[1]} республика`, regionType: 'республика' };
  const type = /(область|край|автономный округ|автономная область)$/.exec(region)?.[1];
  return { region, regionType: type ?? 'г' };
}

/** An index of the town that no table city has as its main one (a quote by that city's index stays its own). */
function zipNear(town: City, offset: number): string {
  for (let k = offset; k < offset + 50; k++) {
    const zip = String(Number(town.postalCode) + k).padStart(6, '0');
    if (k === 0 || citiesByPostalCode(zip).length === 0) return zip;
  }
  return town.postalCode!;
}

interface PointSpec {
  id: string;
  n: number;
  type: PointType;
  town: City;
  zip: string;
  street: string;
  house: number;
  active: boolean;
  rates: Json[];
  days: { sl: number; minimalSl?: number };
  cell: [number, number, number, number];
  /** The town's own FIAS code, or another (a point whose town only its name gives). */
  fias: string;
}

function point(s: PointSpec): Json {
  const { region, regionType } = fivePostRegion(s.town.region);
  const city = `${s.town.name} г`;
  const shortAddress = `${s.street}, ${s.house}`;
  const code = `${s.type === 'POSTAMAT' ? 'OM' : s.type === 'TOBACCO' ? 'S' : 'P'}${String(s.n).padStart(6, '0')}`;
  const opens = s.type === 'POSTAMAT' ? '00:00:00' : '08:00:00';
  return {
    id: s.id,
    mdmCode: code,
    name: s.type === 'POSTAMAT' ? code : `${code} - Пятерочка`,
    partnerName: s.type === 'POSTAMAT' ? 'Fivebox' : s.type === 'TOBACCO' ? 'Tobacco' : 'X5',
    multiplaceDeliveryAllowed: s.type === 'ISSUE_POINT',
    type: s.type,
    workHours: DAYS.map((day) => ({
      day,
      opensAt: opens,
      closesAt: s.type === 'POSTAMAT' ? '23:59:00' : '22:00:00',
      timezone: 'Europe/Moscow',
      timezoneOffset: '+03:00',
    })),
    fullAddress: `${city}, ${shortAddress}`,
    shortAddress,
    address: {
      country: 'Россия',
      zipCode: s.zip,
      region,
      city,
      regionType,
      cityType: 'г',
      street: s.street,
      house: String(s.house),
      building: null,
      metroStation: null,
      lat: Math.round((s.town.lat + (s.n % 7) * 0.003) * 1e6) / 1e6,
      lng: Math.round((s.town.lon + (s.n % 5) * 0.004) * 1e6) / 1e6,
    },
    additional:
      s.type === 'POSTAMAT'
        ? 'Постамат  расположен в магазине «Пятёрочка»'
        : 'Выдача заказов осуществляется на кассе магазина «Пятёрочка»',
    cellLimits: {
      maxCellWidth: s.cell[0],
      maxCellHeight: s.cell[1],
      maxCellLength: s.cell[2],
      maxWeight: s.cell[3],
    },
    returnAllowed: false,
    timezoneOffset: '+03:00',
    phone: '88005118800',
    cashAllowed: s.type !== 'POSTAMAT',
    cardAllowed: true,
    loyaltyAllowed: false,
    extStatus: s.active ? 'ACTIVE' : 'INACTIVE',
    localityFiasCode: s.fias,
    createDate: '2020-03-20T15:40:12.223556+03:00',
    deliverySL: [{ ...s.days, slCode: '10' }],
    rate: s.rates,
    lastMileWarehouse: { id: uuid(900_000 + (s.n % 40)), name: `РЦ ${s.town.name}` },
    openDate: '2018-11-22T15:07:35.980608',
    timezone: 'Europe/Moscow',
  };
}

const POSTAMAT_CELL: [number, number, number, number] = [410, 380, 640, 15_000_000];
const ISSUE_CELL: [number, number, number, number] = [600, 600, 600, 15_000_000];
const TOBACCO_CELL: [number, number, number, number] = [360, 360, 360, 5_000_000];

/** The towns of the sandbox catalogue, most populous first. */
function bigTowns(): City[] {
  return allCities().filter(
    (c) => c.postalCode && c.population >= POINT_MIN_POPULATION && c.lon <= POINT_MAX_LONGITUDE,
  );
}

let sandbox: readonly Json[] | undefined;

/** The sandbox catalogue (the simulator's default), in a stable order. */
export function fivePostPoints(): readonly Json[] {
  if (sandbox) return sandbox;
  const points: Json[] = [];
  let n = 1;
  for (const town of bigTowns()) {
    const moscow = price(HUBS[0], town);
    const spb = price(HUBS[1], town);
    const million = town.population >= 1_000_000;
    const spec = (type: PointType, over: Partial<PointSpec>): Json =>
      point({
        id: uuid(n),
        n: n++,
        type,
        town,
        zip: town.postalCode!,
        street: 'Ленина ул.',
        house: 1,
        active: true,
        rates: [rate(HUBS[0], moscow.zone, moscow.base, moscow.extra)],
        days: { sl: moscow.zone + 3, minimalSl: moscow.zone + 1 },
        cell: POSTAMAT_CELL,
        fias: town.fiasId,
        ...over,
      });
    points.push(spec('POSTAMAT', { zip: zipNear(town, 1) }));
    points.push(
      spec('ISSUE_POINT', {
        // At the main index in smaller towns only: a quote to a city of a million finds its town by FIAS.
        zip: million ? zipNear(town, 2) : town.postalCode!,
        street: 'Мира пр-кт',
        house: 10,
        rates: [
          rate(HUBS[0], moscow.zone, moscow.base + 1_050, moscow.extra),
          rate(HUBS[1], spb.zone, spb.base + 1_050, spb.extra),
        ],
        days: { sl: moscow.zone + 3, minimalSl: moscow.zone + 2 },
        cell: ISSUE_CELL,
      }),
    );
    // Closed for good, and cheaper than the rest: offering it would show.
    points.push(
      spec('POSTAMAT', {
        zip: zipNear(town, 3),
        street: 'Садовая ул.',
        house: 7,
        active: false,
        rates: [rate(HUBS[0], moscow.zone, moscow.base - 5_000, moscow.extra)],
      }),
    );
    if (million)
      points.push(
        spec('TOBACCO', {
          zip: zipNear(town, 4),
          street: 'Гагарина ул.',
          house: 5,
          rates: [rate(HUBS[0], moscow.zone, moscow.base - 400, moscow.extra)],
          // The 2020 capture had only `sl` (verified-2026 §8.3): so does this point.
          days: { sl: moscow.zone + 4 },
          cell: TOBACCO_CELL,
          fias: uuid(n, '5f0f1a50'),
        }),
      );
  }
  const own = CARRIER_TRIGGERS['5post'];
  const unpriced = [own.timeout, own.noService, SANDBOX_TRIGGERS.allTimeout, SANDBOX_TRIGGERS.allNoService];
  for (const zip of unpriced) points.push(triggerPoint(uuid(n++), zip, []));
  points.push(triggerPoint(uuid(n), own.error, [{ rateType: 'HUB_MOSCOW', rateValueWithVat: 'по запросу' }]));
  sandbox = points;
  return points;
}

/** Points in the sandbox catalogue, the simulator's default count. */
export function sandboxPointCount(): number {
  return fivePostPoints().length;
}

let fillerTowns: readonly City[] | undefined;

/** Filler point `j` (0-based): a western town of any size, by turns; one in 17 inactive. */
function fillerPoint(j: number): Json {
  fillerTowns ??= allCities().filter((c) => c.postalCode && c.lon <= POINT_MAX_LONGITUDE);
  const town = fillerTowns[j % fillerTowns.length]!;
  const moscow = price(HUBS[0], town);
  const type: PointType = (['POSTAMAT', 'ISSUE_POINT', 'POSTAMAT', 'TOBACCO'] as const)[j % 4]!;
  const n = FILLER_ID_BASE + j;
  return point({
    id: uuid(n),
    n,
    type,
    town,
    zip: zipNear(town, 5 + (Math.floor(j / fillerTowns.length) % 20)),
    street: `${['Советская', 'Мира', 'Ленина', 'Победы', 'Школьная'][j % 5]} ул.`,
    house: 1 + (j % 97),
    active: j % 17 !== 16,
    rates: [rate(HUBS[0], moscow.zone, moscow.base + (j % 9) * 100, moscow.extra)],
    days: { sl: moscow.zone + 3, minimalSl: moscow.zone + 1 },
    cell: type === 'TOBACCO' ? TOBACCO_CELL : type === 'ISSUE_POINT' ? ISSUE_CELL : POSTAMAT_CELL,
    fias: town.fiasId,
  });
}

/**
 * A catalogue of `total` points (the sandbox one, then filler), read a slice at a time: a page of 25,000 is
 * built when it is asked for and then dropped.
 */
export function fivePostCatalogue(total: number = sandboxPointCount()): {
  total: number;
  slice(start: number, count: number): Json[];
} {
  const base = fivePostPoints();
  const size = Math.max(total, base.length);
  return {
    total: size,
    slice(start, count) {
      const out: Json[] = [];
      for (let i = Math.max(0, start); i < Math.min(size, start + count); i++)
        out.push(i < base.length ? base[i]! : fillerPoint(i - base.length));
      return out;
    },
  };
}

function triggerPoint(id: string, zip: string, rates: unknown[]): Json {
  return {
    id,
    type: 'ISSUE_POINT',
    name: `Песочница ${zip}`,
    fullAddress: `Песочница ${zip}`,
    extStatus: 'ACTIVE',
    address: { zipCode: zip, region: 'Песочница', city: `Песочница ${zip}` },
    cellLimits: { maxCellWidth: 600, maxCellHeight: 600, maxCellLength: 600, maxWeight: 15_000_000 },
    rate: rates,
    deliverySL: [{ sl: 3 }],
  };
}
