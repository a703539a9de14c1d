// The RateDesk extension beside /v1 in the OpenAPI document (#21): POST /ext/v1/rates (the clerk's quote) and
// POST /ext/v1/points (pickup points that take the parcel), with their examples. Same listener, same key,
// same limits, balance and idempotency rules as /v1/rates (docs/api.md, "Clerk's quote extension (/ext/v1)");
// /v1's own paths and components are never touched from here.
import type { PointsQueryInput, PointsResponse } from './points';
import type { QuoteRequestInput, QuoteResponse } from './quote-ext';
import {
  errorResponses,
  LIMITED,
  okResponse,
  RATES_ERRORS,
  REQUEST_ID_EXAMPLE,
  type ErrorStatus,
} from './openapi-responses';
import { ref, schemaRef, type JsonObject } from './openapi-schemas';

/** The tag every extension operation carries, so tools list them apart from /v1. */
export const EXT_TAG = 'RateDesk extension';

export const EXT_TAG_OBJECT: JsonObject = {
  name: EXT_TAG,
  description:
    "Not part of the /v1 contract: RateDesk's own endpoints under /ext/v1/, beside it on the same listener, " +
    'with the same API key, rate limits and error bodies. POST /ext/v1/rates is the clerk’s quote (cash ' +
    'on delivery, several places, a shipping date; each rate with its fees, delivery dates and customer ' +
    'price) and is charged one request like /v1/rates, with the same Idempotency-Key rules (a key is bound ' +
    'to its endpoint: reusing one of /v1/rates here is `idempotency_key_reused`). POST /ext/v1/points is ' +
    'free. Any other path under /ext/ is 404 `not_found`.',
};

/** No balance, no idempotency record, no carrier quote: neither 402, 409 nor 422 can answer it. */
const POINTS_ERRORS: readonly ErrorStatus[] = RATES_ERRORS.filter((s) => s !== 402 && s !== 409 && s !== 422);

export const QUOTE_REQUEST_EXAMPLE = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  places: [
    { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10.5, count: 2 },
    { weight_grams: 4000, length_cm: 40, width_cm: 30, height_cm: 30, count: 1 },
  ],
  declared_value_kopecks: 1_500_000,
  cod_kopecks: 1_500_000,
  ship_date: '2026-12-04',
  carriers: ['cdek', 'russian-post'],
} satisfies QuoteRequestInput;

/** Illustrative figures, not any carrier's tariff. */
export const QUOTE_RESPONSE_EXAMPLE = {
  request_id: REQUEST_ID_EXAMPLE,
  rates: [
    {
      carrier: 'cdek',
      carrier_name: 'СДЭК',
      service_code: '136',
      service_name: 'Посылка склад-склад',
      delivery_type: 'pickup_point',
      price_kopecks: 108_250,
      currency: 'RUB',
      days_min: 2,
      days_max: 4,
      price_type: 'public',
      breakdown: { base_kopecks: 52_000, insurance_kopecks: 11_250, cod_fee_kopecks: 45_000 },
      options_not_priced: [],
      insured_value_kopecks: 1_500_000,
      places: 3,
      days_kind: 'working',
      ship_date: '2026-12-04',
      delivery_date_min: '2026-12-08',
      delivery_date_max: '2026-12-10',
      customer_price_kopecks: 125_000,
    },
    {
      carrier: 'russian-post',
      carrier_name: 'Почта России',
      service_code: '4030',
      service_name: 'Посылка нестандартная',
      delivery_type: 'post_office',
      price_kopecks: 118_000,
      currency: 'RUB',
      days_min: 3,
      days_max: 5,
      price_type: 'public',
      breakdown: { base_kopecks: null, insurance_kopecks: null, cod_fee_kopecks: null },
      options_not_priced: [
        { option: 'cod', reason: 'not_quoted', detail: 'COD fee is charged at the post office' },
      ],
      insured_value_kopecks: 1_500_000,
      places: 3,
      days_kind: 'calendar',
      ship_date: '2026-12-04',
      delivery_date_min: '2026-12-07',
      delivery_date_max: '2026-12-09',
      customer_price_kopecks: null,
    },
  ],
  unavailable: [],
  balance_remaining: 940,
} satisfies QuoteResponse;

export const POINTS_QUERY_EXAMPLE = {
  carrier: 'cdek',
  to: { city: 'Казань', postal_code: '420000' },
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10.5, count: 2 }],
  cod_kopecks: 1_500_000,
  card: true,
  limit: 20,
} satisfies PointsQueryInput;

/** An invented point, shaped as the directories are mapped (core/contract/points.ts). */
export const POINTS_RESPONSE_EXAMPLE = {
  points: [
    {
      carrier: 'cdek',
      code: 'KZN123',
      kind: 'pvz',
      name: 'Казань, Баумана',
      address: 'Казань, ул. Баумана, 1',
      hours: 'Пн-Пт 10:00-20:00, Сб-Вс 10:00-18:00',
      lat: 55.7896,
      lon: 49.1216,
      distance_km: 0.6,
      max_weight_grams: 30_000,
      max_dimensions_cm: [120, 60, 60],
      cod: true,
      card: true,
    },
  ],
  filtered_out: 4,
  directory_fetched_at: '2026-12-04T06:00:00.000Z',
} satisfies PointsResponse;

export function extensionPaths(): JsonObject {
  return {
    '/ext/v1/rates': {
      post: {
        operationId: 'calculateQuote',
        tags: [EXT_TAG],
        summary: "Calculate the clerk's quote (RateDesk extension)",
        description:
          'The quote /v1/rates gives, for a shipment /v1 cannot carry: several places, cash on delivery and ' +
          'a shipping date. Each rate adds its fee breakdown, the options it does not price (never a silent ' +
          'omission), the delivery dates and the customer’s price by the account’s resale rule. Rated by the ' +
          'same path as /v1/rates and charged the same: one request per 200, nothing for errors or replays. ' +
          'A /v1-shaped body (one `parcel`) is accepted too.',
        parameters: [ref('parameters', 'Idempotency-Key')],
        requestBody: {
          required: true,
          description: 'At most 16 KiB of JSON.',
          content: {
            'application/json': { schema: schemaRef('QuoteRequest'), example: QUOTE_REQUEST_EXAMPLE },
          },
        },
        responses: {
          '200': okResponse(
            'Rates. `balance_remaining` already reflects this call.',
            schemaRef('QuoteResponse'),
            QUOTE_RESPONSE_EXAMPLE,
            [...LIMITED, 'Idempotent-Replayed'],
          ),
          ...errorResponses(RATES_ERRORS, 'POST'),
        },
      },
    },
    '/ext/v1/points': {
      post: {
        operationId: 'findPickupPoints',
        tags: [EXT_TAG],
        summary: 'Pickup points that take the parcel (RateDesk extension)',
        description:
          "A carrier's pickup points in the recipient's town that accept these boxes (each place within the " +
          "point's weight and size limits), and cash on delivery or card payment where asked, nearest to the " +
          "town centre first, from the carrier's directory as RateDesk last fetched it. Free: deducts " +
          'nothing, and takes no Idempotency-Key (a repeat simply asks again). Counts against the rate limit.',
        requestBody: {
          required: true,
          description: 'At most 16 KiB of JSON.',
          content: {
            'application/json': { schema: schemaRef('PointsQuery'), example: POINTS_QUERY_EXAMPLE },
          },
        },
        responses: {
          '200': okResponse('The points.', schemaRef('PointsResponse'), POINTS_RESPONSE_EXAMPLE, LIMITED),
          ...errorResponses(POINTS_ERRORS, 'POST'),
        },
      },
    },
  };
}
