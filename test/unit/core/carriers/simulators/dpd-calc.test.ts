// The DPD simulator refuses what DPD's JAX-WS endpoint refuses, in DPD's forms.
import { describe, expect, it } from 'vitest';
import { readCostAnswer } from '../../../../../core/carriers/dpd/mapper';
import { buildServiceCostEnvelope, type DpdCostRequest } from '../../../../../core/carriers/dpd/request';
import { answerDpdRequest, SIM_DPD_FAULT_CODES } from '../../../../../core/carriers/simulators/dpd-calc';

const account = { clientNumber: '1000000000', clientKey: 'SIMULATORKEY' };
const req = (over: Partial<DpdCostRequest> = {}): DpdCostRequest => ({
  ...account,
  pickup: { index: '101000' },
  delivery: { index: '420000' },
  selfDelivery: false,
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 }],
  declaredValueKopecks: 0,
  ...over,
});

function answer(xml: string) {
  const a = answerDpdRequest(xml, account);
  if (a.kind === 'hang') throw new Error('hung');
  return { ...a, reading: readCostAnswer(a.status, a.body, false, 'RUB') };
}

describe('DPD simulator', () => {
  it('prices a door route: express courier services, 1–3 days, costs with two decimals', () => {
    const a = answer(buildServiceCostEnvelope(req()));
    expect(a.status).toBe(200);
    expect(a.body).toMatch(/<cost>\d+\.\d{2}<\/cost>/);
    expect(a.reading.kind).toBe('rates');
    if (a.reading.kind !== 'rates') return;
    expect(a.reading.rates.map((r) => r.service_code)).toEqual([
      'dpd:NDY:door',
      'dpd:BZP:door',
      'dpd:CUR:door',
    ]);
    for (const r of a.reading.rates) {
      expect(r.days_min).toBeGreaterThanOrEqual(1);
      expect(r.days_max).toBeLessThanOrEqual(3);
    }
  });

  it('refuses the wrong namespace (the old capitalised "Calculator") as JAX-WS does', () => {
    const xml = buildServiceCostEnvelope(req()).replace('dpd.ru/ws/calculator/', 'dpd.ru/ws/Calculator/');
    const a = answer(xml);
    expect(a.status).toBe(500);
    expect(a.body).toContain('Cannot find dispatch method');
  });

  it('refuses a qualified <request> (it must be unqualified)', () => {
    const xml = buildServiceCostEnvelope(req())
      .replace('<request>', '<ns:request>')
      .replace('</request>', '</ns:request>');
    expect(answer(xml).body).toContain('Не задан параметр request');
  });

  it('refuses a SOAP 1.2 envelope and malformed XML', () => {
    const v12 = buildServiceCostEnvelope(req()).replace(
      'http://schemas.xmlsoap.org/soap/envelope/',
      'http://www.w3.org/2003/05/soap-envelope',
    );
    expect(answer(v12).body).toContain('VersionMismatch');
    expect(answer('<soapenv:Envelope>').status).toBe(500);
  });

  it('refuses a wrong client key or number with an authorisation fault', () => {
    const a = answer(buildServiceCostEnvelope(req({ clientKey: 'WRONG' })));
    expect(a.reading).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error', detail: expect.stringContaining('rejected the credentials') },
    });
    expect(answer(buildServiceCostEnvelope(req({ clientNumber: '1' }))).reading.kind).toBe('failure');
  });

  it('refuses an index or city it does not know, and lists candidates for an ambiguous name', () => {
    expect(answer(buildServiceCostEnvelope(req({ delivery: { index: '630099' } }))).reading).toMatchObject({
      failure: { kind: 'city_not_found' },
    });
    expect(
      answer(buildServiceCostEnvelope(req({ delivery: { cityName: 'Нигдевск', countryCode: 'RU' } })))
        .reading,
    ).toMatchObject({ failure: { kind: 'city_not_found' } });
    const amb = answer(
      buildServiceCostEnvelope(req({ delivery: { cityName: 'Пушкино', regionCode: 50, countryCode: 'RU' } })),
    );
    expect(amb.reading.kind).toBe('ambiguous');
    if (amb.reading.kind === 'ambiguous')
      expect(amb.reading.deliveryDups.map((d) => d.abbreviation).sort()).toEqual(['г', 'д']);
    // The region settles the namesakes of different regions.
    const kirov = answer(
      buildServiceCostEnvelope(req({ delivery: { cityName: 'Киров', regionCode: 40, countryCode: 'RU' } })),
    );
    expect(kirov.reading.kind).toBe('rates');
  });

  it('refuses a missing or malformed weight', () => {
    const xml = buildServiceCostEnvelope(req()).replace('<weight>1.2</weight>', '');
    expect(answer(xml).body).toContain('weight');
    expect(
      answer(buildServiceCostEnvelope(req()).replace('<weight>1.2</weight>', '<weight>1,2</weight>')).status,
    ).toBe(500);
  });

  it('offers nothing over DPD’s parcel limits (an empty answer), judged by weight and volume alone', () => {
    const at = (weight_grams: number, length_cm: number, width_cm: number, height_cm: number) =>
      answer(buildServiceCostEnvelope(req({ places: [{ weight_grams, length_cm, width_cm, height_cm }] })))
        .reading.kind;
    expect(at(40_000, 30, 20, 10)).toBe('no_service');
    expect(at(31_500, 30, 20, 10)).toBe('rates');
    // getServiceCost2 carries no sides: a long thin parcel is priced, only a volume no parcel within the
    // limits can have (over 100 × 50 × 50 cm) is refused.
    expect(at(1_000, 170, 10, 10)).toBe('rates');
    expect(at(1_000, 100, 50, 50)).toBe('rates');
    expect(at(1_000, 100, 60, 50)).toBe('no_service');
  });

  it('lists some candidates without the optional abbreviation and index range, as DPD’s WSDL allows', () => {
    const at = (cityName: string, regionCode: number) =>
      answer(buildServiceCostEnvelope(req({ delivery: { cityName, regionCode, countryCode: 'RU' } })))
        .reading;
    const sparse = at('Михайловка', 34);
    expect(sparse.kind).toBe('ambiguous');
    if (sparse.kind === 'ambiguous') {
      expect(sparse.deliveryDups).toHaveLength(2);
      for (const d of sparse.deliveryDups) {
        expect(d).toMatchObject({ regionCode: '34', cityName: 'Михайловка' });
        expect([d.abbreviation, d.indexMin, d.indexMax]).toEqual([undefined, undefined, undefined]);
      }
    }
    const full = at('Пушкино', 50);
    if (full.kind !== 'ambiguous') throw new Error('expected candidates');
    expect(full.deliveryDups.every((d) => d.abbreviation && d.indexMin && d.indexMax)).toBe(true);
  });

  it('speaks only its own fault codes, never presented as DPD’s', () => {
    const codes = [
      answer(buildServiceCostEnvelope(req({ clientKey: 'WRONG' }))).body,
      answer(buildServiceCostEnvelope(req({ delivery: { index: '630099' } }))).body,
      answer(buildServiceCostEnvelope(req({ delivery: { cityName: 'Пушкино', countryCode: 'RU' } }))).body,
      answer(buildServiceCostEnvelope(req()).replace('<weight>1.2</weight>', '')).body,
    ].map((body) => /<code>([^<]+)<\/code>/.exec(body)?.[1]);
    expect(codes).toEqual(['no-auth', 'city-not-found', 'ambiguous-city', 'bad-request']);
    expect([...SIM_DPD_FAULT_CODES].sort()).toEqual([...new Set(codes)].sort());
  });

  it('obeys its trigger block and treats other carriers’ triggers as ordinary indexes', () => {
    expect(
      answerDpdRequest(buildServiceCostEnvelope(req({ delivery: { index: '999931' } })), account),
    ).toEqual({ kind: 'hang' });
    const error = answer(buildServiceCostEnvelope(req({ delivery: { index: '999932' } })));
    expect(error.status).toBe(500);
    expect(error.reading).toMatchObject({ failure: { kind: 'carrier_error' } });
    expect(answer(buildServiceCostEnvelope(req({ delivery: { index: '999933' } }))).reading.kind).toBe(
      'no_service',
    );
    expect(answer(buildServiceCostEnvelope(req({ delivery: { index: '999942' } }))).reading.kind).toBe(
      'rates',
    );
  });
});
