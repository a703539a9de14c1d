// The OpenAPI 3.1 description of /v1, derived from the zod contract (./v1) and the error table (./errors), and
// beside it the RateDesk extension /ext/v1 (#21, ./openapi-ext).
// docs/openapi.json is this function's output; a unit test and `npm run openapi -- --check` keep them equal.
import {
  ALWAYS,
  BALANCE_EXAMPLE,
  CARRIERS_EXAMPLE,
  errorResponses,
  HEADERS,
  headerRefs,
  LIMITED,
  okResponse,
  RATES_ERRORS,
  RATES_EXAMPLE,
  SHIPMENT_EXAMPLE,
  type ErrorStatus,
} from './openapi-responses';
import {
  buildSchemas,
  ref,
  schemaRef,
  OPENAPI_SERVER_URL,
  OPENAPI_VERSION,
  type OpenApiDocument,
} from './openapi-schemas';
import { EXT_TAG_OBJECT, extensionPaths } from './openapi-ext';

export * from './openapi-schemas';
export {
  EXT_TAG,
  POINTS_QUERY_EXAMPLE,
  POINTS_RESPONSE_EXAMPLE,
  QUOTE_REQUEST_EXAMPLE,
  QUOTE_RESPONSE_EXAMPLE,
} from './openapi-ext';
export {
  BALANCE_EXAMPLE,
  CARRIERS_EXAMPLE,
  errorCodesFor,
  RATES_EXAMPLE,
  SHIPMENT_EXAMPLE,
} from './openapi-responses';
// ---------------------------------------------------------------------------------------------------
// The document

// 400 (bad_request), 408, 417 and 431 come from the HTTP layer and can answer any path.
const HTTP_LAYER_ERRORS: readonly ErrorStatus[] = [400, 408, 417, 431];
const FREE_GET_ERRORS: readonly ErrorStatus[] = [...HTTP_LAYER_ERRORS, 401, 403, 404, 405, 429, 500];
const OPENAPI_ERRORS: readonly ErrorStatus[] = [...HTTP_LAYER_ERRORS, 403, 404, 405, 500];

export function buildOpenApiDocument(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'RateDesk rating service',
      version: OPENAPI_VERSION,
      description:
        'Estimated parcel delivery prices and transit times across Russian carriers, served by RateDesk ' +
        'on the loopback interface, or by a company server over HTTPS. Money is in kopecks (RUB), weight ' +
        'in grams, dimensions in centimetres. Every operation except this document needs ' +
        '`Authorization: Bearer <API key>`; requests must name the loopback host (`127.0.0.1`, ' +
        '`localhost` or `[::1]` with the port), or on a company server one of its public host names, and ' +
        'may not come from a browser page of another site. Rate limits are per account and apply to ' +
        'every authenticated operation. One successful rates call deducts exactly one request from the ' +
        'balance; errors, 429, 503 and idempotent replays deduct nothing.',
    },
    servers: [{ url: OPENAPI_SERVER_URL, description: 'Local listener on its default port' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Rates', description: 'Price quotes' },
      { name: 'Account', description: 'The request balance of the calling account' },
      { name: 'Carriers', description: 'Carriers the service queries' },
      { name: 'Meta', description: 'This description' },
      EXT_TAG_OBJECT,
    ],
    paths: {
      '/v1/rates': {
        post: {
          operationId: 'calculateRates',
          tags: ['Rates'],
          summary: 'Calculate delivery rates',
          description:
            'Queries the carriers (all active ones, or those named in `carriers`) under one deadline and ' +
            'returns one rate per carrier service. Carriers that fail or are unknown are listed in ' +
            '`unavailable`; the call still succeeds (200) when at least one carrier answered. When all ' +
            'of them fail the answer is 503 `rates_unavailable` and nothing is deducted.',
          parameters: [ref('parameters', 'Idempotency-Key')],
          requestBody: {
            required: true,
            description: 'At most 16 KiB of JSON.',
            content: { 'application/json': { schema: schemaRef('Shipment'), example: SHIPMENT_EXAMPLE } },
          },
          responses: {
            '200': okResponse(
              'Rates. `balance_remaining` already reflects this call.',
              schemaRef('RatesResponse'),
              RATES_EXAMPLE,
              [...LIMITED, 'Idempotent-Replayed'],
            ),
            ...errorResponses(RATES_ERRORS, 'POST'),
          },
        },
      },
      '/v1/balance': {
        get: {
          operationId: 'getBalance',
          tags: ['Account'],
          summary: 'Read the remaining request balance',
          description: 'Free: deducts nothing. Also a cheap way to check that a key works.',
          responses: {
            '200': okResponse('The balance.', schemaRef('BalanceResponse'), BALANCE_EXAMPLE, LIMITED),
            ...errorResponses(FREE_GET_ERRORS, 'GET'),
          },
        },
      },
      '/v1/carriers': {
        get: {
          operationId: 'listCarriers',
          tags: ['Carriers'],
          summary: 'List active carriers',
          description: 'Free: deducts nothing. `status` is the last known health of each carrier.',
          responses: {
            '200': okResponse('Active carriers.', schemaRef('CarriersResponse'), CARRIERS_EXAMPLE, LIMITED),
            ...errorResponses(FREE_GET_ERRORS, 'GET'),
          },
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['Meta'],
          summary: 'This OpenAPI document',
          description: 'Needs no API key, so tools can discover the API; the host checks still apply.',
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of /v1.',
              headers: headerRefs(ALWAYS),
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            ...errorResponses(OPENAPI_ERRORS, 'GET'),
          },
        },
      },
      // After every /v1 path: the RateDesk extension (#21), documented beside /v1, never inside it.
      ...extensionPaths(),
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key (`rdk_…`) created in RateDesk or with `npm run admin`. Send it only in this ' +
            'header, never in the query string.',
        },
      },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe. Within 24 hours, per account: the same key with the same body returns ' +
            'the stored response byte for byte (with `Idempotent-Replayed: true`) and deducts nothing; ' +
            'the same key with a different body gives 422 `idempotency_key_reused`; the same key while ' +
            'the first request is still running gives 409 `idempotency_key_in_use`.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
          example: '3f1c9e2a-6b7d-4e58-9a0b-2c4d6e8f1a3b',
        },
      },
      headers: HEADERS,
      schemas: buildSchemas(),
    },
  };
}
