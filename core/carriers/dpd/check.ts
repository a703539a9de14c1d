// DPD's live check (issue #15 item 6; docs/carriers.md, DPD, "Live check"): the calculator the quotes use,
// against the endpoint and contract in settings, in three steps. DPD has no separate login and the adapter
// downloads no directory (places go to DPD by index or by name inside getServiceCost2), so there is no size
// step: `auth` is the cheapest authenticated call, one calculation between two documented cityIds;
// `directory` asks DPD to find a big city by name and region code, the way the adapter names a place without
// a postal code; `route` quotes Москва → Казань through the adapter itself.
import { createLocationResolver } from '../../locations/resolver';
import { said, type CarrierCheckStep, type CheckMeasure, routeMeasure, failureText } from '../check';
import { CarrierHttpError, carrierRequest } from '../http';
import type { CarrierQuoteRequest } from '../types';
import {
  createDpdAdapter,
  dpdAccount,
  dpdEndpoint,
  DPD_SOAP_HEADERS,
  type DpdAdapterOptions,
} from './adapter';
import { locateForDpd } from './locations';
import { readCostAnswer, type CostReading } from './mapper';
import { buildServiceCostEnvelope, type DpdCity } from './request';
import { makeQuoteRequest } from '../quote-request';

/** Москва's DPD cityId, seen in SDK tests and a terminal fixture (protocols.md §6.2). */
export const DPD_MOSCOW_CITY_ID = 49694102;

/** A small parcel every DPD service takes. */
const SMALL_PARCEL = { weight_grams: 1000, length_cm: 20, width_cm: 20, height_cm: 10 };

/** The route step's shipment: the one docs/carriers.md's smoke test asks for. */
export const DPD_CHECK_ROUTE: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Казань', postalCode: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});

const HINTS = {
  auth: {
    ru: 'Номер клиента и ключ DPD — из договора, публичной тестовой пары нет: wstest.dpd.ru принимает только тестовую пару от менеджера DPD, ws.dpd.ru — только боевую. «rejected the credentials» — пара или сервер; «Cannot find dispatch method» или «not well-formed» — адрес сервиса (…/services); сетевая ошибка — адрес или доступ к сети.',
    en: 'DPD’s client number and key come with the contract; there is no public test pair: wstest.dpd.ru takes only the test pair from your DPD manager, ws.dpd.ru only the production one. “rejected the credentials” means the pair or the host; “Cannot find dispatch method” or “not well-formed” the service address (…/services); a network error the address or the network.',
  },
  directory: {
    ru: 'Город без индекса уходит в DPD как cityName + regionCode — код субъекта по КЛАДР (77 Москва, 16 Татарстан). Что DPD нумерует регионы так же, не подтверждено (аудит DP5): если здесь «не найден» или «неоднозначно», а маршрут по индексу проходит, сообщите, какой regionCode DPD дал в кандидатах.',
    en: 'A city without a postal code goes to DPD as cityName + regionCode, the KLADR subject code (77 Moscow, 16 Tatarstan). That DPD numbers regions so is unverified (audit DP5): if this says “not found” or “ambiguous” while the route by postal code passes, report the regionCode DPD gave its candidates.',
  },
  route: {
    ru: 'Москва 101000 → Казань 420000, 1,2 кг, через сам адаптер: цены — в рублях (иначе задайте carriers.dpd.contract_currency), суммы и сроки сверьте с кабинетом DPD. «no service» здесь — вероятно, DPD иначе читает индекс с названием рядом (DPD_PLACE_WITH_INDEX, аудит DP5); незнакомые ответы DPD — в журнале: «DPD answered a fault RateDesk does not know» (аудит DP9). Лимиты DPD не подтверждены (DP10).',
    en: 'Moscow 101000 → Kazan 420000, 1.2 kg, through the adapter itself: prices must be roubles (else set carriers.dpd.contract_currency); compare sums and days with DPD’s cabinet. “no service” here probably means DPD reads an index with the name beside it differently (DPD_PLACE_WITH_INDEX, audit DP5); DPD answers RateDesk does not know are in the log: “DPD answered a fault RateDesk does not know” (audit DP9). DPD’s limits are unverified (DP10).',
  },
} as const;

/** A failure as a person reads it: a carrier error in its own words, anything else with its kind first. */

