// The OpenAPI 3.1 description of /v1, derived from the zod contract (./v1) and the error table (./errors).
// docs/openapi.json is this function's output; a unit test and `npm run openapi -- --check` keep them equal.
import { z } from 'zod';
import { API_ERRORS, type ApiErrorCode } from './errors';
import * as v1 from './v1';

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}
export type OpenApiDocument = JsonObject & {
  openapi: '3.1.0';
  info: JsonObject;
  paths: JsonObject;
  components: JsonObject;
};

export const OPENAPI_SERVER_URL = 'http://127.0.0.1:8787';
export const OPENAPI_VERSION = '1.0.0';

// Request bodies are described as what a client may send (defaults make fields optional), responses as
// what the server sends (defaulted fields are always present). No schema may appear on both sides, or
// one component name would have to stand for two different shapes.
const REQUEST_SCHEMAS: readonly z.ZodType[] = [v1.Location, v1.Parcel, v1.Shipment];
const RESPONSE_SCHEMAS: readonly z.ZodType[] = [
  v1.DeliveryType,
  v1.Rate,
  v1.Unavailable,
  v1.RatesResponse,
  v1.BalanceResponse,
  v1.CarrierStatus,
  v1.CarrierInfo,
  v1.CarriersResponse,
  v1.ErrorDetail,
  v1.ErrorResponse,
];

const SCHEMA_DESCRIPTIONS: Record<string, string> = {
  Location: 'A place in the Russian Federation. Unknown properties are rejected.',
  Parcel: 'One parcel: weight in grams, dimensions in centimetres. Unknown properties are rejected.',
  Shipment:
    'Request body of POST /v1/rates. Money is in kopecks (RUB). Unknown properties are rejected. ' +
    '`carriers` restricts the carriers queried; unknown codes come back in `unavailable`.',
  Rate: 'One price of one carrier service. Prices and transit times are estimates.',
  Unavailable: 'A carrier that could not give a rate, with the reason.',
  RatesResponse: '`balance_remaining` is the account balance after this call.',
  BalanceResponse: 'Remaining number of API requests of the account (shared by all its keys).',
  CarrierInfo: 'A carrier the service can query, with its last known health.',
  CarriersResponse: 'Active carriers.',
  ErrorDetail: '`details` is filled for `validation_failed`: one entry per problem, with its JSON path.',
  ErrorResponse: 'Body of every error response. `unavailable` is filled for `rates_unavailable`.',
};

const ref = (section: string, name: string): JsonObject => ({ $ref: `#/components/${section}/${name}` });
const schemaRef = (name: string): JsonObject => ref('schemas', name);

/** Copies a value into the JSON type, failing loudly on anything JSON cannot carry. */
function toJson(value: unknown, path: string): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`openapi: non-finite number at ${path}`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => toJson(item, `${path}/${i}`));
  if (typeof value === 'object') return toJsonObject(value, path);
  throw new Error(`openapi: ${typeof value} is not JSON at ${path}`);
}

function toJsonObject(value: object, path: string): JsonObject {
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) out[key] = toJson(item, `${path}/${key}`);
  }
  return out;
}

function schemaId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id !== 'string') throw new Error('openapi: every contract schema needs .meta({ id })');
  return id;
}

/**
 * Converts a set of contract schemas with z.toJSONSchema in registry mode, so every schema with an id
 * becomes a component and every use of it a $ref. A private registry (not the global one) keeps schemas
 * other modules tag with ids out of the public document.
 */
function convert(schemas: readonly z.ZodType[], io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const schema of schemas) registry.add(schema, { id: schemaId(schema) });
  const { schemas: converted } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      // zod closes every object in output mode. Responses stay open on purpose: a field added in a later
      // 1.x release must not break a client that validates responses. Request objects are strict in
      // zod (catchall never) and keep `additionalProperties: false` in both modes.
      if (
        io === 'output' &&
        zodSchema._zod.def.type === 'object' &&
        zodSchema._zod.def.catchall === undefined
      ) {
        delete jsonSchema.additionalProperties;
      }
    },
  });
  const out: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(converted)) {
    // `$schema` would switch the dialect away from OpenAPI's default, and a fragment-only `$id` is not
    // a valid 2020-12 identifier; component names already identify the schemas.
    const { $schema: _dialect, $id: _id, $defs, ...rest } = schema;
    if ($defs !== undefined) throw new Error(`openapi: ${id} has nested $defs; give the shared part an id`);
    const json = toJsonObject(rest, `#/components/schemas/${id}`);
    const description = SCHEMA_DESCRIPTIONS[id];
    out[id] = description === undefined ? json : { description, ...json };
  }
  return out;
}

function buildSchemas(): Record<string, JsonObject> {
  const requests = convert(REQUEST_SCHEMAS, 'input');
  const responses = convert(RESPONSE_SCHEMAS, 'output');
  for (const id of Object.keys(requests)) {
    if (id in responses) throw new Error(`openapi: ${id} is used in both requests and responses`);
  }
  return { ...requests, ...responses };
}

