// The CDEK simulator's tariff catalogue: the warehouse-origin tariffs an account sees in tarifflist
// (protocols.md §2.6), per contract type, each with CDEK's name, delivery mode, weight limit and a price
// factor for the shared model. Weight limits are CDEK's published ones, the adapter's own table
// (cdek/limits.ts), so the simulator refuses exactly what the adapter declares. Prices are plausible, not CDEK's.
import { CDEK_LIMITS } from '../cdek/limits';
import { chargeableGrams, modelDays, modelPriceKopecks, zoneOf } from './tariff-model';

export interface SimTariff {
  code: number;
  /** The contract types (tarifflist `type`) that see it: 1 online store, 2 delivery. */
  types: readonly (1 | 2)[];
  name: string;
  description?: string;
  mode: number;
  /** Heaviest total actual weight accepted, grams. */
  maxGrams: number;
  /** Longest side accepted, cm (parcel-locker cells are small). */
  maxSideCm: number;
  factor: number;
  /** Added to the model's transit days: express is faster, economy (ground) slower. */
  dayOffset: number;
  /** Economy is a long-haul ground product; CDEK does not offer it next door. */
  minZone: number;
  /** Some real tariffs come without calendar_*; keeping one like that exercises the adapter's fallback. */
  calendarDays: boolean;
}

const PARCEL_DESCRIPTION =
  'Услуга экономичной доставки товаров по России для компаний, осуществляющих дистанционную торговлю.';

/** CDEK's published weight limit of a tariff (cdek/limits.ts). */
function published(code: number): number {
  const limit = CDEK_LIMITS.services?.[String(code)]?.maxWeightGrams;
  if (limit === undefined) throw new Error(`no published limit for CDEK tariff ${code}`);
  return limit;
}

/**
 * Экспресс: CDEK states no weight limit for it. The simulator caps it at 30 kg, the limit of the tariff it
 * replaced ("Экспресс лайт … (до 30 кг)"), so that heavy freight needs the delivery contract's Сборный груз,
 * which is what exercises the adapter's contract-type fallback.
 */
const EXPRESS_MODEL_GRAMS = 30_000;
/** Parcel-locker cells are small; CDEK publishes no cell size, 60 cm is the simulator's model. */
const LOCKER_MODEL_SIDE_CM = 60;

export const SIM_TARIFFS: readonly SimTariff[] = [
  {
    code: 136,
    types: [1],
    name: 'Посылка склад-склад',
    description: PARCEL_DESCRIPTION,
    mode: 4,
    maxGrams: published(136),
    maxSideCm: 150,
    factor: 1,
    dayOffset: 0,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 137,
    types: [1],
    name: 'Посылка склад-дверь',
    description: PARCEL_DESCRIPTION,
    mode: 3,
    maxGrams: published(137),
    maxSideCm: 150,
    factor: 1.3,
    dayOffset: 0,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 139,
    types: [1],
    name: 'Посылка дверь-дверь',
    description: PARCEL_DESCRIPTION,
    mode: 1,
    maxGrams: published(139),
    maxSideCm: 150,
    factor: 1.55,
    dayOffset: 0,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 368,
    types: [1],
    name: 'Посылка склад-постамат',
    mode: 7,
    maxGrams: published(368),
    maxSideCm: LOCKER_MODEL_SIDE_CM,
    factor: 0.95,
    dayOffset: 0,
    minZone: 1,
    calendarDays: false,
  },
  {
    code: 234,
    types: [1],
    name: 'Экономичная посылка склад-склад',
    mode: 4,
    maxGrams: published(234),
    maxSideCm: 150,
    factor: 0.8,
    dayOffset: 2,
    minZone: 3,
    calendarDays: true,
  },
  {
    code: 233,
    types: [1],
    name: 'Экономичная посылка склад-дверь',
    mode: 3,
    maxGrams: published(233),
    maxSideCm: 150,
    factor: 1.05,
    dayOffset: 2,
    minZone: 3,
    calendarDays: true,
  },
  {
    code: 483,
    types: [1, 2],
    name: 'Экспресс склад-склад',
    description: 'Экспресс-доставка',
    mode: 4,
    maxGrams: EXPRESS_MODEL_GRAMS,
    maxSideCm: 150,
    factor: 1.35,
    dayOffset: -1,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 482,
    types: [1, 2],
    name: 'Экспресс склад-дверь',
    description: 'Экспресс-доставка',
    mode: 3,
    maxGrams: EXPRESS_MODEL_GRAMS,
    maxSideCm: 150,
    factor: 1.7,
    dayOffset: -1,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 751,
    types: [2],
    name: 'Сборный груз склад-склад',
    description: 'Экономичная наземная доставка сборных грузов',
    mode: 4,
    maxGrams: published(751),
    maxSideCm: Infinity,
    // Freight is priced per kilogram far below parcels.
    factor: 0.12,
    dayOffset: 2,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 750,
    types: [2],
    name: 'Сборный груз склад-дверь',
    description: 'Экономичная наземная доставка сборных грузов',
    mode: 3,
    maxGrams: published(750),
    maxSideCm: Infinity,
    factor: 0.15,
    dayOffset: 2,
    minZone: 1,
    calendarDays: true,
  },
];