export function dpdCheckSteps(options: DpdAdapterOptions): CarrierCheckStep[] {
  const currency = options.contractCurrency?.trim().toUpperCase() || 'RUB';

  /** One getServiceCost2 exchange, read as the adapter reads it; a transport failure throws. */
  async function ask(pickup: DpdCity, delivery: DpdCity, signal: AbortSignal): Promise<CostReading> {
    const account = dpdAccount(options);
    if (!account.ok) throw new Error(`${account.missing} (settings carriers.dpd.client_number / client_key)`);
    const body = buildServiceCostEnvelope({
      ...account,
      pickup,
      delivery,
      selfDelivery: false,
      places: [SMALL_PARCEL],
      declaredValueKopecks: 0,
    });
    try {
      const res = await carrierRequest(dpdEndpoint(options.baseUrl), {
        method: 'POST',
        headers: { ...DPD_SOAP_HEADERS },
        body,
        signal,
      });
      return readCostAnswer(res.status, res.text, false, currency);
    } catch (err) {
      if (err instanceof CarrierHttpError) throw new Error(`DPD: ${err.message}`, { cause: err });
      throw err;
    }
  }

  const rateMeasure = (reading: CostReading): CheckMeasure =>
    reading.kind === 'rates'
      ? {
          items: reading.rates.length,
          cheapestKopecks: Math.min(...reading.rates.map((r) => r.price_kopecks)),
        }
      : { items: 0 };

  const auth: CarrierCheckStep = {
    kind: 'auth',
    subject: `getServiceCost2 cityId ${DPD_MOSCOW_CITY_ID} → ${DPD_MOSCOW_CITY_ID}`,
    hint: HINTS.auth,
    async run(signal) {
      const reading = await ask({ cityId: DPD_MOSCOW_CITY_ID }, { cityId: DPD_MOSCOW_CITY_ID }, signal);
      // Anything but a refused key or a fault of the exchange itself means DPD took the contract.
      if (reading.kind === 'failure' && reading.failure.kind === 'carrier_error') {
        throw new Error(reading.failure.detail);
      }
      const answer =
        reading.kind === 'rates'
          ? said(`${reading.rates.length} услуг`, `${reading.rates.length} services`)
          : said(
              reading.kind === 'failure'
                ? failureText(reading.failure)
                : `${reading.kind}: ${reading.detail}`,
            );
      return {
        ...rateMeasure(reading),
        note: said(
          `DPD принял договор; ответ: ${answer.ru}`,
          `DPD accepted the contract; it answered ${answer.en}`,
        ),
      };
    },
  };

  const directory: CarrierCheckStep = {
    kind: 'directory',
    subject: 'getServiceCost2 cityName=Москва regionCode=77 → cityName=Казань regionCode=16',
    hint: HINTS.directory,
    async run(signal) {
      const resolver = createLocationResolver();
      const [from, to] = await Promise.all(
        ['Москва', 'Казань'].map((city) => locateForDpd(resolver, { city, postalCode: null }, signal)),
      );
      if (!from?.ok || !to?.ok) throw new Error('the built-in city table does not know Москва or Казань');
      const reading = await ask(from.place.request, to.place.request, signal);
      if (reading.kind === 'failure') throw new Error(failureText(reading.failure));
      if (reading.kind === 'ambiguous') {
        const regions = [...reading.pickupDups, ...reading.deliveryDups]
          .map((c) => `${c.cityName ?? '?'} (regionCode ${c.regionCode ?? '?'})`)
          .join(', ');
        throw new Error(`DPD found the name ambiguous: ${reading.detail}; candidates ${regions}`);
      }
      return {
        ...rateMeasure(reading),
        note:
          reading.kind === 'rates'
            ? said(
                'DPD нашёл оба города по названию и коду региона',
                'DPD found both by name and region code',
              )
            : said(reading.detail),
      };
    },
  };

  const route: CarrierCheckStep = {
    kind: 'route',
    subject: 'Москва 101000 → Казань 420000',
    hint: HINTS.route,
    async run(signal) {
      const out = await createDpdAdapter(options).quote(DPD_CHECK_ROUTE, { signal });
      return routeMeasure(out);
    },
  };

  return [auth, directory, route];
}
