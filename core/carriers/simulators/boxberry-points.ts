// The Boxberry simulator's ListPoints (#21): the town's points in Boxberry's record (every field a string,
// as core/carriers/boxberry/points.ts cites), from the shared point model. As strict as Boxberry: a CityCode
// it does not know is an error in Boxberry's list form; a town without points an empty list. Without
// prepaid=1 the prepaid-only points are left out (what Boxberry's SDK comments say the flag does; unverified).
import { boxberryCityByCode } from './boxberry-cities';
import { simTownPoints, type SimPickupPoint, type SimPointKind } from './pickup-points-model';

// Boxberry's kinds as the sandbox draws them: partner points of 15 kg, own offices of 31 kg (Boxberry's
// published parcel limit), postamats of 15 kg; the volume limits are plausible figures, not published ones.
const HOURS = { open: '10:00', close: '21:00' } as const;
const KINDS: { small: SimPointKind; large: SimPointKind; others: SimPointKind[] } = {
  small: { kind: 'pvz', maxWeightGrams: 15_000, box: [60, 50, 40], cod: true, card: true, ...HOURS },
  large: { kind: 'pvz', maxWeightGrams: 31_000, box: [120, 80, 50], cod: true, card: false, ...HOURS },
  others: [
    { kind: 'pvz', maxWeightGrams: 31_000, box: [120, 80, 50], cod: true, card: true, ...HOURS },
    { kind: 'pvz', maxWeightGrams: 15_000, box: [60, 50, 40], cod: false, card: false, ...HOURS },
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

export function answerListPoints(query: URLSearchParams): unknown {
  const code = query.get('CityCode');
  if (code === null || code.trim() === '') return [{ err: 'Не указан код города (CityCode)' }];
  const city = boxberryCityByCode(code.trim());
  if (!city) return [{ err: 'Город не найден' }];
  if (!city.pickupPoint || city.locality) return [];
  const prepaid = query.get('prepaid') === '1';
  return simTownPoints('boxberry', city.city, KINDS)
    .filter((p) => prepaid || p.cod)
    .map((p) => record(p, city.code));
}

function record(p: SimPickupPoint, cityCode: string): Record<string, string | number | boolean> {
  const code = String(Number(cityCode) * 1000 + 100 + p.n).padStart(5, '0');
  const volume = p.box ? (p.box[0] * p.box[1] * p.box[2]) / 1_000_000 : 0;
  return {
    Code: code,
    Name: `${p.city.name} ${p.street}_${p.n + 1}`,
    Address: `${p.postalCode}, ${p.city.name}, ${p.street}, д.${p.house}`,
    Phone: '8-800-222-80-00',
    WorkShedule: p.kind === 'postamat' ? 'пн-вс:00.00-23.59' : `пн-пт:${p.open}-${p.close}, сб:10.00-18.00`,
    TripDescription: 'Вход со двора, вывеска Boxberry',
    DeliveryPeriod: 3,
    CityCode: cityCode,
    CityName: p.city.name,
    TariffZone: '2',
    Settlement: p.city.name,
    Area: p.city.region,
    Country: 'Россия',
    GPS: `${p.lat},${p.lon}`,
    AddressReduce: `${p.street}, д.${p.house}`,
    Acquiring: p.card ? 'Yes' : 'No',
    DigitalSignature: 'No',
    TypeOfOffice: p.maxWeightGrams > 15_000 ? '1' : '2',
    Metro: '',
    LoadLimit: String(p.maxWeightGrams / 1000),
    VolumeLimit: String(Math.round(volume * 1000) / 1000),
    CountryCode: '643',
    NalKD: 'No',
    OnlyPrepaidOrders: p.cod ? 'No' : 'Yes',
    Postamat: p.kind === 'postamat',
  };
}
