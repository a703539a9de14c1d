// Suite 1 of #8, malformed input: seeded generated requests (fast-check) against the real listener of a real
// `serve` process. Truncated and deeply nested JSON, invalid UTF-8, huge strings, __proto__, duplicate keys,
// numbers out of range, wrong types at every field, wrong and duplicate headers, raw HTTP malformations, odd
// methods and paths. Pass: no crash, no status ≥ 500 but 503 rates_unavailable, every readable answer the
// documented envelope, no balance change on any non-200, bounded memory. A failure prints its seed and the
// shrunk case; RATEDESK_SEED=<seed> replays it.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_ERRORS, type ApiErrorCode } from '../../core/contract/errors';
import { firstAnswer } from '../helpers/raw-http';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { scale, suiteSeed } from '../helpers/soak';
import { SHIPMENT } from '../helpers/service';

const RUNS = scale(10_000, 100_000);
const SEED = suiteSeed();

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServeProcess({}, { gcProbe: true });
}, 60_000);
afterAll(async () => {
  await serve?.close();
});

/** One generated request: the bytes on the wire and what the checks need to know about them. */
interface WireCase {
  kind: string;
  bytes: Buffer;
  head: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Generators

const VALID_BODY = JSON.stringify({ ...SHIPMENT, declared_value_kopecks: 150000 });
const FIELD_PATHS = [
  [],
  ['from'],
  ['from', 'city'],
  ['from', 'country'],
  ['from', 'postal_code'],
  ['to'],
  ['to', 'city'],
  ['to', 'country'],
  ['to', 'postal_code'],
  ['parcel'],
  ['parcel', 'weight_grams'],
  ['parcel', 'length_cm'],
  ['parcel', 'width_cm'],
  ['parcel', 'height_cm'],
  ['declared_value_kopecks'],
  ['carriers'],
  ['carriers', '0'],
] as const;
const NUMERIC_FIELDS = ['weight_grams', 'length_cm', 'width_cm', 'height_cm', 'declared_value_kopecks'];
const ODD_NUMBERS = [
  '1e309',
  '-1e309',
  '1e-400',
  '-0',
  '0',
  '-1',
  '1.5',
  '9007199254740993',
  '1000001',
  '1e6',
  '100000000001',
  'NaN',
  'Infinity',
  '0x10',
  '01',
  '1.',
  '.5',
  '+1',
  '1e3',
  '"5"',
];
const INVALID_UTF8 = [
  [0xff],
  [0xc3],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

function withPath(root: unknown, path: readonly string[], value: unknown | undefined): unknown {
  if (path.length === 0) return value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(root)
    ? [...(root as unknown[])]
    : { ...(root as Record<string, unknown>) };
  const [head, ...rest] = path as [string, ...string[]];
  const child = (copy as Record<string, unknown>)[head] ?? (rest.length ? {} : undefined);
  const next = rest.length ? withPath(child, rest, value) : value;
  if (next === undefined) delete (copy as Record<string, unknown>)[head];
  else (copy as Record<string, unknown>)[head] = next;
  return copy;
}

/** Inserts `"key":value,` right after the `{` that opens the object at `anchor` (or the root). */
function insertMember(json: string, anchor: string | null, member: string): string {
  const at = anchor === null ? 0 : json.indexOf(`"${anchor}":{`) + anchor.length + 3;
  const brace = json.indexOf('{', at);
  return `${json.slice(0, brace + 1)}${member},${json.slice(brace + 1)}`;
}

const objectAnchor = fc.constantFrom<string | null>(null, 'from', 'to', 'parcel');

const bodyArb: fc.Arbitrary<{ kind: string; body: Buffer }> = fc.oneof(
  fc
    .nat({ max: VALID_BODY.length - 1 })
    .map((n) => ({ kind: 'truncated', body: Buffer.from(VALID_BODY.slice(0, n)) })),
  fc
    .record({ depth: fc.integer({ min: 1, max: 20_000 }), open: fc.constantFrom('[', '{"a":') })
    .map(({ depth, open }) => ({
      kind: 'nested',
      body: Buffer.from(open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth)),
    })),
  fc
    .record({ at: fc.nat({ max: VALID_BODY.length }), bad: fc.constantFrom(...INVALID_UTF8) })
    .map(({ at, bad }) => {
      const good = Buffer.from(VALID_BODY);
      return {
        kind: 'invalid-utf8',
        body: Buffer.concat([good.subarray(0, at), Buffer.from(bad), good.subarray(at)]),
      };
    }),
  fc
    .record({
      path: fc.constantFrom(['from', 'city'], ['to', 'city'], ['carriers', '0']),
      n: fc.integer({ min: 100, max: 20_000 }),
      ch: fc.constantFrom('я', 'a', '\u0000', '😀', '\\'),
    })
    .map(({ path, n, ch }) => ({
      kind: 'huge-string',
      body: Buffer.from(JSON.stringify(withPath(SHIPMENT, path, ch.repeat(n)))),
    })),
  fc
    .record({
      anchor: objectAnchor,
      key: fc.constantFrom(...PROTO_KEYS),
      value: fc.jsonValue({ maxDepth: 2 }),
    })
    .map(({ anchor, key, value }) => ({
      kind: 'proto-key',
      body: Buffer.from(
        insertMember(VALID_BODY, anchor, `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`),
      ),
    })),
  fc
    .record({
      field: fc.constantFrom('city', 'weight_grams', 'from', 'parcel', 'carriers'),
      value: fc.jsonValue({ maxDepth: 2 }),
      anchor: objectAnchor,
    })
    .map(({ field, value, anchor }) => ({
      kind: 'duplicate-key',
      body: Buffer.from(
        insertMember(VALID_BODY, anchor, `${JSON.stringify(field)}:${JSON.stringify(value) ?? 'null'}`),
      ),
    })),
  fc
    .record({ field: fc.constantFrom(...NUMERIC_FIELDS), token: fc.constantFrom(...ODD_NUMBERS) })
    .map(({ field, token }) => ({
      kind: 'odd-number',
      body: Buffer.from(VALID_BODY.replace(new RegExp(`"${field}":[^,}]+`), `"${field}":${token}`)),
    })),
  fc
    .record({
      path: fc.constantFrom(...FIELD_PATHS),
      value: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    })
    .map(({ path, value }) => ({
      kind: 'wrong-type',
      body: Buffer.from(JSON.stringify(withPath(SHIPMENT, path, value)) ?? ''),
    })),
  fc
    .record({
      anchor: objectAnchor,
      key: fc.string({ minLength: 1, maxLength: 12 }),
      value: fc.jsonValue({ maxDepth: 1 }),
    })
    .map(({ anchor, key, value }) => ({
      kind: 'extra-property',
      body: Buffer.from(
        insertMember(VALID_BODY, anchor, `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`),
      ),
    })),
  fc
    .jsonValue({ maxDepth: 3 })
    .map((v) => ({ kind: 'random-json', body: Buffer.from(JSON.stringify(v) ?? '') })),
  fc.uint8Array({ maxLength: 400 }).map((b) => ({ kind: 'random-bytes', body: Buffer.from(b) })),
  fc
    .constantFrom(
      '',
      ' ',
      '\uFEFF' + VALID_BODY,
      VALID_BODY + 'x',
      VALID_BODY + VALID_BODY,
      'null',
      '[]',
      '{}',
    )
    .map((b) => ({ kind: 'edge-body', body: Buffer.from(b) })),
  fc.constant({ kind: 'valid', body: Buffer.from(VALID_BODY) }),
);

type Header = [string, string];

/** A header value a client library would send: visible ASCII and spaces, no line breaks. */
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 300,
});
const headerName = fc.string({
  unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-_!#$%&'*+.^`|~"),
  minLength: 1,
  maxLength: 30,
});