// ---------------------------------------------------------------------------------------------------
// Headers

type HeaderName =
  | 'X-Request-Id'
  | 'Cache-Control'
  | 'X-RateDesk-Sandbox'
  | 'RateLimit'
  | 'RateLimit-Policy'
  | 'Retry-After'
  | 'WWW-Authenticate'
  | 'Idempotent-Replayed';

const HEADERS: Record<HeaderName, JsonObject> = {
  'X-Request-Id': {
    description:
      'Identifier of this request, sent on every response. Equals `request_id` (or `error.request_id`) ' +
      'in the body; quote it when reporting a problem.',
    required: true,
    schema: { type: 'string' },
    example: 'req_7fK2mQ9xLp3Rt8Vb1Nc4',
  },
  'Cache-Control': {
    description: 'Every response is private to one account and one moment, so none may be cached.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  'X-RateDesk-Sandbox': {
    description:
      'Present, with the value `true`, when the service runs in sandbox mode: carriers are local ' +
      'simulators and prices are not real.',
    schema: { type: 'string', const: 'true' },
  },
  RateLimit: {
    description:
      'Current state of the account rate limit (IETF draft-ietf-httpapi-ratelimit-headers-10, a ' +
      'structured field): policy name; `r` = whole requests left now, `t` = seconds until the bucket ' +
      'is full again. Sent once the key is known; absent on answers given before authentication.',
    schema: { type: 'string' },
    example: '"account";r=4;t=1',
  },
  'RateLimit-Policy': {
    description:
      'The account rate limit policy (IETF draft-ietf-httpapi-ratelimit-headers-10, a structured ' +
      'field): policy name; `q` = bucket capacity (burst), `w` = seconds to refill an empty bucket. ' +
      'Limits are per account, shared by all its keys.',
    schema: { type: 'string' },
    example: '"account";q=5;w=3',
  },
  'Retry-After': {
    description: 'Whole seconds to wait before retrying (never an HTTP date).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
    example: 1,
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use (RFC 9110 §11.6.1).',
    required: true,
    schema: { type: 'string' },
    example: 'Bearer realm="ratedesk", error="invalid_token"',
  },
  'Idempotent-Replayed': {
    description:
      'Present, with the value `true`, when this response is the stored answer to an earlier request ' +
      'with the same Idempotency-Key and body. A replay deducts nothing from the balance.',
    schema: { type: 'string', const: 'true' },
  },
};

const ALWAYS: readonly HeaderName[] = ['X-Request-Id', 'Cache-Control', 'X-RateDesk-Sandbox'];
const LIMITED: readonly HeaderName[] = ['RateLimit', 'RateLimit-Policy'];

