// The CDEK simulator's tariff catalogue: the warehouse-origin shop tariffs a store actually sees in
// tarifflist (protocols.md §2.6), each with CDEK's name, delivery mode, weight limit and a price factor for
// the shared model. Prices are plausible, not CDEK's.
import { chargeableGrams, modelDays, modelPriceKopecks, zoneOf } from './tariff-model';

export interface SimTariff {
  code: number;
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

export const SIM_TARIFFS: readonly SimTariff[] = [
  {
    code: 136,
    name: 'Посылка склад-склад',
    description: PARCEL_DESCRIPTION,
    mode: 4,
    maxGrams: 30_000,
    maxSideCm: 150,
    factor: 1,
    dayOffset: 0,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 137,
    name: 'Посылка склад-дверь',
    description: PARCEL_DESCRIPTION,
    mode: 3,
    maxGrams: 30_000,
    maxSideCm: 150,
    factor: 1.3,
    dayOffset: 0,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 139,
    name: 'Посылка дверь-дверь',
    description: PARCEL_DESCRIPTION,
    mode: 1,
    maxGrams: 30_000,
    maxSideCm: 150,
    factor: 1.55,
    dayOffset: 0,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 368,
    name: 'Посылка склад-постамат',
    mode: 7,
    maxGrams: 20_000,
    maxSideCm: 60,
    factor: 0.95,
    dayOffset: 0,
    minZone: 1,
    calendarDays: false,
  },
  {
    code: 234,
    name: 'Экономичная посылка склад-склад',
    mode: 4,
    maxGrams: 50_000,
    maxSideCm: 150,
    factor: 0.8,
    dayOffset: 2,
    minZone: 3,
    calendarDays: true,
  },
  {
    code: 233,
    name: 'Экономичная посылка склад-дверь',
    mode: 3,
    maxGrams: 50_000,
    maxSideCm: 150,
    factor: 1.05,
    dayOffset: 2,
    minZone: 3,
    calendarDays: true,
  },
  {
    code: 483,
    name: 'Экспресс склад-склад',
    description: 'Экспресс-доставка',
    mode: 4,
    maxGrams: 30_000,
    maxSideCm: 150,
    factor: 1.35,
    dayOffset: -1,
    minZone: 1,
    calendarDays: true,
  },
  {
    code: 482,
    name: 'Экспресс склад-дверь',
    description: 'Экспресс-доставка',
    mode: 3,
    maxGrams: 30_000,
    maxSideCm: 150,
    factor: 1.7,
    dayOffset: -1,
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
): SimTariffItem[] {
  const zone = zoneOf(fromPostal, toPostal);
  const actual = packages.reduce((sum, p) => sum + p.weight, 0);
  const chargeable = packages.reduce(
    (sum, p) => sum + chargeableGrams(p.weight, p.length ?? 1, p.width ?? 1, p.height ?? 1),
    0,
  );
  const longestSide = Math.max(0, ...packages.flatMap((p) => [p.length ?? 0, p.width ?? 0, p.height ?? 0]));

  return SIM_TARIFFS.filter(
    (t) => actual <= t.maxGrams && longestSide <= t.maxSideCm && zone >= t.minZone,
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