function goodHeaders(port: number, key: string): Header[] {
  return [
    ['Host', `127.0.0.1:${port}`],
    ['Authorization', `Bearer ${key}`],
    ['Content-Type', 'application/json'],
  ];
}

type HeaderMutation = (headers: Header[], key: string) => Header[];
const replace =
  (name: string, values: string[]): HeaderMutation =>
  (headers) => [
    ...headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase()),
    ...values.map((v): Header => [name, v]),
  ];
const mutationArb: fc.Arbitrary<HeaderMutation> = fc.oneof(
  fc.constantFrom<HeaderMutation>(
    replace('Authorization', []),
    (h, key) => [...h, ['Authorization', `Bearer ${key}`]],
    (h) => [...h, ['Authorization', 'Bearer rdk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']],
    (h, key) => replace('Authorization', [`bearer   ${key}`])(h, key),
    (h, key) => replace('Authorization', [`Basic ${key}`])(h, key),
    (h, key) =>
      replace('Authorization', [`Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`])(h, key),
    replace('Host', []),
    (h) => [...h, ['Host', 'evil.test']],
    replace('Host', ['evil.test']),
    replace('Host', ['LOCALHOST']),
    replace('Content-Type', []),
    (h) => [...h, ['Content-Type', 'text/plain']],
    replace('Content-Type', ['text/plain']),
    replace('Content-Type', ['application/x-www-form-urlencoded']),
    replace('Content-Type', ['application/json; charset=latin1']),
    replace('Content-Type', ['APPLICATION/JSON; CHARSET=UTF-8']),
    (h) => [...h, ['Content-Encoding', 'gzip']],
    (h) => [...h, ['Content-Encoding', 'identity']],
    (h) => [...h, ['Origin', 'https://evil.test']],
    (h) => [...h, ['Sec-Fetch-Site', 'cross-site']],
    (h) => [...h, ['Sec-Fetch-Mode', 'cors']],
    (h) => [...h, ['Expect', '100-continue']],
    (h) => [...h, ['Idempotency-Key', 'a'], ['Idempotency-Key', 'b']],
    (h) => [...h, ['Idempotency-Key', '"quoted-key"']],
    (h) => [...h, ['Idempotency-Key', 'k'.repeat(256)]],
    (h) => [...h, ['Idempotency-Key', '']],
  ),
  headerValue.map((v): HeaderMutation => (h) => [...h, ['Idempotency-Key', v]]),
  fc.tuple(headerName, headerValue).map(([n, v]): HeaderMutation => (h) => [...h, [n, v]]),
  headerValue.map((v): HeaderMutation => replace('Authorization', [v])),
  headerValue.map((v): HeaderMutation => replace('Content-Type', [v])),
);

