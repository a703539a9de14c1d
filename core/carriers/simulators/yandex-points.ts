// The Yandex simulator's pickup points, at the real count and record size (audit: "pickup-points/list returns
// 2 points per town; real lists are in the thousands for big cities").
//
// Shape: a live record as captured from Yandex's test host on 07.08.2026 (a WooCommerce framework's test of
// its live source, 3p ids 57374111878 and 57384569655): `id` (32 hex), `operator_station_id`, `operator_id`
// (`5post` or `market_l4g`), `name`, `type` (`pickup_point`, a few `terminal`), `position`, `address` with 13
// fields and a comma-less `full_address` ("Москва Новокосинская 17 к6"), `instruction`, `payment_methods`,
// `contact{phone}`, `schedule` (time zone and one restriction per weekday), four flags, `dayoffs`, two
// deactivation dates, the drop-off flags and four `pickup_services`. That capture counted 812 points for
// geo_id 213 on the test host (679 5Post, 129 Market); production lists whole networks, so a town here has one
// point per YANDEX_PEOPLE_PER_POINT people: Москва ≈ 4,600, Санкт-Петербург ≈ 1,900, a town of 30,000 twelve.
// Points lie around the town's centre, denser in the middle: about 8 a km² in central Moscow, as a shop's map
// client measured it ("no more than 300 points a 0.05° × 0.1° tile", 3p id 71069013443). Every town's first
// point is a Market point taking drop-offs within half a kilometre of its centre, so every town with points
// can send. Deterministic: the same town always gets the same points.
import { createHash } from 'node:crypto';
import type { City } from '../../locations/cities';

/** Towns with pickup points (and drop-off): Yandex's network is in the larger towns. */
export const YANDEX_MIN_POPULATION = 30_000;
/** One point per this many people of a town. */
export const YANDEX_PEOPLE_PER_POINT = 2_500;

export interface SimPoint {
  id: string;
  geoId: number;
  city: City & { postalCode: string };
  /** A sandbox trigger code of the geo the point was handed out for, if any. */
  trigger: string | null;
  lat: number;
  lon: number;
  type: 'pickup_point' | 'terminal';
  operator: '5post' | 'market_l4g';
  dropoff: boolean;
  card: boolean;
  /** The point's number in its town: drives the rest of the record. */
  n: number;
}

/** How far from the centre a town's points reach, km: Moscow ~19 km, a town of 30,000 about 1 km. */
export function townRadiusKm(population: number): number {
  return 0.0055 * Math.sqrt(population);
}

function hash(seed: string): Buffer {
  return createHash('sha1').update(seed).digest();
}

/** A number in [0, 1) from a seed. */
function unit(seed: string): number {
  return hash(seed).readUInt32BE(0) / 2 ** 32;
}

export function pointId(geoId: number, n: number): string {
  return hash(`yandex-pvz ${geoId} ${n}`).toString('hex').slice(0, 32);
}

