// The OpenAPI document's headers, error and success responses (from the error table, ./errors) and the
// examples the document shows (each parsed by a unit test with the zod schema it illustrates).
import { API_ERRORS, type ApiErrorCode } from './errors';
import { schemaRef, ref, type JsonObject, type JsonValue } from './openapi-schemas';
import type * as v1 from './v1';
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

export const HEADERS: Record<HeaderName, JsonObject> = {
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

export const ALWAYS: readonly HeaderName[] = ['X-Request-Id', 'Cache-Control', 'X-RateDesk-Sandbox'];
export const LIMITED: readonly HeaderName[] = ['RateLimit', 'RateLimit-Policy'];

export function headerRefs(names: readonly HeaderName[]): JsonObject {
  const out: JsonObject = {};
  for (const name of names) out[name] = ref('headers', name);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Responses

export type ErrorStatus = (typeof API_ERRORS)[ApiErrorCode]['status'];

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
  503: 'No carrier could give a rate, or the data file is busy',
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
    'listed in `unavailable`; no Retry-After, because retrying cannot help. `shipment_not_served`: no rate, and ' +
    'every carrier failed because of the shipment itself (city not found, parcel over its limits, postal code ' +
    'needed), so the request must change; no Retry-After. Nothing is deducted.',
  503:
    ' `rates_unavailable`: no carrier gave a rate; `unavailable` lists each carrier and why it failed. ' +
    "`service_unavailable`: another program held the data file's write lock for over a second, so the charge " +
    'could not be written. Nothing is deducted either way; retry after Retry-After.',
};

export const REQUEST_ID_EXAMPLE = 'req_7fK2mQ9xLp3Rt8Vb1Nc4';

/** Every status POST /v1/rates can answer (and POST /ext/v1/rates, its extension twin). */
export const RATES_ERRORS: readonly ErrorStatus[] = [
  400, 401, 402, 403, 404, 405, 408, 409, 413, 415, 417, 422, 429, 431, 500, 503,
];

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

export function errorResponses(statuses: readonly ErrorStatus[], allow: string): JsonObject {
  const out: JsonObject = {};
  for (const status of [...statuses].sort((a, b) => a - b))
    out[String(status)] = errorResponse(status, allow);
  return out;
}

export function okResponse(
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
