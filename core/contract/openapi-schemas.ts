// The OpenAPI document's building blocks from the zod contract: JSON types, $refs, and the component schemas
// converted from ./v1 and, for the RateDesk extension beside it (#21), ./quote-ext and ./points (split from
// openapi.ts, which assembles the document).
import { z } from 'zod';
import * as points from './points';
import * as ext from './quote-ext';
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

// The extension's (#21, POST /ext/v1/rates and /ext/v1/points): listed apart and placed after /v1's, so the
// /v1 components stay exactly what they were (a unit test compares them with the document before #21).
const EXT_REQUEST_SCHEMAS: readonly z.ZodType[] = [
  ext.IsoDate,
  ext.Place,
  ext.QuoteRequest,
  points.PointsQuery,
];
const EXT_RESPONSE_SCHEMAS: readonly z.ZodType[] = [
  ext.IsoDate,
  ext.RateOption,
  ext.NotPriced,
  ext.PriceBreakdown,
  ext.DaysKind,
  ext.QuoteRate,
  ext.QuoteResponse,
  points.PointKind,
  points.PickupPoint,
  points.PointsResponse,
];

/** The component names of the extension (#21): everything else in components.schemas is /v1's. */
export const EXT_SCHEMA_IDS: readonly string[] = [
  ...new Set([...EXT_REQUEST_SCHEMAS, ...EXT_RESPONSE_SCHEMAS].map(schemaId)),
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
  // RateDesk extension (#21)
  IsoDate: 'A calendar date, YYYY-MM-DD.',
  Place:
    'One box of a shipment, `count` times the same (default 1): weight in grams, dimensions in centimetres. ' +
    'Unknown properties are rejected.',
  QuoteRequest:
    'Request body of POST /ext/v1/rates (a RateDesk extension): the /v1 Shipment with several places, cash ' +
    'on delivery and a shipping date. Give exactly one of `parcel` (one box, as in /v1) and `places` (at ' +
    'most 50 boxes in all, counts included). `cod_kopecks`: the amount the recipient pays on delivery ' +
    '(наложенный платёж), 0 for none. `ship_date`: the day the parcel is handed over; absent: today on ' +
    'Moscow time. Unknown properties are rejected.',
  PointsQuery:
    'Request body of POST /ext/v1/points (a RateDesk extension): the pickup points of one carrier in the ' +
    "recipient's town that take these boxes, with cash on delivery (`cod_kopecks` > 0) or card payment " +
    '(`card`) where asked. Unknown properties are rejected.',
  RateOption: 'An option of the request a price may leave out.',
  NotPriced:
    'An option asked for that the price does not include: `not_offered` (this service refuses it), ' +
    "`not_quoted` (the carrier's calculator does not price it; the carrier will add its fee).",
  PriceBreakdown:
    "The price's parts where the carrier gives them; null: not given separately (then inside the total).",
  DaysKind:
    'How the carrier counts its days: working days (over the Russian production calendar) or calendar.',
  QuoteRate:
    'A Rate with its fee breakdown (`price_kopecks` is the total), the options not priced, the value ' +
    'insured, the places priced, the expected delivery dates counted from `ship_date` (the requested or ' +
    "today's date, moved past the carrier's cut-off hour and days off) and the customer's price by the " +
    "account's resale rule for the carrier (null: no rule).",
  QuoteResponse: '`balance_remaining` is the account balance after this call (one request, as /v1/rates).',
  PointKind: 'A pickup point (`pvz`), a parcel locker (`postamat`) or a post office.',
  PickupPoint:
    "A carrier's pickup point as its directory describes it. Limits that are null are not published (not " +
    'unlimited); `max_dimensions_cm` is sorted longest side first.',
  PointsResponse:
    '`points` nearest to the town centre first; `filtered_out` counts the points of the town that cannot ' +
    'take this parcel.',
};

/**
 * What zod's checks say that its JSON Schema cannot: QuoteRequest's superRefine (exactly one of parcel and
 * places). The 50-places total stays in the description.
 */
const SCHEMA_KEYWORDS: Record<string, JsonObject> = {
  QuoteRequest: { oneOf: [{ required: ['parcel'] }, { required: ['places'] }] },
};

export const ref = (section: string, name: string): JsonObject => ({
  $ref: `#/components/${section}/${name}`,
});
export const schemaRef = (name: string): JsonObject => ref('schemas', name);

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
    out[id] = { ...(description === undefined ? {} : { description }), ...json, ...SCHEMA_KEYWORDS[id] };
  }
  return out;
}

export function buildSchemas(): Record<string, JsonObject> {
  const requests = convert([...REQUEST_SCHEMAS, ...EXT_REQUEST_SCHEMAS], 'input');
  const responses = convert([...RESPONSE_SCHEMAS, ...EXT_RESPONSE_SCHEMAS], 'output');
  for (const id of Object.keys(requests)) {
    // A schema with no default and no object in it (IsoDate) has one shape on both sides and may be shared.
    if (id in responses && JSON.stringify(requests[id]) !== JSON.stringify(responses[id])) {
      throw new Error(`openapi: ${id} is used in both requests and responses`);
    }
  }
  const all = { ...requests, ...responses };
  const extIds = new Set(EXT_SCHEMA_IDS);
  // /v1's components first, in their order since 1.0.0; then the extension's.
  const ordered = [
    ...Object.keys(all).filter((id) => !extIds.has(id)),
    ...Object.keys(all).filter((id) => extIds.has(id)),
  ];
  return Object.fromEntries(ordered.map((id) => [id, all[id]!]));
}
