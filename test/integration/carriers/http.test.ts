// The carrier HTTP client against a real local server: what it sends, and every way it refuses an answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierHttpError, carrierRequest, MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';

let server: Server;
let base = '';
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  switch (path) {
    case '/json':
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true,"n":1}');
      return;
    case '/echo':
      res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ got: body }));
      return;
    case '/text':
      res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html>Bad gateway</html>');
      return;
    case '/redirect':
      res.writeHead(302, { Location: '/json' }).end();
      return;
    case '/big-declared':
      res.writeHead(200, { 'Content-Length': String(MAX_CARRIER_RESPONSE_BYTES + 1) });
      res.write('x'.repeat(1024));
      return; // never finishes: the client must give up on the header alone
    case '/big-chunked': {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent <= MAX_CARRIER_RESPONSE_BYTES; sent += chunk.length) res.write(chunk);
      res.end();
      return;
    }
    case '/directory': {
      // A whole directory of 2.5 MiB: over the default cap, within a call's own.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ rows: 'x'.repeat(2.5 * 1024 * 1024) }));
      return;
    }
    case '/hang':
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => route(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const signal = (): AbortSignal => AbortSignal.timeout(5000);

describe('carrierRequest', () => {
  it('GET: parses JSON, sends Accept and User-Agent', async () => {
    const r = await carrierRequest(`${base}/json?a=1`, { method: 'GET', signal: signal() });
    expect(r).toMatchObject({ status: 200, json: { ok: true, n: 1 } });
    const req = seen.at(-1)!;
    expect(req.url).toBe('/json?a=1');
    expect(req.headers['accept']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('RateDesk');
  });

  it('POST: sends the body with its length and the given headers', async () => {
    const body = JSON.stringify({ город: 'Казань' });
    const r = await carrierRequest(`${base}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' },
      body,
      signal: signal(),
    });
    expect(r).toMatchObject({ status: 201, json: { got: body } });
    const req = seen.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(req.headers['authorization']).toBe('Bearer t');
  });

  it('a non-JSON answer keeps its status and text, with json undefined', async () => {
    const r = await carrierRequest(`${base}/text`, { method: 'GET', signal: signal() });
    expect(r).toEqual({ status: 502, json: undefined, text: '<html>Bad gateway</html>' });
  });

  it('never follows a redirect', async () => {
    await expect(carrierRequest(`${base}/redirect`, { method: 'GET', signal: signal() })).rejects.toThrow(
      /redirect/,
    );
  });

  it('refuses an answer over the size cap, declared or streamed', async () => {
    for (const path of ['/big-declared', '/big-chunked']) {
      const err = await carrierRequest(`${base}${path}`, { method: 'GET', signal: signal() }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CarrierHttpError);
      expect((err as Error).message).toMatch(/too large/);
    }
  });

  it('a call with its own cap takes a larger answer; the default cap still refuses it', async () => {
    await expect(carrierRequest(`${base}/directory`, { method: 'GET', signal: signal() })).rejects.toThrow(
      new CarrierHttpError('response too large'),
    );
    const whole = await carrierRequest(`${base}/directory`, {
      method: 'GET',
      signal: signal(),
      maxBytes: 4 * 1024 * 1024,
    });
    expect(whole.status).toBe(200);
    expect((whole.json as { rows: string }).rows).toHaveLength(2.5 * 1024 * 1024);
    // Its own cap is a cap too.
    await expect(
      carrierRequest(`${base}/directory`, { method: 'GET', signal: signal(), maxBytes: 2 * 1024 * 1024 }),
    ).rejects.toThrow(new CarrierHttpError('response too large'));
  });

  it('an abort rejects with the signal reason, at once', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = carrierRequest(`${base}/hang`, { method: 'GET', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('deadline')), 50);
    await expect(pending).rejects.toThrow('deadline');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a refused connection is a CarrierHttpError naming the network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await carrierRequest(`http://127.0.0.1:${port}/x`, { method: 'GET', signal: signal() }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CarrierHttpError);
    // Worded for people since #8 (the code stays in brackets).
    expect((err as Error).message).toMatch(/network error: connection refused \(ECONNREFUSED\)/);
  });

  it('only http and https URLs', async () => {
    await expect(carrierRequest('file:///etc/passwd', { method: 'GET', signal: signal() })).rejects.toThrow(
      CarrierHttpError,
    );
  });
});
