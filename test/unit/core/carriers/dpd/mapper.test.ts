// Parsing DPD's answers on fixtures shaped like DPD's own: the captured getServiceCost2Response (verified-2026
// §6.3, DP-IPOL log), the fixture of protocols.md §6.3, an empty answer, each Fault form, malformed bodies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combine } from '../../../../../core/carriers/dpd/adapter';
import { readCostAnswer, readFault } from '../../../../../core/carriers/dpd/mapper';

const fixture = (file: string): string =>
  readFileSync(join(__dirname, '../../../../fixtures/carriers/dpd', file), 'utf8');

const NS = 'http://dpd.ru/ws/calculator/2012-03-20';
const ok = (returns: string) =>
  `<?xml version='1.0' encoding='UTF-8'?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ns2:getServiceCost2Response xmlns:ns2="${NS}">${returns}</ns2:getServiceCost2Response></S:Body></S:Envelope>`;
const ret = (code: string, name: string, cost: string, days: string) =>
  `<return><serviceCode>${code}</serviceCode><serviceName>${name}</serviceName><cost>${cost}</cost><days>${days}</days></return>`;
const fault = (faultstring: string, detail = '') =>
  `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>${faultstring}</faultstring>${detail}</S:Fault></S:Body></S:Envelope>`;
const dupsDetail = (dups: string) =>
  `<detail><ns2:ServiceCostFault2 xmlns:ns2="${NS}"><code>ambiguous-city</code>${dups}<message>Неоднозначно задан населенный пункт</message></ns2:ServiceCostFault2></detail>`;
const city = (id: string, region: string, regionName: string, abbr: string, index: string) =>
  `<cityId>${id}</cityId><countryCode>RU</countryCode><regionCode>${region}</regionCode><regionName>${regionName}</regionName><cityName>Пушкино</cityName><abbreviation>${abbr}</abbreviation><indexMin>${index}</indexMin><indexMax>${index}</indexMax>`;

describe('DPD mapper: success', () => {
  it('reads the protocols.md §6.3 fixture: roubles to exact kopecks, one day figure for min and max', () => {
    const r = readCostAnswer(
      200,
      ok(ret('ECN', 'DPD ECONOMY', '812.40', '6') + ret('CUR', 'DPD CLASSIC domestic', '1024.10', '4')),
      false,
      'RUB',
    );
    expect(r).toEqual({
      kind: 'rates',
      rates: [
        expect.objectContaining({
          service_code: 'dpd:ECN:door',
          service_name: 'DPD ECONOMY, до двери',
          delivery_type: 'door',
          price_kopecks: 81_240,
          days_min: 6,
          days_max: 6,
          currency: 'RUB',
        }),
        expect.objectContaining({
          service_code: 'dpd:CUR:door',
          price_kopecks: 102_410,
          days_min: 4,
          days_max: 4,
        }),
      ],
    });
  });

  it('marks the pickup-point call (selfDelivery=true) as pickup_point with its own code', () => {
    const r = readCostAnswer(200, ok(ret('PCL', 'DPD OPTIMUM', '500', '3')), true, 'RUB');
    expect(r.kind === 'rates' && r.rates[0]).toMatchObject({
      service_code: 'dpd:PCL:pickup',
      delivery_type: 'pickup_point',
      service_name: 'DPD OPTIMUM, до пункта выдачи',
      price_kopecks: 50_000,
    });
  });

  it.each([
    ['8.255', 826],
    ['8.253', 825],
    ['2450.5', 245_050],
    ['9.34', 934],
  ])('cost %s → %i kopecks (decimal, never float × 100)', (cost, kopecks) => {
    const r = readCostAnswer(200, ok(ret('NDY', 'DPD EXPRESS', cost, '1')), false, 'RUB');
    expect(r.kind === 'rates' && r.rates[0]!.price_kopecks).toBe(kopecks);
  });

  it('an empty getServiceCost2Response is no service', () => {
    expect(readCostAnswer(200, ok(''), false, 'RUB')).toMatchObject({ kind: 'no_service' });
  });

  it('skips a malformed item and keeps the others; all malformed is a carrier error', () => {
    const r = readCostAnswer(
      200,
      ok(ret('NDY', 'DPD EXPRESS', 'много', '1') + ret('CUR', 'DPD CLASSIC', '100', '2')),
      false,
      'RUB',
    );
    expect(r.kind === 'rates' && r.rates.map((x) => x.service_code)).toEqual(['dpd:CUR:door']);
    expect(readCostAnswer(200, ok(ret('NDY', 'x', '-1', '1')), false, 'RUB')).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error' },
    });
  });
});

describe('DPD mapper: currency', () => {
  it('a contract in another currency (the captured answer was a BYN account) is a carrier error, never roubles', () => {
    const r = readCostAnswer(200, ok(ret('NDY', 'DPD EXPRESS', '9.34', '1')), false, 'BYN');
    expect(r).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error', detail: expect.stringContaining('BYN') },
    });
  });

  it('a currency element in the answer is believed over the setting', () => {
    const item =
      '<return><serviceCode>NDY</serviceCode><serviceName>X</serviceName><cost>9</cost><days>1</days><currency>KZT</currency></return>';
    expect(readCostAnswer(200, ok(item), false, 'RUB')).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error' },
    });
    const rub = item.replace('KZT', 'RUB');
    expect(readCostAnswer(200, ok(rub), false, 'RUB').kind).toBe('rates');
  });
});

