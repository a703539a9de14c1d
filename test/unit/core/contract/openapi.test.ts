// docs/openapi.json is generated from the zod contract; these tests keep the committed file, the error
// table (core/contract/errors.ts) and the declared headers in step with the code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_ERRORS, type ApiErrorCode } from '../../../../core/contract/errors';
import {
  buildOpenApiDocument,
  errorCodesFor,
  EXT_SCHEMA_IDS,
  EXT_TAG,
  type JsonObject,
  type JsonValue,
} from '../../../../core/contract/openapi';
import * as points from '../../../../core/contract/points';
import * as ext from '../../../../core/contract/quote-ext';
import * as v1 from '../../../../core/contract/v1';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const committedText = readFileSync(join(root, 'docs', 'openapi.json'), 'utf8');
const doc = buildOpenApiDocument();

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: JsonValue | undefined, where: string): JsonObject {
  if (!isObject(value)) throw new Error(`${where} is not an object`);
  return value;
}

/** Follows a local `$ref` (one level is all the document uses). */
function deref(value: JsonValue | undefined, where: string): JsonObject {
  const o = obj(value, where);
  const target = o.$ref;
  if (typeof target !== 'string') return o;
  let node: JsonValue = doc;
  for (const part of target.replace(/^#\//, '').split('/')) {
    node = obj(node, target)[part.replaceAll('~1', '/').replaceAll('~0', '~')] ?? null;
  }
  return obj(node, target);
}

interface Operation {
  name: string;
  op: JsonObject;
  responses: [status: string, response: JsonObject][];
}

const operations: Operation[] = Object.entries(obj(doc.paths, 'paths')).flatMap(([path, item]) =>
  Object.entries(obj(item, path)).map(([method, op]) => {
    const name = `${method.toUpperCase()} ${path}`;
    const o = obj(op, name);
    const responses = Object.entries(obj(o.responses, `${name} responses`)).map(
      ([status, r]): [string, JsonObject] => [status, deref(r, `${name} ${status}`)],
    );
    return { name, op: o, responses };
  }),
);

const allResponses = operations.flatMap(({ name, responses }) =>
  responses.map(([status, response]) => ({ where: `${name} ${status}`, status: Number(status), response })),
);

function headersOf(response: JsonObject): Record<string, JsonObject> {
  const headers = response.headers === undefined ? {} : obj(response.headers, 'headers');
  return Object.fromEntries(Object.entries(headers).map(([n, h]) => [n, deref(h, n)]));
}

function mediaExamples(response: JsonObject, where: string): [string, JsonValue][] {
  const media = obj(obj(response.content, `${where} content`)['application/json'], `${where} json`);
  if (media.example !== undefined) return [['example', media.example]];
  return Object.entries(obj(media.examples, `${where} examples`)).map(([n, e]) => [
    n,
    obj(e, n).value ?? null,
  ]);
}

describe('docs/openapi.json', () => {
  it('is exactly what buildOpenApiDocument() generates (run `npm run openapi` after a contract change)', () => {
    expect(JSON.parse(committedText)).toEqual(doc);
    expect(committedText).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('is OpenAPI 3.1.0, version 1.0.0, on the loopback server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:8787' })]);
    expect(operations.map((o) => o.name).sort()).toEqual([
      'GET /v1/balance',
      'GET /v1/carriers',
      'GET /v1/openapi.json',
      'POST /ext/v1/points',
      'POST /ext/v1/rates',
      'POST /v1/rates',
    ]);
  });

  it('keeps the /v1 part exactly as it was before the extension (#21): paths, components, order', () => {
    // test/fixtures/openapi/v1-before-ext.json is docs/openapi.json as committed before #21.
    const before = readFileSync(join(root, 'test', 'fixtures', 'openapi', 'v1-before-ext.json'), 'utf8');
    const v1Part = structuredClone(doc);
    const paths = obj(v1Part.paths, 'paths');
    for (const path of Object.keys(paths)) if (path.startsWith('/ext/')) delete paths[path];
    const schemas = obj(v1Part.components.schemas, 'schemas');
    for (const id of EXT_SCHEMA_IDS) delete schemas[id];
    v1Part.tags = (Array.isArray(v1Part.tags) ? v1Part.tags : []).filter(
      (t) => obj(t, 'tag').name !== EXT_TAG,
    );
    // Compared as text after parsing: every value and every key's order, whatever the fixture's formatting.
    expect(JSON.stringify(v1Part, null, 2)).toBe(JSON.stringify(JSON.parse(before), null, 2));
  });

  it('documents the extension beside /v1, never inside it: its own paths under /ext/v1/ and its own tag', () => {
    for (const { name, op } of operations) {
      const isExt = name.includes(' /ext/v1/');
      expect(op.tags, name).toEqual(isExt ? [EXT_TAG] : expect.not.arrayContaining([EXT_TAG]));
    }
    expect(doc.tags).toContainEqual(expect.objectContaining({ name: EXT_TAG }));
    // The examples show what the extension adds.
    const quote = operations.find((o) => o.name === 'POST /ext/v1/rates');
    const asked = ext.QuoteRequest.parse(
      obj(obj(obj(quote?.op.requestBody, 'body').content, 'content')['application/json'], 'json').example,
    );
    expect(asked.cod_kopecks).toBeGreaterThan(0);
    expect(ext.placesOf(asked).length).toBeGreaterThan(1);
    expect(asked.ship_date).toBeDefined();
    const [[, answer] = ['', null]] = mediaExamples(
      quote?.responses.find(([s]) => s === '200')?.[1] ?? {},
      'ok',
    );
    const rates = ext.QuoteResponse.parse(answer).rates;
    expect(
      rates.some((r) => r.breakdown.cod_fee_kopecks !== null && r.breakdown.insurance_kopecks !== null),
    ).toBe(true);
    expect(rates.some((r) => r.options_not_priced.length > 0)).toBe(true);
    expect(rates.every((r) => r.delivery_date_min !== null && r.delivery_date_max !== null)).toBe(true);
    expect(rates.some((r) => r.customer_price_kopecks !== null)).toBe(true);
    // No /v1 component refers to an extension one.
    const schemas = obj(doc.components.schemas, 'schemas');
    for (const [id, schema] of Object.entries(schemas)) {
      if (EXT_SCHEMA_IDS.includes(id)) continue;
      for (const extId of EXT_SCHEMA_IDS) {
        expect(JSON.stringify(schema), id).not.toContain(`#/components/schemas/${extId}"`);
      }
    }
  });

  it('applies HTTP bearer auth everywhere except the document itself', () => {
    expect(obj(doc.components.securitySchemes, 'securitySchemes').bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const { name, op } of operations) {
      expect(op.security, name).toEqual(name === 'GET /v1/openapi.json' ? [] : undefined);
    }
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (value: JsonValue): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (isObject(value)) {
        if (typeof value.$ref === 'string') refs.push(value.$ref);
        Object.values(value).forEach(walk);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) expect(() => deref({ $ref: ref }, ref), ref).not.toThrow();
  });
});

