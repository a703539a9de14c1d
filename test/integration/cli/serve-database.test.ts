// `npm run serve -- --database URL` as users run it: instances on one company database (serve-process.ts),
// and what a killed instance leaves there. Its idempotency claims hold their keys for
// RATEDESK_IDEMPOTENCY_LEASE_MS (5 minutes by default), answered 409 by every other instance until then; after
// it the retry runs, once.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';
import { startServeProcess, type CompanyServeProcess } from '../../helpers/serve-process';
import { rawRequest, SHIPMENT, type HttpResult } from '../../helpers/service';

const running: CompanyServeProcess[] = [];
const databases: string[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  for (const url of databases.splice(0)) await dropTestDatabase(url);
});

async function instance(database: string, env: Record<string, string>): Promise<CompanyServeProcess> {
  const s = await startServeProcess(env, undefined, { database });
  running.push(s);
  return s;
}

function rates(s: CompanyServeProcess, idempotencyKey: string): Promise<HttpResult> {
  return rawRequest(s.port, {
    method: 'POST',
    path: '/v1/rates',
    headers: {
      Authorization: `Bearer ${s.key}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': idempotencyKey,
    },
    body: JSON.stringify(SHIPMENT),
  });
}

describe('npm run serve -- --database URL', () => {
  it("a killed instance's claim is refused (409) by another until RATEDESK_IDEMPOTENCY_LEASE_MS ends, then the retry runs once", async () => {
    const database = await createTestDatabase('serve');
    databases.push(database);
    const leaseMs = 4_000;
    const env = { RATEDESK_IDEMPOTENCY_LEASE_MS: String(leaseMs) };
    // A's carriers answer after 20 s: its request is still rating when it is killed.
    const a = await instance(database, { ...env, RATEDESK_SIMULATOR_LATENCY_MS: '20000' });
    const b = await instance(database, env);
    const before = await b.account();

    const claimedAfter = Date.now();
    const lost = rates(a, 'order-1').catch(() => null);
    // Far longer than A takes to claim the key; far shorter than the lease.
    await new Promise((r) => setTimeout(r, 1_000));
    const inFlight = await rates(b, 'order-1');
    expect([inFlight.status, inFlight.json?.error?.code]).toEqual([409, 'idempotency_key_in_use']);
    a.proc.kill('SIGKILL');
    expect(await lost).toBeNull();

    // B refuses the key while the dead claim's lease runs, and runs it once the lease is over.
    let answer = await rates(b, 'order-1');
    while (answer.status === 409 && Date.now() < claimedAfter + leaseMs + 15_000) {
      expect(answer.json.error.code).toBe('idempotency_key_in_use');
      await new Promise((r) => setTimeout(r, 200));
      answer = await rates(b, 'order-1');
    }
    const answeredAt = Date.now();
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers['idempotent-replayed']).toBeUndefined();
    // The claim was taken after claimedAfter, so its lease cannot have ended before claimedAfter + leaseMs.
    expect(answeredAt).toBeGreaterThanOrEqual(claimedAfter + leaseMs);

    const again = await rates(b, 'order-1');
    expect([again.status, again.headers['idempotent-replayed'], again.text]).toEqual([
      200,
      'true',
      answer.text,
    ]);
    // One charge: the killed request's none, the retry's one.
    expect(await b.account()).toEqual({
      balance: before.balance - 1,
      ledgerRows: before.ledgerRows + 1,
    });
  }, 60_000);
});