function headerRefs(names: readonly HeaderName[]): JsonObject {
  const out: JsonObject = {};
  for (const name of names) out[name] = ref('headers', name);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Responses

type ErrorStatus = (typeof API_ERRORS)[ApiErrorCode]['status'];

const STATUS_TITLES: Record<ErrorStatus, string> = {
  400: 'Bad request',
  401: 'Missing, wrong or revoked API key',
  402: 'No requests left on the balance',
  403: 'Request from a foreign host or origin',
  404: 'No such endpoint',
  405: 'Method not allowed on this path',
  408: 'The request did not arrive in time (the connection closes)',
  409: 'Idempotent request still in flight',
  413: 'Request body too large',
  415: 'Unsupported media type',
  417: 'Unsupported Expect header',
  422: 'Idempotency-Key reused with a different body, or no requested carrier can be queried',
  429: 'Rate limit exceeded',
  431: 'Request header fields too large (the connection closes)',
  500: 'Internal error',
  503: 'No carrier could give a rate',
};

// Statuses answered before the rate limiter knows the account (host and origin checks, routing,
// authentication) carry no RateLimit fields.
const UNLIMITED_STATUSES: ReadonlySet<ErrorStatus> = new Set<ErrorStatus>([
  401, 403, 404, 405, 408, 417, 431,
]);
// 409 asks the client to come back once the first request has finished.
const RETRY_AFTER_STATUSES: ReadonlySet<ErrorStatus> = new Set<ErrorStatus>([409, 429, 503]);
const STATUS_NOTES: Partial<Record<ErrorStatus, string>> = {
  429:
    ' Also answered, without RateLimit fields, while too many requests with wrong keys arrive ' +
    '(a brake against guessing keys).',
  400:
    ' `bad_request` is a request the HTTP parser refused (malformed request line, bad chunk size, ' +
    'Content-Length with Transfer-Encoding, obs-fold …); it carries no RateLimit fields and the connection ' +
    'closes after it. On the GET operations only `bad_request` occurs.',
  422:
    ' `no_queryable_carrier`: `carriers` is empty or names only unknown or switched-off carriers, each ' +
    'listed in `unavailable`; no Retry-After, because retrying cannot help. Nothing is deducted.',
  503: ' `unavailable` lists each carrier and why it failed. Nothing is deducted.',
};

const REQUEST_ID_EXAMPLE = 'req_7fK2mQ9xLp3Rt8Vb1Nc4';

/** The codes of API_ERRORS answered with `status`, in table order. */
export function errorCodesFor(status: number): ApiErrorCode[] {
  return (Object.keys(API_ERRORS) as ApiErrorCode[]).filter((code) => API_ERRORS[code].status === status);
}

function errorExample(code: ApiErrorCode): JsonObject {
  const error: JsonObject = { code, message: API_ERRORS[code].message, request_id: REQUEST_ID_EXAMPLE };
  if (code === 'validation_failed') {
    error.details = [
      { path: 'parcel.weight_grams', message: 'Too big: expected number to be <=1000000' },
      { path: 'from.zip', message: 'unknown property' },
    ];
  }
  const body: JsonObject = { error };
  if (code === 'rates_unavailable') {
    body.unavailable = [
      { carrier: 'cdek', reason: 'Carrier did not answer in time.' },
      { carrier: 'russian-post', reason: 'Carrier returned an error.' },
    ];
  }
  return body;
}

/** `allow` is the method list of the path, shown in the Allow header of its 405. */
function errorResponse(status: ErrorStatus, allow: string): JsonObject {
  const codes = errorCodesFor(status);
  if (codes.length === 0) throw new Error(`openapi: no API_ERRORS entry has status ${status}`);
  const names: HeaderName[] = [...ALWAYS];
  if (!UNLIMITED_STATUSES.has(status)) names.push(...LIMITED);
  if (status === 401) names.push('WWW-Authenticate');
  if (RETRY_AFTER_STATUSES.has(status)) names.push('Retry-After');
  const headers = headerRefs(names);
  if (status === 405) {
    headers.Allow = {
      description: `The methods this path accepts: \`${allow}\`.`,
      required: true,
      schema: { type: 'string' },
      example: allow,
    };
  }
  const examples: JsonObject = {};
  for (const code of codes) examples[code] = { summary: API_ERRORS[code].message, value: errorExample(code) };
  return {
    description:
      `${STATUS_TITLES[status]}. \`error.code\`: ${codes.map((c) => `\`${c}\``).join(', ')}.` +
      (STATUS_NOTES[status] ?? ''),
    headers,
    content: { 'application/json': { schema: schemaRef('ErrorResponse'), examples } },
  };
}

function errorResponses(statuses: readonly ErrorStatus[], allow: string): JsonObject {
  const out: JsonObject = {};
  for (const status of [...statuses].sort((a, b) => a - b))
    out[String(status)] = errorResponse(status, allow);
  return out;
}

function okResponse(
  description: string,
  schema: JsonObject,
  example: JsonValue,
  extraHeaders: readonly HeaderName[],
): JsonObject {
  return {
    description,
    headers: headerRefs([...ALWAYS, ...extraHeaders]),
    content: { 'application/json': { schema, example } },
  };
}

// ---------------------------------------------------------------------------------------------------
// Examples (the unit test parses each one with the zod schema it illustrates)

export const SHIPMENT_EXAMPLE = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { country: 'RU', city: 'Санкт-Петербург', postal_code: '190000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10.5 },
  declared_value_kopecks: 500000,
  carriers: ['cdek', 'russian-post'],
} satisfies v1.ShipmentInput;

export const RATES_EXAMPLE = {
  request_id: REQUEST_ID_EXAMPLE,
  rates: [
    {
      carrier: 'cdek',
      carrier_name: 'СДЭК',
      service_code: '136',
      service_name: 'Посылка склад-склад',
      delivery_type: 'pickup_point',
      price_kopecks: 38500,
      currency: 'RUB',
      days_min: 2,
      days_max: 3,
      price_type: 'public',
    },
  ],
  unavailable: [{ carrier: 'russian-post', reason: 'Carrier did not answer in time.' }],
  balance_remaining: 941,
} satisfies v1.RatesResponse;

export const BALANCE_EXAMPLE = { balance: 941 } satisfies v1.BalanceResponse;

export const CARRIERS_EXAMPLE = {
  carriers: [
    { code: 'cdek', name: 'СДЭК', status: 'available' },
    { code: 'russian-post', name: 'Почта России', status: 'unknown' },
  ],
} satisfies v1.CarriersResponse;

// ---------------------------------------------------------------------------------------------------
// The document

// 400 (bad_request), 408, 417 and 431 come from the HTTP layer and can answer any path.
const HTTP_LAYER_ERRORS: readonly ErrorStatus[] = [400, 408, 417, 431];
const RATES_ERRORS: readonly ErrorStatus[] = [
  400, 401, 402, 403, 404, 405, 408, 409, 413, 415, 417, 422, 429, 431, 500, 503,
];
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
        'on the loopback interface. Money is in kopecks (RUB), weight in grams, dimensions in ' +
        'centimetres. Every operation except this document needs `Authorization: Bearer <API key>`; ' +
        'requests must name the loopback host (`127.0.0.1`, `localhost` or `[::1]` with the port) and ' +
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