function httpRequest(
  method: string,
  target: string,
  headers: Header[],
  body: Buffer,
  chunked = false,
): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (chunked) {
    lines.push('Transfer-Encoding: chunked');
    const framed = body.length
      ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
      : Buffer.from('0\r\n\r\n');
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), framed]);
  }
  if (body.length || method === 'POST') lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]);
}

const ROUTES = ['/v1/rates', '/v1/balance', '/v1/carriers', '/v1/openapi.json'];
const METHODS = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'HEAD',
  'TRACE',
  'PROPFIND',
  'get',
  'M-SEARCH',
];
const pathPieces = fc.constantFrom(
  '/',
  '.',
  '..',
  '%2e',
  '%2E%2E',
  '%2f',
  '\\',
  '//',
  ';x',
  '?',
  '#',
  'v1',
  'rates',
  'balance',
  '%00',
  'ё',
  '%D1%91',
  '*',
  '~',
  'admin',
  'keys',
);
const pathArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ROUTES),
  fc
    .tuple(fc.constantFrom(...ROUTES), fc.nat({ max: 12 }), pathPieces)
    .map(([r, at, p]) => r.slice(0, Math.min(at, r.length)) + p + r.slice(Math.min(at, r.length))),
  fc.array(pathPieces, { maxLength: 8 }).map((ps) => `/${ps.join('')}`),
  fc.tuple(fc.constantFrom(...ROUTES), headerValue).map(([r, q]) => `${r}?${encodeURI(q)}`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `/v1/${'a'.repeat(n)}`),
  fc.constantFrom('*', 'http://evil.test/v1/balance', 'evil.test:443', 'https://127.0.0.1/v1/rates', ''),
);

