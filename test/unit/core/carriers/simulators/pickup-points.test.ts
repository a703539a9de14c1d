// The simulators' point directories: every town with points has a 15 kg point and a 20 kg-or-more one near
// its centre, and each simulator answers in its carrier's protocol and refuses what its carrier refuses.
import { describe, expect, it } from 'vitest';
import { readListPoints } from '../../../../../core/carriers/boxberry/points';
import { readDeliveryPoints } from '../../../../../core/carriers/cdek/points';
import { parcelShopsEnvelope, readParcelShops } from '../../../../../core/carriers/dpd/points';
import { answerListPoints } from '../../../../../core/carriers/simulators/boxberry-points';
import { boxberryCities } from '../../../../../core/carriers/simulators/boxberry-cities';
import { findCdekCities } from '../../../../../core/carriers/simulators/cdek-cities';
import { answerDeliveryPoints } from '../../../../../core/carriers/simulators/cdek-points';
import { answerParcelShops } from '../../../../../core/carriers/simulators/dpd-points';
import { findCity } from '../../../../../core/locations/cities';

const kazan = findCity('Казань')!;
const weights = (points: Array<{ max_weight_grams: number | null }>) => points.map((p) => p.max_weight_grams);

describe('CDEK simulator GET /v2/deliverypoints', () => {
  const code = String(findCdekCities({ city: 'Казань', code: null, postalCode: null })[0]!.code);

  it('lists the town with a 15 kg and a 30 kg office, nearest first', () => {
    const answer = answerDeliveryPoints(new URLSearchParams({ city_code: code, type: 'ALL' }));
    expect(answer.status).toBe(200);
    const points = readDeliveryPoints(answer.body);
    expect(weights(points).slice(0, 2)).toEqual([15_000, 30_000]);
    expect(points.length).toBeGreaterThan(3);
  });

  it('filters by type and refuses what CDEK refuses', () => {
    const postamats = readDeliveryPoints(
      answerDeliveryPoints(new URLSearchParams({ city_code: code, type: 'POSTAMAT' })).body,
    );
    expect(postamats.every((p) => p.kind === 'postamat')).toBe(true);
    expect(answerDeliveryPoints(new URLSearchParams({ city_code: code, type: 'SHOP' })).status).toBe(400);
    expect(answerDeliveryPoints(new URLSearchParams({ city_code: 'kazan' })).status).toBe(400);
    expect(answerDeliveryPoints(new URLSearchParams({ city_code: '1' }))).toEqual({ status: 200, body: [] });
  });
});

describe('Boxberry simulator ListPoints', () => {
  const code = boxberryCities().find((c) => c.city.name === 'Казань')!.code;

  it('lists the town with a 15 kg and a 31 kg point', () => {
    const points = readListPoints(answerListPoints(new URLSearchParams({ CityCode: code, prepaid: '1' })));
    expect(weights(points).slice(0, 2)).toEqual([15_000, 31_000]);
    expect(points.some((p) => !p.cod)).toBe(true);
  });

  it('without prepaid=1 leaves out prepaid-only points; an unknown code is an error', () => {
    const points = readListPoints(answerListPoints(new URLSearchParams({ CityCode: code })));
    expect(points.every((p) => p.cod)).toBe(true);
    expect(answerListPoints(new URLSearchParams({ CityCode: '99999999' }))).toEqual([
      { err: 'Город не найден' },
    ]);
  });
});

describe('DPD simulator getParcelShops', () => {
  const account = { clientNumber: '1000000000', clientKey: 'KEY' };
  const town = {
    city: kazan.name,
    region: kazan.region,
    postalCode: null,
    centre: null,
    kladrId: kazan.kladrId,
  };

  it('lists the town by its KLADR code with a 15 kg and a 20 kg shop', () => {
    const answer = answerParcelShops(parcelShopsEnvelope(account, town), account);
    if (answer.kind !== 'reply') throw new Error('hung');
    const points = readParcelShops(answer.status, answer.body);
    expect(weights(points).slice(0, 2)).toEqual([15_000, 20_000]);
  });

  it('a wrong account or namespace is a Fault', () => {
    const wrong = answerParcelShops(parcelShopsEnvelope({ ...account, clientKey: 'x' }, town), account);
    if (wrong.kind !== 'reply') throw new Error('hung');
    expect(() => readParcelShops(wrong.status, wrong.body)).toThrow(/авторизации/);
    const calculator = parcelShopsEnvelope(account, town).replace(
      'http://dpd.ru/ws/geography/2015-05-20',
      'http://dpd.ru/ws/calculator/2012-03-20',
    );
    const misplaced = answerParcelShops(calculator, account);
    if (misplaced.kind !== 'reply') throw new Error('hung');
    expect(misplaced.status).toBe(500);
  });
});
