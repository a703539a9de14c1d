// #8 defect 4: whatever Node's HTTP parser refuses still gets the documented envelope with a request_id (and
// X-Request-Id), then the connection closes. Node's defaults answered with an empty body, CONNECT not at all.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawExchange, type RawResponse } from '../../helpers/raw-http';
import { startTestService, type TestService } from '../../helpers/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.close();
});

function expectEnvelope(r: RawResponse, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.json?.error?.code).toBe(code);
  expect(r.json.error.request_id).toMatch(/^req_[0-9A-Za-z]{20}$/);
  expect(r.headers['x-request-id']).toBe(r.json.error.request_id);
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(r.headers['cache-control']).toBe('no-store');
  expect(r.headers['connection']).toBe('close');
  expect(r.closed).toBe(true);
}

const host = (): string => `Host: 127.0.0.1:${t.port}\r\n`;
/** Headers that get a POST past every check before the body, so the body's own malformation is what fails. */
const authorised = (): string =>
  `${host()}Authorization: Bearer ${t.key}\r\nContent-Type: application/json\r\n`;

const malformed: Array<[string, () => string, number, string]> = [
  ['a malformed request line', () => 'GARBAGE\r\n\r\n', 400, 'bad_request'],
  ['a NUL in the path', () => `GET /v1/bal\0ance HTTP/1.1\r\n${host()}\r\n`, 400, 'bad_request'],
  ['LF-only line ends', () => `GET /v1/balance HTTP/1.1\n${host().trim()}\n\n`, 400, 'bad_request'],
  [
    'a bad chunk size',
    () => `POST /v1/rates HTTP/1.1\r\n${authorised()}Transfer-Encoding: chunked\r\n\r\nzz\r\n`,
    400,
    'bad_request',
  ],
  [
    'Content-Length with Transfer-Encoding',
    () =>
      `POST /v1/rates HTTP/1.1\r\n${host()}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    400,
    'bad_request',
  ],
  [
    'two different Content-Length fields',
    () => `POST /v1/rates HTTP/1.1\r\n${host()}Content-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
    400,
    'bad_request',
  ],
  [
    'a non-numeric Content-Length',
    () => `POST /v1/rates HTTP/1.1\r\n${host()}Content-Length: abc\r\n\r\n`,
    400,
    'bad_request',
  ],
  ['obs-fold', () => `GET /v1/balance HTTP/1.1\r\n${host()}X-A: b\r\n c\r\n\r\n`, 400, 'bad_request'],
  ['a space before the colon', () => `GET /v1/balance HTTP/1.1\r\nHost : x\r\n\r\n`, 400, 'bad_request'],
  [
    'Transfer-Encoding other than chunked',
    () => `POST /v1/rates HTTP/1.1\r\n${authorised()}Transfer-Encoding: gzip\r\n\r\n`,
    400,
    'bad_request',
  ],
  [
    'oversized headers (20 KiB)',
    () => `GET /v1/balance HTTP/1.1\r\n${host()}X-A: ${'a'.repeat(20_000)}\r\n\r\n`,
    431,
    'headers_too_large',
  ],
  [
    'Expect: foo',
    () => `GET /v1/balance HTTP/1.1\r\n${host()}Expect: foo\r\n\r\n`,
    417,
    'expectation_failed',
  ],
  ['CONNECT', () => `CONNECT evil.com:443 HTTP/1.1\r\nHost: evil.com:443\r\n\r\n`, 405, 'method_not_allowed'],
];

it.each(malformed)('%s → %s %s envelope, then close', async (_name, raw, status, code) => {
  const r = await rawExchange(t.port, raw());
  expectEnvelope(r, status, code);
});

it('a missing Host is the Host guard’s 403 envelope, not an empty 400', async () => {
  for (const raw of [
    'GET /v1/balance HTTP/1.1\r\nConnection: close\r\n\r\n',
    'GET /v1/balance HTTP/1.0\r\n\r\n',
  ]) {
    const r = await rawExchange(t.port, raw);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('invalid_host');
  }
});

it('CONNECT names the methods this listener has', async () => {
  const r = await rawExchange(t.port, `CONNECT 127.0.0.1:${t.port} HTTP/1.1\r\n${host()}\r\n`);
  expect(r.headers['allow']).toBe('GET, POST');
});

it('a parse error after a good request on the same connection still gets its own envelope', async () => {
  const r = await rawExchange(
    t.port,
    `GET /v1/balance HTTP/1.1\r\n${host()}Authorization: Bearer ${t.key}\r\n\r\nGARBAGE\r\n\r\n`,
  );
  const answers = r.text.match(/HTTP\/1\.1 \d{3}/g);
  expect(answers).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400']);
  expect(r.text).toContain('"code":"bad_request"');
  expect(r.closed).toBe(true);
});

it('the listener keeps serving after every malformation above', async () => {
  expect((await t.get('/v1/balance')).status).toBe(200);
});
