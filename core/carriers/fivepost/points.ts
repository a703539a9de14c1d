// A 5Post catalogue entry as RateDesk keeps it: validated once at download, money already in kopecks
// (decimal conversion, never float × 100), so a quote only reads. An entry that cannot be read is kept
// with the reason, so a quote to exactly that point says "could not be read" instead of pretending 5Post
// has nothing there.
import { roublesToKopecks } from '../money';
import { FivePostPoint } from './schema';
import { townOfPoint } from './town';

export interface PointRate {
  /** As 5Post names it ("HUB_MOSCOW"; empty in the 2021 capture); hub.ts reads it. */
  rateType: string;
  /** 10 HubMoscow, 20 HubSPB, 30 HubEKB (guide §4.1); null when absent (and in catalogues kept before it). */
  rateTypeCode?: string | null;
  /** rateValueWithVat: the price up to the base weight, VAT included at whatever rate 5Post applies. */
  baseKopecks: number;
  /** rateExtraValueWithVat: per kilogram above the base weight; null when 5Post gives none. */
  extraPerKgKopecks: number | null;
  vat: number | null;
}

export interface ReadablePoint {
  type: string;
  name: string;
  /** Cells in mm and mg (5Post's units); null when the catalogue gives none. */
  cell: { sidesMm: [number, number, number]; maxWeightMg: number } | null;
  rates: PointRate[];
  /** deliverySL: days, minimalSl..sl; null when absent. */
  days: { min: number; max: number } | null;
  /**
   * What the point takes, for the quote's rules (#21, quote.ts): payment on receipt in cash or by card
   * (`cashAllowed`, `cardAllowed`) and an order of several places (`multiplaceDeliveryAllowed`). Only what
   * 5Post said: absent (and in catalogues stored before #21) nothing is ruled out, where `place` below, for
   * display, reads an absent flag as false.
   */
  takes?: { cash?: boolean; card?: boolean; multiplace?: boolean };
  /**
   * What the pickup-point list shows (#21, fivepost/directory.ts): `fullAddress`, `address.lat`/`lng`,
   * `workHours`, `cashAllowed`/`cardAllowed` as the capture has them. Absent in catalogues kept before it.
   */
  place?: PointPlace;
}

export interface PointPlace {
  address: string;
  lat: number | null;
  lon: number | null;
  hours: string;
  cash: boolean;
  card: boolean;
}

export interface StoredPoint {
  id: string;
  zip: string | null;
  /** town.ts: `fias:<guid>` for a town of the city table, else the town's name without its type word. */
  cityKey: string;
  region: string;
  point: ReadablePoint | null;
  problem: string | null;
}

/**
 * Whether a raw entry is a point buyers can use now: `extStatus` ACTIVE (the capture and the guide), or no
 * status at all (nothing says otherwise). Any other status is left out of the catalogue (audit F8).
 */
export function isActivePoint(raw: unknown): boolean {
  const status = (raw as { extStatus?: unknown } | null)?.extStatus;
  return (
    status === undefined ||
    status === null ||
    (typeof status === 'string' && status.toUpperCase() === 'ACTIVE')
  );
}