describe('errors', () => {
  it.each(Object.entries(API_ERRORS))(
    '%s appears with its status on at least one operation',
    (code, entry) => {
      const hits = allResponses.filter(
        ({ status, response }) =>
          status === entry.status &&
          typeof response.description === 'string' &&
          response.description.includes(`\`${code}\``) &&
          mediaExamples(response, code).some(([name]) => name === code),
      );
      expect(hits.length, `${entry.status} ${code}`).toBeGreaterThan(0);
    },
  );

  it('every error response uses ErrorResponse and lists exactly the codes of its status', () => {
    for (const { where, status, response } of allResponses.filter((r) => r.status >= 400)) {
      const media = obj(obj(response.content, where)['application/json'], where);
      expect(media.schema, where).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
      const codes = errorCodesFor(status);
      expect(codes.length, where).toBeGreaterThan(0);
      for (const code of codes) expect(response.description, where).toContain(`\`${code}\``);
      expect(
        mediaExamples(response, where).map(([name]) => name),
        where,
      ).toEqual(codes);
    }
  });

  it('every error example is a valid ErrorResponse whose code belongs to the status', () => {
    for (const { where, status, response } of allResponses.filter((r) => r.status >= 400)) {
      for (const [name, example] of mediaExamples(response, where)) {
        const parsed = v1.ErrorResponse.parse(example);
        expect(parsed.error.code, `${where} ${name}`).toBe(name);
        expect(API_ERRORS[parsed.error.code as ApiErrorCode].status, `${where} ${name}`).toBe(status);
        expect(parsed.error.message).toBe(API_ERRORS[parsed.error.code as ApiErrorCode].message);
      }
    }
  });
});