describe('DPD mapper: faults', () => {
  it('an ambiguous city with candidates is a choice to make, not a failure', () => {
    const detail = dupsDetail(
      `<deliveryDups>${city('1', '50', 'Московская область', 'г', '141200')}</deliveryDups><deliveryDups>${city('2', '50', 'Московская область', 'д', '141231')}</deliveryDups>`,
    );
    const r = readCostAnswer(500, fault('Неоднозначно задан населенный пункт', detail), false, 'RUB');
    expect(r.kind).toBe('ambiguous');
    if (r.kind !== 'ambiguous') return;
    expect(r.deliveryDups.map((d) => [d.cityId, d.abbreviation, d.indexMin])).toEqual([
      ['1', 'г', '141200'],
      ['2', 'д', '141231'],
    ]);
    expect(r.pickupDups).toEqual([]);
  });

  it('the captured faultstring without candidates is "city not found"', () => {
    expect(readCostAnswer(500, fault('Неоднозначно задан населенный пункт'), false, 'RUB')).toMatchObject({
      kind: 'failure',
      failure: { kind: 'city_not_found' },
    });
  });

  it.each([
    ['Ошибка авторизации: неверный номер клиента или ключ', 'carrier_error', /rejected the credentials/],
    ['Населенный пункт доставки не найден', 'city_not_found', /не найден/],
    ['Нет доступных сервисов', 'no_service', /Нет доступных/],
  ])('«%s» → %s', (message, kind, detail) => {
    const r = readFault(message, {
      ServiceCostFault2: { code: 'x', message, pickupDups: [], deliveryDups: [] },
    });
    expect(r).toMatchObject(
      kind === 'no_service'
        ? { kind }
        : { kind: 'failure', failure: { kind, detail: expect.stringMatching(detail) } },
    );
  });

  it('an unknown coded fault is a carrier error flagged for the log; a bare server fault is not flagged', () => {
    const coded = readCostAnswer(
      500,
      fault(
        'Что-то новое',
        `<detail><ns2:ServiceCostFault2 xmlns:ns2="${NS}"><code>new-code</code><message>Что-то новое</message></ns2:ServiceCostFault2></detail>`,
      ),
      false,
      'RUB',
    );
    expect(coded).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error' },
      unknownFault: { code: 'new-code' },
    });
    const bare = readCostAnswer(500, fault('Internal Error'), false, 'RUB');
    expect(bare).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error', detail: 'DPD fault Internal Error' },
    });
    expect(bare).not.toHaveProperty('unknownFault');
  });
});

describe('DPD mapper: faults RateDesk cannot read (audit DP9, fixtures)', () => {
  it('a bare Fault with a text it does not know: a carrier error in DPD’s words, flagged for the log', () => {
    const r = readCostAnswer(500, fixture('fault-bare-unknown-text.xml'), false, 'RUB');
    expect(r).toEqual({
      kind: 'failure',
      failure: { kind: 'carrier_error', detail: 'DPD fault Расчет по заданным параметрам невозможен' },
      unknownFault: { faultcode: 'S:Server', message: 'Расчет по заданным параметрам невозможен' },
    });
  });

  it('a passing refusal («временно недоступна») is DPD being down, never "no service"', () => {
    const r = readCostAnswer(500, fixture('fault-temporarily-unavailable.xml'), false, 'RUB');
    expect(r).toMatchObject({ kind: 'failure', failure: { kind: 'carrier_error' } });
    expect(r).toHaveProperty('unknownFault');
  });

  it('the older ServiceCostFault’s candidates are read like ServiceCostFault2’s', () => {
    const r = readCostAnswer(500, fixture('fault1-city-candidates.xml'), false, 'RUB');
    expect(r.kind).toBe('ambiguous');
    if (r.kind === 'ambiguous')
      expect(r.deliveryDups.map((d) => d.cityId)).toEqual(['196039811', '301511207']);
  });

  it('candidates without cityCode, abbreviation or index range are kept, not dropped', () => {
    const r = readCostAnswer(500, fixture('fault2-candidates-without-optional-fields.xml'), false, 'RUB');
    expect(r.kind === 'ambiguous' && r.deliveryDups.length).toBe(2);
  });
});

describe('DPD mapper: malformed', () => {
  it.each([
    ['not XML at all', '{"error":"json"}'],
    ['truncated XML', ok(ret('NDY', 'DPD EXPRESS', '9.34', '1')).slice(0, 120)],
    ['an empty body', ''],
    ['XML without a SOAP envelope', '<html><body>502 Bad Gateway</body></html>'],
    ['a body without getServiceCost2Response', ok('').replace(/getServiceCost2Response/g, 'somethingElse')],
  ])('%s → carrier error', (_what, text) => {
    expect(readCostAnswer(200, text, false, 'RUB')).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error' },
    });
  });

  it('a non-2xx answer without a Fault is a carrier error', () => {
    expect(readCostAnswer(503, ok(ret('NDY', 'DPD EXPRESS', '9.34', '1')), false, 'RUB')).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error', detail: 'DPD answered HTTP 503' },
    });
  });
});

describe('DPD adapter: combining the door and pickup calls', () => {
  it('any rates win; else a failure; else no service', () => {
    const rates = readCostAnswer(200, ok(ret('CUR', 'DPD CLASSIC', '100', '2')), false, 'RUB');
    const none = readCostAnswer(200, ok(''), true, 'RUB');
    const broken = readCostAnswer(200, 'garbage', true, 'RUB');
    expect(combine([rates, broken])).toMatchObject({ ok: true });
    expect(combine([none, broken])).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(combine([none, none])).toMatchObject({ ok: false, kind: 'no_service' });
  });
});