export interface SimPackage {
  weight: number;
  length?: number;
  width?: number;
  height?: number;
}

/** One item of tarifflist's `tariff_codes`, as CDEK shapes it. */
export interface SimTariffItem {
  tariff_code: number;
  tariff_name: string;
  tariff_description?: string;
  delivery_mode: number;
  delivery_sum: number;
  period_min: number;
  period_max: number;
  calendar_min?: number;
  calendar_max?: number;
}

export function quoteTariffs(
  fromPostal: string,
  toPostal: string,
  packages: readonly SimPackage[],
  contractType: 1 | 2 = 1,
): SimTariffItem[] {
  const zone = zoneOf(fromPostal, toPostal);
  const actual = packages.reduce((sum, p) => sum + p.weight, 0);
  const chargeable = packages.reduce(
    (sum, p) => sum + chargeableGrams(p.weight, p.length ?? 1, p.width ?? 1, p.height ?? 1),
    0,
  );
  const longestSide = Math.max(0, ...packages.flatMap((p) => [p.length ?? 0, p.width ?? 0, p.height ?? 0]));

  return SIM_TARIFFS.filter(
    (t) =>
      t.types.includes(contractType) &&
      actual <= t.maxGrams &&
      longestSide <= t.maxSideCm &&
      zone >= t.minZone,
  ).map((t) => {
    const [periodMin, periodMax] = modelDays(zone, t.dayOffset);
    const item: SimTariffItem = {
      tariff_code: t.code,
      tariff_name: t.name,
      ...(t.description ? { tariff_description: t.description } : {}),
      delivery_mode: t.mode,
      // The model gives whole 50-kopeck steps, so this is e.g. 640.5: CDEK's roubles-with-decimals.
      delivery_sum: modelPriceKopecks(zone, chargeable, t.factor) / 100,
      period_min: periodMin,
      period_max: periodMax,
    };
    if (t.calendarDays) {
      // Working days → calendar days: a weekend per full working week after the first, and one more day at
      // the top for a handover that falls just before a weekend.
      item.calendar_min = toCalendarDays(periodMin);
      item.calendar_max = toCalendarDays(periodMax) + 1;
    }
    return item;
  });
}

function toCalendarDays(workingDays: number): number {
  return workingDays + 2 * Math.floor((workingDays - 1) / 5);
}

/** The simulator's insurance fee, per cent of the declared value (plausible, not CDEK's published rate). */
export const SIM_INSURANCE_PERCENT = 0.75;

/** One /calculator/tariff answer (protocols.md §2.5): carriage, each service's sum, and their total. */
export interface SimTariffResult {
  delivery_sum: number;
  period_min: number;
  period_max: number;
  calendar_min?: number;
  calendar_max?: number;
  weight_calc: number;
  services: { code: string; sum: number }[];
  total_sum: number;
  currency: 'RUB';
}

/**
 * One tariff priced with its services, or null when the tariff is not offered for this route and parcel (the
 * same catalogue and limits as tarifflist). INSURANCE's parameter is the declared value in roubles.
 */
export function quoteOneTariff(
  fromPostal: string,
  toPostal: string,
  packages: readonly SimPackage[],
  contractType: 1 | 2,
  tariffCode: number,
  insuredRoubles: number,
): SimTariffResult | null {
  const item = quoteTariffs(fromPostal, toPostal, packages, contractType).find(
    (t) => t.tariff_code === tariffCode,
  );
  if (!item) return null;
  // Kopecks throughout, so the sums stay exact decimals of roubles.
  const insuranceKopecks = Math.round(insuredRoubles * SIM_INSURANCE_PERCENT);
  const deliveryKopecks = Math.round(item.delivery_sum * 100);
  const services = insuredRoubles > 0 ? [{ code: 'INSURANCE', sum: insuranceKopecks / 100 }] : [];
  return {
    delivery_sum: item.delivery_sum,
    period_min: item.period_min,
    period_max: item.period_max,
    ...(item.calendar_min !== undefined
      ? { calendar_min: item.calendar_min, calendar_max: item.calendar_max }
      : {}),
    weight_calc: packages.reduce((sum, p) => sum + p.weight, 0),
    services,
    total_sum: (deliveryKopecks + (insuredRoubles > 0 ? insuranceKopecks : 0)) / 100,
    currency: 'RUB',
  };
}
