// PEK allows 100 requests a minute per login, for the login, not per process (verified-2026.md §5.5). Three
// `serve` instances of a company server on one PostgreSQL database, each with its own PEK adapter, pointed at
// one PEK simulator with a live login: under a load that would ask PEK for more than its minute, the
// simulator sees at most 100 requests, shared fairly among the accounts (#19, #16).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey, setLimits, topup } from '../../core/operations';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from '../../core/carriers/simulators/pek';
import type { SimulatorHandle } from '../../core/carriers/simulators/handle';
import { openCompanyStore } from '../../core/store/company';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { onlyCarriers, rawRequest, SHIPMENT } from '../helpers/service';

const INSTANCES = 3;
const SERVER_KEY = randomBytes(32).toString('base64');
const ACCOUNTS = 4;
const OFFERED = 200;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

async function startServe(url: string): Promise<{ port: number; proc: ChildProcess }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'core/cli/serve.ts', '--database', url, '--port', '0', '--no-warm-up'],
    // A company database needs a server key (docs/operations.md): one made for this test.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RATEDESK_SERVER_KEY: SERVER_KEY } },
  );
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  cleanups.push(async () => {
    if (proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr.join('\n')}`)));
  });
  return { port: Number(new URL(line).port), proc };
}

describe('PEK on a company server of three instances', () => {
  it('sends PEK at most 100 requests a minute from all instances together, in fair shares', async () => {
    const pek: SimulatorHandle = await startPekSimulator();
    cleanups.push(() => pek.close());
    const url = await createTestDatabase('pek');
    cleanups.push(() => dropTestDatabase(url));

    const clock = { now: () => new Date() };
    const keys: string[] = [];
    const store = await openCompanyStore(url);
    try {
      const settings = {
        sandbox: 'off',
        ...onlyCarriers('pek'),
        'carriers.pek.endpoint': 'custom',
        'carriers.pek.base_url': pek.url,
        'carriers.pek.login': PEK_SIM_LOGIN,
        'carriers.pek.api_key': PEK_SIM_API_KEY,
      };
      await store.settings.write(
        Object.entries(settings).map(([name, value]) => ({ name, value })),
        clock.now().toISOString(),
      );
      for (let i = 0; i < ACCOUNTS; i++) {
        const account = `warehouse-${i}`;
        await store.accounts.create(account, 0, clock.now().toISOString());
        await topup(store, clock, { account, requests: 1_000 });
        await setLimits(store, clock, { account, rps: 1_000, burst: 1_000 });
        keys.push((await createKey(store, clock, { account, name: 'load' })).secret);
      }
    } finally {
      await store.close();
    }
    const instances = await Promise.all(Array.from({ length: INSTANCES }, () => startServe(url)));
    const before = pek.requestCount();

    // Every call a route of its own (a distinct weight), so the rate cache answers none of them from memory.
    const statuses = await Promise.all(
      Array.from({ length: OFFERED }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 40));
        const shipment = { ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 1_000 + i } };
        const res = await rawRequest(instances[i % INSTANCES]!.port, {
          method: 'POST',
          path: '/v1/rates',
          headers: { Authorization: `Bearer ${keys[i % ACCOUNTS]!}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(shipment),
        });
        return { status: res.status, account: i % ACCOUNTS, text: res.text };
      }),
    );
    const sent = pek.requestCount() - before;
    const served = statuses.filter((s) => s.status === 200);
    console.info(
      `PEK saw ${sent} requests from ${INSTANCES} instances for ${OFFERED} calls offered; ` +
        `${served.length} answered 200, the rest ${[...new Set(statuses.map((s) => s.status))].join('/')}`,
    );
    expect(sent).toBeLessThanOrEqual(100);
    // The limit was approached, not avoided: each call offered needs PEK at least once (without the shared
    // window the three instances sent 284 for this load). How close it gets depends on how the askers' shares
    // fill (a location lookup asks as nobody in particular), so the bound is loose.
    expect(sent).toBeGreaterThanOrEqual(50);
    // Refused calls are 503 "PEK busy" (its minute or the account's share of it is used up) or 429 (the
    // account's calls in flight, waiting for a slot); nothing else, and nothing charged for them.
    expect(statuses.filter((s) => ![200, 503, 429].includes(s.status))).toEqual([]);
    expect(served.length).toBeGreaterThan(0);
    // The refusals say why: the company's minute, or the account's fair share of it (the share counts the
    // askers of all three instances), is used up. Which of the two an account meets first, and how many
    // quotes each account gets, depends on the machine's load (a quote asks PEK up to four times); the
    // contract suite pins the shares themselves (test/contract/store/carrier-coordination.test.ts).
    expect(statuses.some((s) => /(share of PEK's|PEK's limit of) 100 requests a minute/.test(s.text))).toBe(
      true,
    );
  }, 120_000);
});
