// The listener keeps key rows and the last key digest of each connection in memory (docs/benchmarks.md). These
// tests hold one keep-alive connection open and change the file under it, from this process (the desk) and
// from another connection to the file (what the admin CLI is), checking that no request is ever answered
// from a stale copy.
import { Agent, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount, setLimits, topup } from '../../../core/operations';
import { createKey, listKeys, revokeKey } from '../../../core/operations';
import { openStore, type Store } from '../../../core/store';
import { movableClock, startTestService, type TestService } from '../../helpers/service';

const clock = { now: () => new Date() };
let t: TestService | undefined;
let agent: Agent | undefined;
let cli: Store | undefined;
afterEach(async () => {
  agent?.destroy();
  await cli?.close();
  await t?.close();
  t = agent = cli = undefined;
});

interface Answer {
  status: number;
  json: { balance?: number; error?: { code: string } };
  socket: Socket;
}

/**
 * The first request records the key's last use, a write by the service itself that would clear the cache
 * anyway: settle it first, so the changes below are the only ones.
 */
async function settled(key: string): Promise<Answer> {
  await balance(key);
  await new Promise((r) => setTimeout(r, 30));
  return balance(key);
}

/** GET /v1/balance on the test's one keep-alive connection. */
function balance(key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: t!.port,
        path: '/v1/balance',
        agent,
        headers: { Host: `127.0.0.1:${t!.port}`, Authorization: `Bearer ${key}` },
        setHost: false,
      },
      (res: IncomingMessage) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            json: JSON.parse(text) as Answer['json'],
            socket: req.socket!,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function start(options: Parameters<typeof startTestService>[0] = {}): Promise<void> {
  t = await startTestService(options);
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
  // A second connection to the same file: a commit through it is a commit by "another process".
  cli = openStore(join(t.dir, 'ratedesk.db'));
}

describe('key cache and per-connection key digest', () => {
  it('a revocation through another connection to the file is refused on the next request of a kept-alive connection', async () => {
    await start();
    const first = await settled(t!.key);
    expect(first.status).toBe(200);
    const id = (await listKeys(cli!, clock)).at(-1)!.id;
    await revokeKey(cli!, clock, { id });
    const next = await balance(t!.key);
    expect(next.socket).toBe(first.socket);
    expect(next.status).toBe(401);
    expect(next.json.error?.code).toBe('api_key_revoked');
  });

  it('a revocation in this process (the desk) is refused on the next request', async () => {
    await start();
    const first = await settled(t!.key);
    expect(first.status).toBe(200);
    await revokeKey(t!.service.store, clock, { id: (await listKeys(t!.service.store, clock)).at(-1)!.id });
    const next = await balance(t!.key);
    expect(next.socket).toBe(first.socket);
    expect(next.json.error?.code).toBe('api_key_revoked');
  });

  it('a top-up through another connection shows in the next GET /v1/balance; a charge in this process too', async () => {
    await start();
    expect((await settled(t!.key)).json.balance).toBe(100);
    await topup(cli!, clock, { account: 'default', requests: 250 });
    expect((await balance(t!.key)).json.balance).toBe(350);
    expect((await t!.postRates({ ...(await import('../../helpers/service')).SHIPMENT })).status).toBe(200);
    expect((await balance(t!.key)).json.balance).toBe(349);
  });

  it('a limit override through another connection applies to the next request', async () => {
    await start();
    await settled(t!.key);
    await setLimits(cli!, clock, { account: 'default', rps: 1, burst: 1 });
    const a = await balance(t!.key);
    const b = await balance(t!.key);
    expect([a.status, b.status]).toEqual([200, 429]);
  });

  it('keys of two accounts alternating on one connection each answer for their own account', async () => {
    await start();
    await createAccount(t!.service.store, clock, { name: 'other', balance: 7 });
    await setLimits(t!.service.store, clock, { account: 'other', rps: 1000, burst: 1000 });
    const otherKey = (await createKey(t!.service.store, clock, { account: 'other', name: 'o' })).secret;
    const answers = [];
    for (const key of [t!.key, otherKey, t!.key, otherKey]) answers.push(await balance(key));
    expect(answers.map((a) => a.json.balance)).toEqual([100, 7, 100, 7]);
    expect(new Set(answers.map((a) => a.socket)).size).toBe(1);
  });

  it('an unknown or malformed key after a good one on the same connection is refused; the good one still works', async () => {
    await start();
    expect((await balance(t!.key)).status).toBe(200);
    const forged = `${t!.key.slice(0, -1)}${t!.key.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [forged, 'rdk_nope', 'x'.repeat(40)]) {
      const r = await balance(bad);
      expect(r.status).toBe(401);
      expect(r.json.error?.code).toBe('invalid_api_key');
    }
    expect((await balance(t!.key)).status).toBe(200);
  });

  it("a key's last use is recorded, at most once a minute", async () => {
    const movable = movableClock();
    await start({ clock: movable });
    const lastUsed = async (): Promise<string | null> => (await listKeys(cli!, clock)).at(-1)!.last_used_at;
    expect(await lastUsed()).toBeNull();
    await balance(t!.key);
    await new Promise((r) => setTimeout(r, 50));
    const first = await lastUsed();
    expect(first).not.toBeNull();
    movable.advance(30_000);
    await balance(t!.key);
    await new Promise((r) => setTimeout(r, 50));
    expect(await lastUsed()).toBe(first);
    movable.advance(31_000);
    await balance(t!.key);
    await new Promise((r) => setTimeout(r, 50));
    expect(Date.parse((await lastUsed())!)).toBeGreaterThan(Date.parse(first!) + 60_000);
  });
});
