// DPD's getParcelShops answer → points, on the captured answer's shape (a Go client's test fixture, code-search
// id 37948800241): kg and cm limits, the whole shipment's weight, dimensionSum, COD from the НПП service, card
// from a PaymentByBankCard schedule, hours from SelfDelivery; the request names the town by KLADR.
import { describe, expect, it } from 'vitest';
import { parcelShopsEnvelope, readParcelShops } from '../../../../../core/carriers/dpd/points';
import { buildSoapFault } from '../../../../../core/carriers/dpd/soap';

const CAPTURED = `<?xml version='1.0' encoding='UTF-8'?>
<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/">
  <S:Body>
    <ns2:getParcelShopsResponse xmlns:ns2="http://dpd.ru/ws/geography/2015-05-20">
      <return>
        <parcelShop>
          <code>001G</code>
          <parcelShopType>ПВП</parcelShopType>
          <state>Open</state>
          <address>
            <cityId>49694167</cityId><countryCode>RU</countryCode><regionCode>78</regionCode>
            <regionName>Санкт-Петербург</regionName><cityCode>78000000000</cityCode>
            <cityName>Санкт-Петербург</cityName><index>196135</index><street>Алтайская</street>
            <streetAbbr>ул</streetAbbr><houseNo>16</houseNo>
            <descript>Выход из метро в сторону аэропорта, от Московской пл</descript>
          </address>
          <brand>Главпункт</brand>
          <clientDepartmentNum>Moskovskaya-A16</clientDepartmentNum>
          <geoCoordinates><latitude>59.849681</latitude><longitude>30.327345</longitude></geoCoordinates>
          <limits>
            <maxShipmentWeight>70</maxShipmentWeight><maxWeight>20</maxWeight><maxLength>200</maxLength>
            <maxWidth>200</maxWidth><maxHeight>200</maxHeight><dimensionSum>200</dimensionSum>
          </limits>
          <schedule><operation>Payment</operation>
            <timetable><weekDays>Пн,Вт,Ср,Чт,Пт,Сб,Вс</weekDays><workTime>10:00 - 21:00</workTime></timetable>
          </schedule>
          <schedule><operation>PaymentByBankCard</operation>
            <timetable><weekDays>Пн,Вт,Ср,Чт,Пт,Сб,Вс</weekDays><workTime>10:00 - 21:00</workTime></timetable>
          </schedule>
          <schedule><operation>SelfDelivery</operation>
            <timetable><weekDays>Пн,Вт,Ср,Чт,Пт,Сб,Вс</weekDays><workTime>10:00 - 21:00</workTime></timetable>
          </schedule>
          <extraService><esCode>НПП</esCode><params><name>sum_npp</name><value>100000</value></params></extraService>
          <extraService><esCode>ОЖД</esCode><params><name>reason_delay</name><value>ПРОС</value></params></extraService>
          <extraService><esCode>ТРМ</esCode></extraService>
          <services><serviceCode>BZP</serviceCode></services>
        </parcelShop>
      </return>
    </ns2:getParcelShopsResponse>
  </S:Body>
</S:Envelope>`;

describe('DPD getParcelShops', () => {
  it('reads the captured parcel shop', () => {
    expect(readParcelShops(200, CAPTURED)).toEqual([
      {
        code: '001G',
        kind: 'pvz',
        name: 'Главпункт',
        address: '196135, Санкт-Петербург, ул Алтайская, 16',
        hours: 'Пн,Вт,Ср,Чт,Пт,Сб,Вс: 10:00 - 21:00',
        lat: 59.849681,
        lon: 30.327345,
        max_weight_grams: 20_000,
        max_dimensions_cm: [200, 200, 200],
        max_dimension_sum_cm: 200,
        max_shipment_weight_grams: 70_000,
        cod: true,
        card: true,
      },
    ]);
  });

  it('a closed shop is left out; one without НПП or card payment takes neither', () => {
    const closed = CAPTURED.replace('<state>Open</state>', '<state>Closed</state>');
    expect(readParcelShops(200, closed)).toEqual([]);
    const plain = CAPTURED.replace(/<extraService><esCode>НПП<\/esCode>.*?<\/extraService>/s, '').replace(
      /<schedule><operation>PaymentByBankCard<\/operation>.*?<\/schedule>/s,
      '',
    );
    expect(readParcelShops(200, plain)[0]).toMatchObject({ cod: false, card: false });
  });

  it('a Fault or an unreadable body is a failure', () => {
    expect(() => readParcelShops(500, buildSoapFault('S:Server', 'Ошибка авторизации'))).toThrow(
      /Ошибка авторизации/,
    );
    expect(() => readParcelShops(200, '<html>')).toThrow(/getParcelShops failed/);
  });

  it('asks for the town by its KLADR city and region codes, in the geography namespace', () => {
    const xml = parcelShopsEnvelope(
      { clientNumber: '1001027554', clientKey: 'KEY' },
      { city: 'Кемерово', region: 'Кемеровская', postalCode: null, centre: null, kladrId: '4200000900000' },
    );
    expect(xml).toContain('xmlns:ns="http://dpd.ru/ws/geography/2015-05-20"');
    expect(xml).toContain('<ns:getParcelShops><request><auth><clientNumber>1001027554</clientNumber>');
    expect(xml).toContain('<regionCode>42</regionCode><cityCode>42000009000</cityCode>');
  });
});