/** The points of one geo: a town of the table (with the trigger its address carried, if any). */
export function townPoints(
  geoId: number,
  city: City & { postalCode: string },
  trigger: string | null,
): SimPoint[] {
  if (city.population < YANDEX_MIN_POPULATION) return [];
  const count = Math.ceil(city.population / YANDEX_PEOPLE_PER_POINT);
  const radius = townRadiusKm(city.population);
  const cos = Math.cos((city.lat * Math.PI) / 180);
  const points: SimPoint[] = [];
  for (let n = 0; n < count; n++) {
    const seed = `${city.name}|${city.region}|${n}`;
    // Radial share u^0.6: denser towards the centre (an even spread would be u^0.5).
    const r = n === 0 ? 0.5 * unit(`${seed} r`) : radius * unit(`${seed} r`) ** 0.6;
    const angle = 2 * Math.PI * unit(`${seed} a`);
    const market = n === 0 || unit(`${seed} op`) < 0.55;
    points.push({
      id: pointId(geoId, n),
      geoId,
      city,
      trigger,
      lat: round6(city.lat + (r * Math.sin(angle)) / 111.32),
      lon: round6(city.lon + (r * Math.cos(angle)) / (111.32 * cos)),
      type: n > 0 && unit(`${seed} t`) < 0.03 ? 'terminal' : 'pickup_point',
      operator: market ? 'market_l4g' : '5post',
      dropoff: n === 0 || (market && unit(`${seed} d`) < 0.6),
      card: unit(`${seed} c`) < 0.85,
      n,
    });
  }
  return points;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

const STREETS = [
  'Ленинградский проспект',
  'Новокосинская улица',
  'улица Ленина',
  'Советская улица',
  'Мира проспект',
  'Садовая улица',
  'улица Гагарина',
  'Молодёжная улица',
  'Центральная улица',
  'Школьная улица',
  'Набережная улица',
  'улица Победы',
  'Октябрьская улица',
  'Комсомольский проспект',
  'Первомайская улица',
  'Заводская улица',
];

const INSTRUCTIONS = {
  '5post':
    'Пункт выдачи 5Post находится в магазине «Пятёрочка». Заказ выдаётся на кассе по коду из SMS или ' +
    'из приложения. Если на кассе очередь, обратитесь к администратору зала. Возврат оформляется там же.',
  market_l4g:
    'Пункт выдачи заказов Яндекс Маркета. Вход с улицы, вывеска «Яндекс Маркет», первый этаж жилого дома. ' +
    'Назовите код получения заказа сотруднику. Примерка в отдельной кабине, вскрытие упаковки при вас.',
} as const;

/** A point as Yandex writes it in pickup-points/list (the capture's field order and spelling). */
export function pointRecord(p: SimPoint): Record<string, unknown> {
  const seed = `${p.city.name}|${p.city.region}|${p.n}`;
  const street = STREETS[Math.floor(unit(`${seed} s`) * STREETS.length)]!;
  const house = String(1 + Math.floor(unit(`${seed} h`) * 120));
  const housing = unit(`${seed} k`) < 0.3 ? `к${1 + Math.floor(unit(`${seed} kn`) * 6)}` : '';
  const postal = String(Number(p.city.postalCode) + Math.floor(unit(`${seed} z`) * 150)).padStart(6, '0');
  const shortStreet = street.replace(/^(улица|проспект)\s+|\s+(улица|проспект)$/g, '');
  const fullAddress = [p.city.name, shortStreet, house, housing].filter(Boolean).join(' ');
  const open = p.operator === '5post' ? { h: 8, m: 0 } : { h: 10, m: 0 };
  const close = p.operator === '5post' ? { h: 22, m: 0 } : { h: 21, m: 0 };
  const market = p.operator === 'market_l4g';
  return {
    id: p.id,
    operator_station_id: String(10_001_000_000 + p.geoId * 10_000 + p.n),
    operator_id: p.operator,
    name:
      p.type === 'terminal'
        ? 'Постамат Яндекс.Маркет'
        : market
          ? 'Пункт выдачи заказов Яндекс Маркета'
          : 'Пятёрочка',
    type: p.type,
    position: { latitude: p.lat, longitude: p.lon },
    address: {
      geoId: p.geoId,
      country: 'Россия',
      region: p.city.region,
      subRegion: '',
      locality: p.city.name,
      street,
      house,
      housing,
      apartment: '',
      building: '',
      comment: '',
      full_address: fullAddress,
      postal_code: postal,
    },
    instruction: INSTRUCTIONS[p.operator],
    payment_methods: p.card ? ['already_paid', 'card_on_receipt'] : ['already_paid'],
    contact: { phone: market ? '+74951570020' : '+78005555505' },
    schedule: {
      time_zone: timeZoneOf(p.city.lon),
      restrictions: [1, 2, 3, 4, 5, 6, 7].map((day) => ({
        days: [day],
        time_from: { hours: open.h, minutes: open.m },
        time_to: { hours: close.h, minutes: close.m },
      })),
    },
    is_yandex_branded: market,
    is_market_partner: market,
    is_dark_store: false,
    is_post_office: false,
    dayoffs: [],
    deactivation_date: null,
    deactivation_date_predicted_debt: null,
    available_for_dropoff: p.dropoff,
    available_for_c2c_dropoff: p.dropoff,
    pickup_services: {
      is_fitting_allowed: market,
      is_partial_refuse_allowed: market,
      is_paperless_pickup_allowed: false,
      is_unboxing_allowed: market,
    },
  };
}

/** Hours from UTC, roughly by longitude: Kaliningrad +2, Moscow +3 … Kamchatka +12. */
function timeZoneOf(lon: number): number {
  return Math.min(12, Math.max(2, 3 + Math.round((lon - 37.6) / 15)));
}