describe('headers', () => {
  it('every response declares X-Request-Id and Cache-Control: no-store', () => {
    for (const { where, response } of allResponses) {
      const headers = headersOf(response);
      expect(headers['X-Request-Id'], where).toMatchObject({ required: true, schema: { type: 'string' } });
      expect(headers['Cache-Control'], where).toMatchObject({ schema: { const: 'no-store' } });
      expect(headers['X-RateDesk-Sandbox'], where).toMatchObject({ schema: { const: 'true' } });
    }
  });

  it('401 declares WWW-Authenticate; 429 and 503 declare Retry-After in whole seconds ≥ 1; 405 declares Allow', () => {
    const seen = new Set<number>();
    for (const { where, status, response } of allResponses) {
      const headers = headersOf(response);
      if (status === 401) expect(headers['WWW-Authenticate'], where).toMatchObject({ required: true });
      if (status === 429 || status === 503) {
        expect(headers['Retry-After'], where).toMatchObject({
          required: true,
          schema: { type: 'integer', minimum: 1 },
        });
      }
      if (status === 405) expect(headers.Allow, where).toMatchObject({ required: true });
      seen.add(status);
    }
    for (const status of [401, 405, 429, 503]) expect(seen.has(status), String(status)).toBe(true);
  });

  it('authenticated operations declare the RateLimit fields on 200 and 429; rates 200 declares Idempotent-Replayed', () => {
    for (const { name, responses } of operations.filter((o) => o.name !== 'GET /v1/openapi.json')) {
      for (const [status, response] of responses.filter(([s]) => s === '200' || s === '429')) {
        expect(Object.keys(headersOf(response)), `${name} ${status}`).toEqual(
          expect.arrayContaining(['RateLimit', 'RateLimit-Policy']),
        );
      }
    }
    const rates = operations.find((o) => o.name === 'POST /v1/rates');
    const ok = rates?.responses.find(([s]) => s === '200')?.[1];
    expect(headersOf(ok ?? {})['Idempotent-Replayed']).toMatchObject({ schema: { const: 'true' } });
  });

  it.each(['POST /v1/rates', 'POST /ext/v1/rates'])('%s takes an optional Idempotency-Key header', (name) => {
    const rates = operations.find((o) => o.name === name);
    const params = (Array.isArray(rates?.op.parameters) ? rates.op.parameters : []).map((p) =>
      deref(p, 'param'),
    );
    expect(params).toEqual([
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    ]);
    const ok = rates?.responses.find(([s]) => s === '200')?.[1];
    expect(headersOf(ok ?? {})['Idempotent-Replayed']).toMatchObject({ schema: { const: 'true' } });
  });

  it('POST /ext/v1/points is free: no Idempotency-Key, no 402, 409 or 422', () => {
    const op = operations.find((o) => o.name === 'POST /ext/v1/points');
    expect(op?.op.parameters).toBeUndefined();
    expect(op?.responses.map(([s]) => s)).not.toEqual(expect.arrayContaining(['402']));
    for (const s of ['402', '409', '422']) expect(op?.responses.map(([x]) => x)).not.toContain(s);
  });
});

