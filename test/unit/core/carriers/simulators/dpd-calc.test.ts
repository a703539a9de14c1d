// The DPD simulator refuses what DPD's JAX-WS endpoint refuses, in DPD's forms.
import { describe, expect, it } from 'vitest';
import { readCostAnswer } from '../../../../../core/carriers/dpd/mapper';
import { buildServiceCostEnvelope, type DpdCostRequest } from '../../../../../core/carriers/dpd/request';
import { answerDpdRequest } from '../../../../../core/carriers/simulators/dpd-calc';

const account = { clientNumber: '1000000000', clientKey: 'SIMULATORKEY' };
const req = (over: Partial<DpdCostRequest> = {}): DpdCostRequest => ({
  ...account,
  pickup: { index: '101000' },
  delivery: { index: '420000' },
  selfDelivery: false,
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
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

  it('offers nothing over DPD’s parcel limits (an empty answer)', () => {
    const heavy = answer(
      buildServiceCostEnvelope(
        req({ parcel: { weight_grams: 40_000, length_cm: 30, width_cm: 20, height_cm: 10 } }),
      ),
    );
    expect(heavy.reading.kind).toBe('no_service');
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
