// Russian Post's live check (issue #15 item 6; docs/carriers.md, Russian Post, "Live check"): one step. The
// public calculator has no account, so there is no auth step; the adapter asks no directory of Russian Post
// (indexes come from the request or the built-in city table, with no call), so there is no directory or size
// step either. `route` quotes Москва 101000 → Казань 420000 through the adapter: one GET per product.
import { type CarrierCheckStep, routeMeasure } from '../check';
import type { CarrierQuoteRequest } from '../types';
import { createRussianPostAdapter, type RussianPostAdapterOptions } from './adapter';
import { makeQuoteRequest } from '../quote-request';

/** The route step's shipment: the one docs/carriers.md's smoke test asks for. */
export const RUSSIAN_POST_CHECK_ROUTE: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Казань', postalCode: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});

const HINT = {
  ru: 'tariff.pochta.ru, по одному GET на продукт. Тайм-аут или отказ в соединении — чаще всего IP не из России: калькулятор Почты блокирует зарубежные адреса (docs/carriers.md, «Live smoke test»); запустите проверку с машины в России. «no service» — изменилась форма запроса (protocols.md §1.3) или набор продуктов (carriers.russian-post.objects); незнакомые коды ошибок — в журнале: «Russian Post answered an error code RateDesk does not know».',
  en: 'tariff.pochta.ru, one GET per product. A timeout or a refused connection most often means an IP outside Russia: Russian Post’s calculator blocks foreign addresses (docs/carriers.md, “Live smoke test”); run the check from a machine in Russia. “no service” means the request shape (protocols.md §1.3) or the products (carriers.russian-post.objects) changed; unknown error codes are in the log: “Russian Post answered an error code RateDesk does not know”.',
} as const;

export function russianPostCheckSteps(options: RussianPostAdapterOptions): CarrierCheckStep[] {
  return [
    {
      kind: 'route',
      subject: 'GET /v2/calculate/tariff/delivery?from=101000&to=420000',
      hint: HINT,
      async run(signal) {
        const out = await createRussianPostAdapter(options).quote(RUSSIAN_POST_CHECK_ROUTE, { signal });
        return routeMeasure(out, (code) => code.replace('russian-post:', ''));
      },
    },
  ];
}