describe('schemas', () => {
  const schemas = obj(doc.components.schemas, 'schemas');
  const schema = (id: string): JsonObject => obj(schemas[id], id);
  const props = (id: string): JsonObject => obj(schema(id).properties, `${id}.properties`);

  it('names every component after the .meta({ id }) of its zod schema', () => {
    expect(Object.keys(schemas).sort()).toEqual(
      [
        'BalanceResponse',
        'CarrierInfo',
        'CarrierStatus',
        'CarriersResponse',
        'DeliveryType',
        'ErrorDetail',
        'ErrorResponse',
        'Location',
        'Parcel',
        'Rate',
        'RatesResponse',
        'Shipment',
        'Unavailable',
        // The extension (#21)
        'DaysKind',
        'IsoDate',
        'NotPriced',
        'PickupPoint',
        'Place',
        'PointKind',
        'PointsQuery',
        'PointsResponse',
        'PriceBreakdown',
        'QuoteRate',
        'QuoteRequest',
        'QuoteResponse',
        'RateOption',
      ].sort(),
    );
    expect(props('Shipment').from).toEqual({ $ref: '#/components/schemas/Location' });
    expect(props('Shipment').parcel).toEqual({ $ref: '#/components/schemas/Parcel' });
  });

  it('request objects are closed and in the input shape (defaults make fields optional)', () => {
    for (const id of ['Location', 'Parcel', 'Shipment'])
      expect(schema(id).additionalProperties, id).toBe(false);
    expect(schema('Location').required).toEqual(['city']);
    expect(props('Location').country).toMatchObject({ const: 'RU', default: 'RU' });
    expect(props('Location').city).toMatchObject({ minLength: 1, maxLength: 120 });
    expect(JSON.stringify(props('Location').postal_code)).toContain('"pattern":"^\\\\d{6}$"');
    expect(schema('Shipment').required).toEqual(['from', 'to', 'parcel']);
    expect(props('Shipment').declared_value_kopecks).toMatchObject({
      type: 'integer',
      default: 0,
      minimum: 0,
      maximum: 100_000_000_000,
    });
    expect(props('Parcel').weight_grams).toMatchObject({
      type: 'integer',
      exclusiveMinimum: 0,
      maximum: 1_000_000,
    });
    for (const dim of ['length_cm', 'width_cm', 'height_cm']) {
      expect(props('Parcel')[dim], dim).toMatchObject({ type: 'number', exclusiveMinimum: 0, maximum: 1000 });
    }
  });

  it('response objects are in the output shape (defaulted fields required) and open to additions', () => {
    expect(schema('Rate').required).toEqual(expect.arrayContaining(['currency', 'price_type']));
    for (const id of [
      'Rate',
      'RatesResponse',
      'Unavailable',
      'BalanceResponse',
      'CarriersResponse',
      'ErrorResponse',
    ]) {
      expect(schema(id).additionalProperties, id).toBeUndefined();
    }
  });

  it('the examples of requests and successful responses parse with their zod schemas', () => {
    const requests: Record<string, z.ZodType> = {
      'POST /v1/rates': v1.Shipment,
      'POST /ext/v1/rates': ext.QuoteRequest,
      'POST /ext/v1/points': points.PointsQuery,
    };
    for (const [name, zodSchema] of Object.entries(requests)) {
      const op = operations.find((o) => o.name === name);
      const body = obj(
        obj(obj(op?.op.requestBody, 'requestBody').content, 'content')['application/json'],
        'json',
      );
      const result = zodSchema.safeParse(body.example);
      expect(result.success, `${name}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
    }
    const zodFor: Record<string, z.ZodType> = {
      'POST /v1/rates': v1.RatesResponse,
      'GET /v1/balance': v1.BalanceResponse,
      'GET /v1/carriers': v1.CarriersResponse,
      'POST /ext/v1/rates': ext.QuoteResponse,
      'POST /ext/v1/points': points.PointsResponse,
    };
    for (const [name, zodSchema] of Object.entries(zodFor)) {
      const ok = operations.find((o) => o.name === name)?.responses.find(([s]) => s === '200')?.[1];
      for (const [, example] of mediaExamples(ok ?? {}, name)) {
        const result = zodSchema.safeParse(example);
        expect(result.success, `${name}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
      }
    }
  });
});

describe('npm run lint:openapi (Redocly, offline)', () => {
  const lint = (...files: string[]) =>
    spawnSync(process.execPath, [join(root, 'scripts', 'openapi-lint.mjs'), ...files], {
      cwd: root,
      encoding: 'utf8',
    });

  it('passes on the committed document with zero problems', () => {
    const run = lint();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('no problems');
  });

  it('fails on a warning, not only on an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const broken = structuredClone(doc);
      delete obj(obj(broken.paths['/v1/balance'], 'balance').get, 'get').operationId;
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(broken, null, 2));
      const run = lint(file);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/warning\s+operation-operationId/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
