// The CDEK simulator's GET /v2/deliverypoints (#21): the town's offices and postamats in CDEK's record (the
// fields core/carriers/cdek/points.ts cites), from the shared point model. Strict as CDEK is about what it
// reads: a city_code that is not a number or a type other than PVZ | POSTAMAT | ALL is a 400 in CDEK's error
// shape; an unknown city is an empty list, as CDEK answers it.
import { cdekCityByCode } from './cdek-cities';
import { simTownPoints, tableCity, type SimPickupPoint, type SimPointKind } from './pickup-points-model';

// CDEK's kinds as the sandbox draws them: partner offices of 15 kg, own offices of 30 kg (some 50 kg, the
// "склад" kind), postamats of 20 kg with three cell sizes. Plausible, not published per office: the live
// directory gives each office its own weight_max (docs/carriers.md).
const POSTAMAT_CELLS: ReadonlyArray<[number, number, number]> = [
  [9, 40, 60],
  [19, 40, 60],
  [39, 40, 60],
];
const OFFICE = { open: '10:00', close: '20:00' } as const;
const KINDS: { small: SimPointKind; large: SimPointKind; others: SimPointKind[] } = {
  small: { kind: 'pvz', maxWeightGrams: 15_000, box: null, cod: true, card: true, ...OFFICE },
  large: { kind: 'pvz', maxWeightGrams: 30_000, box: null, cod: true, card: false, ...OFFICE },
  others: [
    { kind: 'pvz', maxWeightGrams: 30_000, box: null, cod: true, card: true, ...OFFICE },
    { kind: 'pvz', maxWeightGrams: 50_000, box: null, cod: true, card: true, open: '09:00', close: '21:00' },
    {
      kind: 'postamat',
      maxWeightGrams: 20_000,
      box: [60, 40, 39],
      cod: false,
      card: true,
      open: '00:00',
      close: '23:59',
    },
  ],
};

export type DeliveryPointsAnswer = { status: number; body: unknown };

export function answerDeliveryPoints(query: URLSearchParams): DeliveryPointsAnswer {
  const type = (query.get('type') ?? 'ALL').toUpperCase();
  if (!['PVZ', 'POSTAMAT', 'ALL'].includes(type)) {
    return {
      status: 400,
      body: cdekError('v2_invalid_value_type', `Недопустимое значение поля type: ${type}`),
    };
  }
  const cityCode = query.get('city_code');
  if (cityCode === null) {
    // CDEK would list the whole country; the sandbox refuses rather than send megabytes nobody asked for.
    return { status: 400, body: cdekError('v2_field_is_empty', 'Поле city_code обязательно в песочнице') };
  }
  if (!/^\d+$/.test(cityCode)) {
    return { status: 400, body: cdekError('v2_invalid_value_type', 'Поле city_code должно быть числом') };
  }
  const city = cdekCityByCode(Number(cityCode));
  const row = city ? tableCity(city.city, city.region) : undefined;
  if (!city || !row) return { status: 200, body: [] };
  const points = simTownPoints('cdek', row, KINDS).filter(
    (p) => type === 'ALL' || (type === 'POSTAMAT') === (p.kind === 'postamat'),
  );
  return { status: 200, body: points.map((p) => record(p, city.code)) };
}

function record(p: SimPickupPoint, cityCode: number): Record<string, unknown> {
  const prefix = cityPrefix(p.city.name);
  const code = `${prefix}${String(100 + p.n)}`;
  const address = `${p.street}, ${p.house}`;
  return {
    code,
    name: p.kind === 'postamat' ? `Постамат СДЭК ${code}` : `${p.city.name}, ${p.street}`,
    uuid: `00000000-0000-4000-8000-${String(cityCode).padStart(6, '0')}${String(p.n).padStart(6, '0')}`,
    location: {
      country_code: 'RU',
      region: p.city.region,
      city_code: cityCode,
      city: p.city.name,
      postal_code: p.postalCode,
      longitude: p.lon,
      latitude: p.lat,
      address,
      address_full: `${p.postalCode}, Россия, ${p.city.region}, ${p.city.name}, ${address}`,
    },
    work_time: p.kind === 'postamat' ? 'Пн-Вс 00:00-23:59' : `Пн-Пт ${p.open}-${p.close}, Сб-Вс 10:00-18:00`,
    phones: [{ number: '+78002501405' }],
    type: p.kind === 'postamat' ? 'POSTAMAT' : 'PVZ',
    owner_code: 'cdek',
    take_only: false,
    is_handout: true,
    is_reception: p.kind === 'pvz',
    is_dressing_room: p.kind === 'pvz' && p.maxWeightGrams >= 30_000,
    have_cashless: p.card,
    have_cash: p.kind === 'pvz',
    have_fast_payment_system: p.card,
    allowed_cod: p.cod,
    weight_min: 0,
    weight_max: p.maxWeightGrams / 1000,
    ...(p.kind === 'postamat'
      ? { dimensions: POSTAMAT_CELLS.map(([depth, width, height]) => ({ width, height, depth })) }
      : {}),
  };
}

/** CDEK codes offices by a town prefix ("MSK123"): a transliterated prefix of three letters. */
function cityPrefix(name: string): string {
  const map: Record<string, string> = {
    а: 'A',
    б: 'B',
    в: 'V',
    г: 'G',
    д: 'D',
    е: 'E',
    ё: 'E',
    ж: 'Z',
    з: 'Z',
    и: 'I',
    й: 'Y',
    к: 'K',
    л: 'L',
    м: 'M',
    н: 'N',
    о: 'O',
    п: 'P',
    р: 'R',
    с: 'S',
    т: 'T',
    у: 'U',
    ф: 'F',
    х: 'H',
    ц: 'C',
    ч: 'C',
    ш: 'S',
    щ: 'S',
    ы: 'Y',
    э: 'E',
    ю: 'U',
    я: 'Y',
  };
  const letters = [...name.toLowerCase()].map((ch) => map[ch] ?? '').join('');
  return (letters + 'XXX').slice(0, 3);
}

function cdekError(code: string, message: string): unknown {
  return { errors: [{ code, message }] };
}
