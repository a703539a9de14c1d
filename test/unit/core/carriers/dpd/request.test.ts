// The getServiceCost2 envelope against the documented protocol (protocols.md §6.2 and the captured live
// request of verified-2026 §6.2): namespaces, element order, units, auth.
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  buildServiceCostEnvelope,
  gramsToKg,
  kopecksToRoubles,
  volumeM3,
  type DpdCostRequest,
} from '../../../../../core/carriers/dpd/request';

const base: DpdCostRequest = {
  clientNumber: '1104009121',
  clientKey: 'KEY',
  pickup: { index: '101000' },
  delivery: { cityName: 'Казань', regionCode: 16, countryCode: 'RU' },
  selfDelivery: false,
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 }],
  declaredValueKopecks: 150_000,
};

const raw = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false });

describe('DPD request: envelope', () => {
  it('is SOAP 1.1 with getServiceCost2 in the lowercase calculator namespace and an unqualified <request>', () => {
    const xml = buildServiceCostEnvelope(base);
    const tree = raw.parse(xml);
    const env = tree['soapenv:Envelope'];
    expect(env['@_xmlns:soapenv']).toBe('http://schemas.xmlsoap.org/soap/envelope/');
    expect(env['@_xmlns:ns']).toBe('http://dpd.ru/ws/calculator/2012-03-20');
    const op = env['soapenv:Body']['ns:getServiceCost2'];
    expect(Object.keys(op)).toEqual(['request']);
    expect(xml).toContain(
      '<request><auth><clientNumber>1104009121</clientNumber><clientKey>KEY</clientKey></auth>',
    );
  });

  it('orders the elements as the WSDL sequence does and puts the units on the wire in kg, m³ and roubles', () => {
    const xml = buildServiceCostEnvelope(base);
    const inner = /<request>(.*)<\/request>/.exec(xml)![1]!;
    const order = [...inner.matchAll(/<(\w+)>/g)]
      .map((m) => m[1])
      .filter((n) =>
        [
          'auth',
          'pickup',
          'delivery',
          'selfPickup',
          'selfDelivery',
          'weight',
          'volume',
          'declaredValue',
        ].includes(n!),
      );
    expect(order).toEqual([
      'auth',
      'pickup',
      'delivery',
      'selfPickup',
      'selfDelivery',
      'weight',
      'volume',
      'declaredValue',
    ]);
    expect(inner).toContain('<pickup><index>101000</index></pickup>');
    expect(inner).toContain(
      '<delivery><cityName>Казань</cityName><regionCode>16</regionCode><countryCode>RU</countryCode></delivery>',
    );
    expect(inner).toContain('<selfPickup>false</selfPickup><selfDelivery>false</selfDelivery>');
    expect(inner).toContain('<weight>1.2</weight><volume>0.006</volume><declaredValue>1500</declaredValue>');
  });

  it('leaves declaredValue out when there is none, and sends a chosen cityId alone', () => {
    const xml = buildServiceCostEnvelope({
      ...base,
      declaredValueKopecks: 0,
      pickup: { cityId: 49694102 },
      selfDelivery: true,
    });
    expect(xml).not.toContain('declaredValue');
    expect(xml).toContain('<pickup><cityId>49694102</cityId></pickup>');
    expect(xml).toContain('<selfDelivery>true</selfDelivery>');
  });

  it('an index with the name and region beside it keeps cityRequest’s order: index, cityName, regionCode, countryCode', () => {
    const xml = buildServiceCostEnvelope({
      ...base,
      pickup: { index: '101000', cityName: 'Москва', regionCode: 77, countryCode: 'RU' },
    });
    expect(xml).toContain(
      '<pickup><index>101000</index><cityName>Москва</cityName><regionCode>77</regionCode><countryCode>RU</countryCode></pickup>',
    );
  });

  it('escapes values: a key with < and & stays data, never markup', () => {
    const xml = buildServiceCostEnvelope({
      ...base,
      clientKey: 'a<b&c>"d',
      delivery: { cityName: 'Орёл</cityName><x>', countryCode: 'RU' },
    });
    expect(xml).toContain('<clientKey>a&lt;b&amp;c&gt;');
    expect(xml).not.toContain('<x>');
    const parsed = new XMLParser({ removeNSPrefix: true, parseTagValue: false }).parse(xml);
    expect(parsed.Envelope.Body.getServiceCost2.request.auth.clientKey).toBe('a<b&c>"d');
  });
});

describe('DPD request: units', () => {
  it.each([
    [1200, '1.2'],
    [1, '0.001'],
    [31_500, '31.5'],
    [900_000, '900'],
  ])('%i g → %s kg', (g, kg) => expect(gramsToKg(g)).toBe(kg));

  it('volume in m³ from whole centimetres rounded up, exactly', () => {
    expect(volumeM3({ length_cm: 30, width_cm: 20, height_cm: 10 })).toBe('0.006');
    expect(volumeM3({ length_cm: 10.2, width_cm: 10, height_cm: 10 })).toBe('0.0011');
    expect(volumeM3({ length_cm: 300, width_cm: 300, height_cm: 300 })).toBe('27');
  });

  it('kopecks → roubles', () => {
    expect(kopecksToRoubles(150_000)).toBe('1500');
    expect(kopecksToRoubles(8519)).toBe('85.19');
    expect(kopecksToRoubles(5)).toBe('0.05');
  });
});
