// The tariff.pochta.ru v2 request (protocols.md §1.3), built exactly as the live service expects it so
// the adapter works against production unchanged. Integers throughout: grams, whole centimetres
// (rounded up: a 10.2 cm side does not fit a 10 cm slot), kopecks.
import type { Parcel } from '../../contract/v1';

export const TARIFF_PATH = '/v2/calculate/tariff/delivery';

export interface TariffQuery {
  object: number;
  from: string;
  to: string;
  weightGrams: number;
  parcel: Pick<Parcel, 'length_cm' | 'width_cm' | 'height_cm'>;
  /** Only for declared-value objects; omitted otherwise. */
  declaredValueKopecks?: number;
  /** Only for "с ОЦ и НП" objects: the cash on delivery (`sumnp`, kopecks, protocols.md §1.3). */
  codKopecks?: number;
  now: Date;
}

/** Russian Post boxes S/M/L/XL (cm, longest side first) and their `pack` codes; 99 = non-standard. */
const BOXES: readonly { pack: number; dims: readonly [number, number, number] }[] = [
  { pack: 10, dims: [26, 17, 8] },
  { pack: 20, dims: [30, 20, 15] },
  { pack: 30, dims: [40, 27, 18] },
  { pack: 40, dims: [53, 36, 22] },
];
export const NON_STANDARD_PACK = 99;

export function sizeCm(parcel: TariffQuery['parcel']): [number, number, number] {
  return [Math.ceil(parcel.length_cm), Math.ceil(parcel.width_cm), Math.ceil(parcel.height_cm)];
}

/** The smallest standard box the parcel fits in (any orientation), else non-standard packaging. */
export function packFor(parcel: TariffQuery['parcel']): number {
  const sides = sizeCm(parcel).sort((a, b) => b - a);
  const box = BOXES.find((b) => sides.every((side, i) => side <= b.dims[i]!));
  return box ? box.pack : NON_STANDARD_PACK;
}

/** `date` (YYYYMMDD) and `time` (HHMM) in Moscow time (UTC+3 all year), the carrier's own clock. */
export function moscowDateTime(now: Date): { date: string; time: string } {
  const msk = new Date(now.getTime() + 3 * 60 * 60 * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return {
    date: `${pad(msk.getUTCFullYear(), 4)}${pad(msk.getUTCMonth() + 1)}${pad(msk.getUTCDate())}`,
    time: `${pad(msk.getUTCHours())}${pad(msk.getUTCMinutes())}`,
  };
}

/**
 * GET URL for one object. `json` is a bare flag (its presence selects JSON, §1.2), which URLSearchParams
 * cannot express, so the query is assembled by hand; every value is a plain integer or digits anyway.
 */
export function buildTariffUrl(baseUrl: string, q: TariffQuery): string {
  const { date, time } = moscowDateTime(q.now);
  const params: [string, string][] = [
    ['object', String(q.object)],
    ['from', q.from],
    ['to', q.to],
    ['weight', String(q.weightGrams)],
    ['size', sizeCm(q.parcel).join('x')],
    ['pack', String(packFor(q.parcel))],
  ];
  if (q.declaredValueKopecks !== undefined) params.push(['sumoc', String(q.declaredValueKopecks)]);
  if (q.codKopecks !== undefined) params.push(['sumnp', String(q.codKopecks)]);
  params.push(['date', date], ['time', time], ['errorcode', '1']);
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `${baseUrl.replace(/\/+$/, '')}${TARIFF_PATH}?json&${query}`;
}
