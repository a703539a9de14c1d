// The desk gateway's HTTP surface on the embedded store (SQLite, plain HTTP on loopback, as `serve` on a data
// folder): what it refuses before any operation runs, its event stream (keep-alive, a revoked device's stream
// ended), and that /v1 is what it was: a service without the gateway has no /desk/ at all.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest, startTestService, type TestService } from '../../helpers/service';

let ts: TestService | null = null;
afterEach(async () => {
  await ts?.close();
  ts = null;
});

async function gateway(keepAliveMs?: number): Promise<TestService> {
  ts = await startTestService({
    deskGateway: keepAliveMs === undefined ? true : { keepAliveMs },
    warmUp: false,
  });
  return ts;
}

async function enrolledToken(t: TestService, role: 'clerk' | 'admin' = 'clerk'): Promise<string> {
  const name = `u${Math.random().toString(36).slice(2, 8)}`;
  await t.service.desk.dispatch('users:add', { name, role });
  const enrol = await t.service.desk.dispatch('users:enrol', { name });
  if (!enrol.ok) throw new Error(enrol.error.message);
  const r = await rawRequest(t.port, {
    method: 'POST',
    path: '/desk/v1/enrol',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: (enrol.value as { code: string }).code, device_name: 'test' }),
  });
  expect(r.status).toBe(200);
  return (r.json as { token: string }).token;
}

const op = (
  t: TestService,
  channel: string,
  token: string,
  body: string,
  headers: Record<string, string> = {},
) =>
  rawRequest(t.port, {
    method: 'POST',
    path: `/desk/v1/ops/${channel}`,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body,
  });

describe('the desk gateway over HTTP', () => {
  it('answers an operation with the IPC envelope, and refuses what is not a JSON call', async () => {
    const t = await gateway();
    const token = await enrolledToken(t);
    const ok = await op(t, 'accounts:list', token, 'null');
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ ok: true, value: [expect.objectContaining({ name: 'default' })] });
    // The channel percent-encoded names the same operation.
    expect((await op(t, 'accounts%3Alist', token, 'null')).json).toMatchObject({ ok: true });

    expect((await op(t, 'accounts:list', token, '{')).status).toBe(400);
    expect((await op(t, 'accounts:list', token, 'null', { 'Content-Type': 'text/plain' })).status).toBe(415);
    const big = await op(t, 'history:search', token, JSON.stringify({ text: 'x'.repeat(20_000) }));
    expect(big.status).toBe(413);
    const query = await rawRequest(t.port, { path: '/desk/v1/hello?token=x' });
    expect(query.status).toBe(400);
    const method = await rawRequest(t.port, { path: '/desk/v1/enrol' });
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe('POST');
    expect((await rawRequest(t.port, { path: '/desk/v1/nothing' })).status).toBe(404);
    // The listener's own guards still come first: a foreign Host is refused before the gateway sees it.
    const host = await rawRequest(t.port, { path: '/desk/v1/hello', headers: { Host: 'evil.example' } });
    expect(host.status).toBe(403);
  });

  it('leaves /v1 as it was: without the gateway there is no /desk/', async () => {
    ts = await startTestService({ warmUp: false });
    const r = await rawRequest(ts.port, { path: '/desk/v1/hello' });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ error: { code: 'not_found' } });
    expect((await ts.get('/v1/balance')).status).toBe(200);
  });

  it("streams events with keep-alives, and ends a revoked device's stream", async () => {
    const t = await gateway(200);
    const token = await enrolledToken(t);
    const received: string[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: t.port,
          path: '/desk/v1/events',
          headers: { Authorization: `Bearer ${token}` },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
          res.setEncoding('utf8');
          res.on('data', (c: string) => received.push(c));
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end();
    });
    await expect.poll(() => received.join('').includes(': keep-alive')).toBe(true);
    // A balance change reaches the stream.
    await t.service.desk.dispatch('accounts:topup', { account: 'default', requests: 3 });
    await expect
      .poll(() => received.join(''))
      .toMatch(/event: balance:changed\ndata: \{[^\n]*"account":"default"/);
    const devices = await t.service.desk.dispatch('devices:list', undefined);
    const [device] = (devices as { ok: true; value: Array<{ id: string }> }).value;
    await t.service.desk.dispatch('devices:revoke', { id: device!.id });
    await ended;
  });
});