/** Reads one raw catalogue entry; never throws. */
export function readPoint(raw: unknown): StoredPoint | null {
  const parsed = FivePostPoint.safeParse(raw);
  if (!parsed.success) {
    // Without an id and a city it cannot even be found again: dropped (the download counts it).
    const rough = raw as {
      id?: unknown;
      localityFiasCode?: unknown;
      address?: { city?: unknown; cityType?: unknown; zipCode?: unknown; region?: unknown };
    };
    if (typeof rough?.id !== 'string' || typeof rough.address?.city !== 'string') return null;
    const issue = parsed.error.issues[0];
    const town = townOfPoint(
      typeof rough.localityFiasCode === 'string' ? rough.localityFiasCode : null,
      rough.address.city,
      typeof rough.address.cityType === 'string' ? rough.address.cityType : null,
      typeof rough.address.region === 'string' ? rough.address.region : null,
    );
    return {
      id: rough.id.slice(0, 200),
      zip: zipOf(rough.address.zipCode),
      cityKey: town.key,
      region: town.region,
      point: null,
      problem: `${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'unreadable'}`.slice(0, 500),
    };
  }
  const p = parsed.data;
  const rates: PointRate[] = [];
  for (const r of p.rate ?? []) {
    if (r.rateCurrency !== undefined && r.rateCurrency.toUpperCase() !== 'RUB') continue;
    const base = roublesToKopecks(r.rateValueWithVat);
    // 0 is no price (preprod shows 0 rates, lapaygroup's capture): counted as no rate, never a free delivery.
    if (base === undefined || base === 0) continue;
    const extra =
      r.rateExtraValueWithVat === undefined ? null : (roublesToKopecks(r.rateExtraValueWithVat) ?? null);
    rates.push({
      rateType: r.rateType ?? '',
      rateTypeCode: r.rateTypeCode === undefined ? null : String(r.rateTypeCode),
      baseKopecks: base,
      extraPerKgKopecks: extra,
      vat: r.vat ?? null,
    });
  }
  const sl = p.deliverySL?.[0];
  const c = p.cellLimits;
  const town = townOfPoint(p.localityFiasCode, p.address.city, p.address.cityType, p.address.region);
  return {
    id: p.id,
    zip: zipOf(p.address.zipCode),
    cityKey: town.key,
    region: town.region,
    point: {
      type: p.type,
      name: p.name ?? p.fullAddress ?? p.id,
      cell: c
        ? {
            sidesMm: [c.maxCellLength, c.maxCellWidth, c.maxCellHeight].sort((a, b) => b - a) as [
              number,
              number,
              number,
            ],
            maxWeightMg: c.maxWeight,
          }
        : null,
      rates,
      days: sl ? { min: Math.min(sl.minimalSl ?? sl.sl, sl.sl), max: sl.sl } : null,
      ...takesOf(p),
      place: placeOf(p),
    },
    problem: null,
  };
}

/** The point's `takes`, only what 5Post said (nothing: no key, as in catalogues stored before #21). */
function takesOf(p: FivePostPoint): Pick<ReadablePoint, 'takes'> {
  const takes = {
    ...(p.cashAllowed !== undefined ? { cash: p.cashAllowed } : {}),
    ...(p.cardAllowed !== undefined ? { card: p.cardAllowed } : {}),
    ...(p.multiplaceDeliveryAllowed !== undefined ? { multiplace: p.multiplaceDeliveryAllowed } : {}),
  };
  return Object.keys(takes).length > 0 ? { takes } : {};
}

function zipOf(value: unknown): string | null {
  if (typeof value === 'number') return String(value).padStart(6, '0');
  if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 20);
  return null;
}

/** The fields a pickup-point list shows, read leniently (they pass through the loose schema unchecked). */
function placeOf(p: FivePostPoint): PointPlace {
  const num = (v: unknown): number | null =>
    typeof v === 'number' && Number.isFinite(v) && v !== 0 ? v : null;
  const lat = num(p.address.lat);
  const lon = num(p.address.lng);
  const hours = Array.isArray(p.workHours)
    ? (p.workHours as unknown[])
        .map((h) => h as { day?: unknown; opensAt?: unknown; closesAt?: unknown })
        .filter(
          (h) => typeof h.day === 'string' && typeof h.opensAt === 'string' && typeof h.closesAt === 'string',
        )
        .map((h) => `${String(h.day)} ${String(h.opensAt).slice(0, 5)}-${String(h.closesAt).slice(0, 5)}`)
        .join(', ')
    : '';
  return {
    address: p.fullAddress ?? [p.address.city, p.address.zipCode].filter(Boolean).join(', '),
    lat: lat !== null && lon !== null ? lat : null,
    lon: lat !== null && lon !== null ? lon : null,
    hours,
    cash: p.cashAllowed === true,
    card: p.cardAllowed === true,
  };
}