const RAW_MALFORMATIONS = (port: number): fc.Arbitrary<Buffer> =>
  fc.oneof(
    fc
      .uint8Array({ minLength: 1, maxLength: 300 })
      .map((b) => Buffer.concat([Buffer.from(b), Buffer.from('\r\n\r\n')])),
    fc
      .constantFrom(
        'GARBAGE\r\n\r\n',
        `GET /v1/balance\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
        `GET /v1/balance HTTP/9.9\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
        `GET  /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
        `GET /v1/balance HTTP/1.1\nHost: 127.0.0.1:${port}\n\n`,
        `GET /v1/balance HTTP/1.1\r\nHost : 127.0.0.1:${port}\r\n\r\n`,
        `GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX: a\r\n b\r\n\r\n`,
        `GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nNoColon\r\n\r\n`,
        `GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX: \u0000\r\n\r\n`,
        `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
        `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: -1\r\n\r\n`,
        `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 1e3\r\n\r\n`,
        `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nTransfer-Encoding: chunked, gzip\r\n\r\n`,
        `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
        `GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nExpect: foo\r\n\r\n`,
      )
      .map((s) => Buffer.from(s, 'latin1')),
    fc
      .integer({ min: 8_000, max: 40_000 })
      .map((n) =>
        Buffer.from(`GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX: ${'a'.repeat(n)}\r\n\r\n`),
      ),
    fc
      .integer({ min: 100, max: 3_000 })
      .map((n) =>
        Buffer.from(`GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${'X-A: b\r\n'.repeat(n)}\r\n`),
      ),
    fc
      .constantFrom('zz', '-1', 'ffffffffffffffffff', '5;' + 'e'.repeat(20_000), '5\r\nabcdeXX', '')
      .map((chunk) =>
        Buffer.from(
          `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer KEY\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}\r\n\r\n`,
        ),
      ),
  );

function caseArb(port: number, key: string): fc.Arbitrary<WireCase> {
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ b: bodyArb, chunked: fc.boolean() }).map(({ b, chunked }) => ({
        kind: `body:${b.kind}`,
        head: false,
        bytes: httpRequest(
          'POST',
          '/v1/rates',
          goodHeaders(port, key),
          b.body,
          chunked && b.body.length < 16_384,
        ),
      })),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({ muts: fc.array(mutationArb, { minLength: 1, maxLength: 3 }), b: bodyArb })
        .map(({ muts, b }) => ({
          kind: `headers:${b.kind}`,
          head: false,
          bytes: httpRequest(
            'POST',
            '/v1/rates',
            muts.reduce((h, m) => m(h, key), goodHeaders(port, key)),
            b.body,
          ),
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          method: fc.oneof(fc.constantFrom(...METHODS), headerName),
          path: pathArb,
          withKey: fc.boolean(),
        })
        .map(({ method, path, withKey }) => ({
          kind: 'route',
          head: method === 'HEAD',
          bytes: httpRequest(
            method,
            path,
            withKey ? goodHeaders(port, key) : [['Host', `127.0.0.1:${port}`]],
            method === 'POST' ? Buffer.from(VALID_BODY) : Buffer.alloc(0),
          ),
        })),
    },
    {
      weight: 2,
      arbitrary: RAW_MALFORMATIONS(port).map((bytes) => ({
        kind: 'raw',
        head: false,
        bytes: Buffer.from(bytes.toString('latin1').replace('KEY', key), 'latin1'),
      })),
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// The property

const tally = new Map<string, number>();
const count = (label: string): void => void tally.set(label, (tally.get(label) ?? 0) + 1);

it(
  `${RUNS} generated requests: no crash, no 5xx but 503, every answer an envelope, no charge without a 200, bounded memory`,
  async () => {
    console.log(`malformed-input: seed ${SEED} (RATEDESK_SEED=${SEED} replays), ${RUNS} runs`);
    // Warm up before the memory baseline: simulators, token cache, JIT, and the rate cache filled to its
    // bound (each shipment a different weight, so every one reaches the carriers, as generated ones do).
    for (let i = 0; i < 300; i++) {
      const body = JSON.stringify({
        ...SHIPMENT,
        parcel: { ...SHIPMENT.parcel, weight_grams: 500 + i },
        declared_value_kopecks: 150000,
      });
      await firstAnswer(
        serve.port,
        httpRequest('POST', '/v1/rates', goodHeaders(serve.port, serve.key), Buffer.from(body)),
      );
    }
    // And a first pass of generated requests (another seed): the largest bodies (1 MB strings, deep nesting)
    // raise the allocator's high-water mark once, which is not growth per request.
    for (const c of fc.sample(caseArb(serve.port, serve.key), { numRuns: 1_000, seed: SEED ^ 0x5eed })) {
      await firstAnswer(serve.port, c.bytes, { head: c.head });
    }
    const before = await serve.collectedMemory();
    const rssBefore = before.rss;
    let rssPeak = rssBefore;
    const started = performance.now();
    const latencies: number[] = [];
    let cases = 0;

    await fc.assert(
      fc.asyncProperty(caseArb(serve.port, serve.key), async (c) => {
        const before = serve.account();
        const r = await firstAnswer(serve.port, c.bytes, { head: c.head });
        latencies.push(r.elapsedMs);
        if (++cases % 500 === 0) rssPeak = Math.max(rssPeak, serve.rssBytes());
        const after = serve.account();
        count(`${r.status ?? 'none'}${r.json?.error?.code ? ` ${r.json.error.code}` : ''}`);

        expect(serve.alive(), 'serve crashed').toBe(true);
        // Empty lines before a request line are allowed (RFC 9112 §2.2): bytes that hold nothing else are no
        // request, and the connection just closes when the client does.
        if (/^[\r\n]*$/.test(c.bytes.toString('latin1'))) return;
        expect(r.answered, `no answer: ${JSON.stringify(r.text.slice(0, 200))}`).toBe(true);
        const status = r.status!;
        expect(
          status >= 500 && !(status === 503 && r.json?.error?.code === 'rates_unavailable'),
          `status ${status}`,
        ).toBe(false);
        expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
        expect(r.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]{20}$/);
        if (!c.head) {
          expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(typeof r.json).toBe('object');
          if (status >= 400) {
            const code = r.json.error.code as ApiErrorCode;
            expect(API_ERRORS[code]?.status, `code ${code} for ${status}`).toBe(status);
            expect(r.json.error.message).toBe(API_ERRORS[code].message);
            expect(r.json.error.request_id).toBe(r.headers['x-request-id']);
          }
        }
        const charged =
          status === 200 &&
          !c.head &&
          r.json?.balance_remaining !== undefined &&
          r.headers['idempotent-replayed'] !== 'true';
        expect(before.balance - after.balance, `balance change on ${status}`).toBe(charged ? 1 : 0);
        expect(after.ledgerRows - before.ledgerRows).toBe(charged ? 1 : 0);
        if (charged) expect(r.json.balance_remaining).toBe(after.balance);
      }),
      { numRuns: RUNS, seed: SEED },
    );

    const seconds = (performance.now() - started) / 1000;
    const rssAfter = serve.rssBytes();
    rssPeak = Math.max(rssPeak, rssAfter);
    // What is retained, not garbage V8 has yet to collect: both figures are read after a full collection
    // (test/helpers/serve-gc-probe.ts). Read straight after the load, RSS varied by +23 to +53 MB run to run on
    // the same build, and a CI run once failed the bound on garbage alone.
    const after = await serve.collectedMemory();
    latencies.sort((a, b) => a - b);
    const p = (q: number): string =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
    const mb = (b: number): string => (b / 1048576).toFixed(1);
    console.log(
      `malformed-input: ${cases} requests in ${seconds.toFixed(1)} s; p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; ` +
        `serve RSS ${mb(rssBefore)} → ${mb(rssAfter)} MB (peak ${mb(rssPeak)}), after a full collection ` +
        `${mb(after.rss)} MB, heap ${mb(before.heap)} → ${mb(after.heap)} MB; ` +
        `integrity ${serve.integrityCheck()}`,
    );
    console.log(
      `malformed-input: answers ${JSON.stringify(Object.fromEntries([...tally].sort((a, b) => b[1] - a[1])))}`,
    );
    expect(serve.integrityCheck()).toBe('ok');
    // Bounded memory (research/reliability.md H-T1: RSS growth < 50 MB). The peak is printed, not bounded:
    // V8 lets garbage pile up between collections (a 100,000-request soak peaked 72 MB up and ended 37 MB up).
    expect(after.rss - before.rss).toBeLessThan(50 * 1024 * 1024);
    // The listener keeps nothing per refused request: the live heap after thousands of them is within a few
    // MB of where it started (the caches were filled to their bounds before the baseline).
    expect(after.heap - before.heap).toBeLessThan(8 * 1024 * 1024);
  },
  scale(600_000, 7_200_000),
);
