// Boxberry's ListPoints answer → points: every field a string as Boxberry writes it, kg and m³ limits,
// OnlyPrepaidOrders as "no COD", Acquiring as card, GPS "lat,lon"; an error form is a failure.
import { describe, expect, it } from 'vitest';
import { listPointsUrl, readListPoints } from '../../../../../core/carriers/boxberry/points';

// Shaped like a ListPoints row (gwinn/boxberry-sdk ListPointsResponse.php, PointBoxberry.swift).
const ROW = {
  Code: '16011',
  Name: 'Казань Баумана_1',
  Address: '420111, Казань г, Баумана ул, д.44',
  Phone: '8-800-222-80-00',
  WorkShedule: 'пн-пт:10.00-21.00, сб:10.00-18.00',
  TripDescription: 'Вход со двора',
  DeliveryPeriod: 3,
  CityCode: '16',
  CityName: 'Казань',
  TariffZone: '2',
  Settlement: 'Казань',
  Area: 'Татарстан',
  Country: 'Россия',
  GPS: '55.7903,49.1081',
  AddressReduce: 'Баумана ул, д.44',
  Acquiring: 'Yes',
  DigitalSignature: 'No',
  TypeOfOffice: '2',
  Metro: '',
  LoadLimit: '15',
  VolumeLimit: '0,12',
  CountryCode: '643',
  NalKD: 'No',
  OnlyPrepaidOrders: 'No',
};

describe('Boxberry ListPoints', () => {
  it('asks one town, prepaid-only points included', () => {
    expect(listPointsUrl('https://api.boxberry.ru/json.php', 'T', '16')).toBe(
      'https://api.boxberry.ru/json.php?token=T&method=ListPoints&CityCode=16&prepaid=1',
    );
  });

  it('maps a row', () => {
    expect(readListPoints([ROW])).toEqual([
      {
        code: '16011',
        kind: 'pvz',
        name: 'Казань Баумана_1',
        address: '420111, Казань г, Баумана ул, д.44',
        hours: 'пн-пт:10.00-21.00, сб:10.00-18.00',
        lat: 55.7903,
        lon: 49.1081,
        max_weight_grams: 15_000,
        max_dimensions_cm: null,
        max_volume_cm3: 120_000,
        cod: true,
        card: true,
      },
    ]);
  });

  it('prepaid-only points take no COD; a postamat; limits not given stay unknown', () => {
    const [p] = readListPoints([
      {
        ...ROW,
        OnlyPrepaidOrders: 'Yes',
        Acquiring: 'No',
        Postamat: true,
        LoadLimit: '',
        VolumeLimit: '0',
        GPS: '',
      },
    ]);
    expect(p).toMatchObject({
      cod: false,
      card: false,
      kind: 'postamat',
      max_weight_grams: null,
      max_volume_cm3: null,
      lat: null,
      lon: null,
    });
  });

  it('an error form is a failure', () => {
    expect(() => readListPoints([{ err: 'Город не найден' }])).toThrow(/Город не найден/);
    expect(() => readListPoints({ err: 'Неверный токен' })).toThrow(/Неверный токен/);
  });
});
