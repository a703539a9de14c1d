// #8 defect 1: a request answered before its body is read (401, 403, 404, 405, 415, 413) must not make the
// server read that body. It used to be read and discarded until the 30 s request timeout (86–92 GiB on one
// connection). Now the answer carries Connection: close and the server stops after a small bounded read.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endlessBody, rawExchange } from '../../helpers/raw-http';
import { rawRequest, startTestService, type TestService } from '../../helpers/service';

let t: TestService;
const serverSockets: Socket[] = [];
beforeAll(async () => {
  t = await startTestService();
  t.service.listener!.server.on('connection', (s: Socket) => serverSockets.push(s));
});
afterAll(async () => {
  await t.close();
});

/** The server may read what was already in flight (socket buffers), never more than this. */
const MAX_READ_BYTES = 1024 * 1024;

const cases: Array<{
  name: string;
  head: (port: number, key: string) => string;
  status: number;
  code: string;
}> = [
  {
    name: '401 without a key',
    head: (port) =>
      `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n`,
    status: 401,
    code: 'invalid_api_key',
  },
  {
    name: '403 foreign Host',
    head: () => `POST /v1/rates HTTP/1.1\r\nHost: evil.test\r\nContent-Type: application/json\r\n`,
    status: 403,
    code: 'invalid_host',
  },
  {
    name: '404 unknown path',
    head: (port) => `POST /v1/nothing HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`,
    status: 404,
    code: 'not_found',
  },
  {
    name: '405 body on a GET route',
    head: (port) => `PUT /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`,
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: '415 wrong content type with a good key',
    head: (port, key) =>
      `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: text/plain\r\n`,
    status: 415,
    code: 'unsupported_media_type',
  },
];

describe.each([
  ['a huge Content-Length', 'Content-Length: 100000000000\r\n'],
  ['an endless chunked body', 'Transfer-Encoding: chunked\r\n'],
])('early answer to %s', (_label, framing) => {
  it.each(cases)('$name: envelope, Connection: close, bounded read', async ({ head, status, code }) => {
    const before = serverSockets.length;
    const offered = { sent: 0 };
    const chunked = framing.startsWith('Transfer');
    const r = await rawExchange(t.port, `${head(t.port, t.key)}${framing}\r\n${chunked ? '10000\r\n' : ''}`, {
      waitMs: 5_000,
      pump: (s) => endlessBody(s, offered),
    });
    expect(r.status).toBe(status);
    expect(r.json.error.code).toBe(code);
    expect(r.json.error.request_id).toBe(r.headers['x-request-id']);
    expect(r.headers['connection']).toBe('close');
    expect(r.closed).toBe(true);
    expect(r.elapsedMs).toBeLessThan(3_000);
    const server = serverSockets[before]!;
    expect(server.bytesRead).toBeLessThan(MAX_READ_BYTES);
  });
});

describe('answers that need not close', () => {
  it('a GET without a body keeps its connection (no Connection: close)', async () => {
    const r = await rawRequest(t.port, { path: '/v1/balance' });
    expect(r.status).toBe(401);
    expect(r.headers['connection']).not.toBe('close');
  });
  it('an error after the whole body was read keeps its connection', async () => {
    const r = await t.postRates({ from: {} });
    expect(r.status).toBe(400);
    expect(r.headers['connection']).not.toBe('close');
  });
});

it('Expect: 100-continue on a request refused early: no 100 Continue, the body is never asked for', async () => {
  const r = await rawExchange(
    t.port,
    `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: 100\r\nExpect: 100-continue\r\n\r\n`,
  );
  expect(r.text.startsWith('HTTP/1.1 401')).toBe(true);
  expect(r.text).not.toContain('100 Continue');
});

it('Expect: 100-continue on a good request: 100 Continue, then the answer', async () => {
  const body = JSON.stringify({ from: {} });
  const r = await rawExchange(
    t.port,
    `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nAuthorization: Bearer ${t.key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    {
      pump: (s) => {
        s.once('data', (d: Buffer) => {
          if (d.toString().startsWith('HTTP/1.1 100')) s.write(body);
        });
      },
    },
  );
  expect(r.text.startsWith('HTTP/1.1 100 Continue')).toBe(true);
  expect(r.text).toContain('HTTP/1.1 400');
});
