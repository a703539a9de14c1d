// Every error the /v1 listener can answer, with its HTTP status (design.md "Decisions already taken").
// One table so the listener, the OpenAPI document and the tests cannot disagree.
export const API_ERRORS = {
  invalid_api_key: { status: 401, message: 'Missing or invalid API key. Send Authorization: Bearer <key>.' },
  api_key_revoked: { status: 401, message: 'This API key has been revoked.' },
  invalid_host: { status: 403, message: 'Host header not allowed.' },
  origin_not_allowed: { status: 403, message: 'Cross-origin requests are not allowed.' },
  https_required: {
    status: 403,
    message:
      'This service takes requests over HTTPS only. Use its https:// address; replace a key sent over plain HTTP.',
  },
  not_found: { status: 404, message: 'No such endpoint.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this endpoint.' },
  idempotency_key_in_use: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed. Retry later.',
  },
  payload_too_large: { status: 413, message: 'Request body is larger than 16 KiB.' },
  unsupported_media_type: { status: 415, message: 'Content-Type must be application/json.' },
  bad_request: { status: 400, message: 'Malformed HTTP request.' },
  invalid_json: { status: 400, message: 'Request body is not a valid JSON object in UTF-8.' },
  validation_failed: { status: 400, message: 'Request body does not match the Shipment schema.' },
  invalid_idempotency_key: {
    status: 400,
    message: 'Idempotency-Key must be one header of 1 to 255 printable ASCII characters.',
  },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  expectation_failed: { status: 417, message: 'Only Expect: 100-continue is supported.' },
  headers_too_large: { status: 431, message: 'Request header fields are too large.' },
  insufficient_balance: { status: 402, message: 'The account has no requests left. Top up the balance.' },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request body.',
  },
  no_queryable_carrier: {
    status: 422,
    message: 'None of the requested carriers can be queried: see unavailable. Retrying will not help.',
  },
  shipment_not_served: {
    status: 422,
    message:
      'No carrier can rate this shipment as sent (city not found, parcel over limits or postal code needed): ' +
      'see unavailable. Retrying will not help.',
  },
  rate_limit_exceeded: { status: 429, message: 'Too many requests. Retry after the delay in Retry-After.' },
  internal_error: { status: 500, message: 'Internal error.' },
  rates_unavailable: { status: 503, message: 'No carrier could give a rate right now.' },
  service_unavailable: {
    status: 503,
    message:
      'The data file is busy: another program holds its write lock. Nothing was charged. ' +
      'Retry after the delay in Retry-After.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;
