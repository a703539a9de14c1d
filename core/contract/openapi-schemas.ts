// The OpenAPI document's building blocks from the zod contract: JSON types, $refs, and the component schemas
// converted from ./v1 (split from openapi.ts, which assembles the document).
import { z } from 'zod';
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
    out[id] = description === undefined ? json : { description, ...json };
  }
  return out;
}

export function buildSchemas(): Record<string, JsonObject> {
  const requests = convert(REQUEST_SCHEMAS, 'input');
  const responses = convert(RESPONSE_SCHEMAS, 'output');
  for (const id of Object.keys(requests)) {
    if (id in responses) throw new Error(`openapi: ${id} is used in both requests and responses`);
  }
  return { ...requests, ...responses };
}
