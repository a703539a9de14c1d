import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount, setLimits, setThreshold, topup } from '../../../core/operations';
import { listNotifications } from '../../../core/operations';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('state on disk', () => {
  it('a restart keeps balances, keys and revocations', async () => {
    t = await startTestService();
    await t.postRates(SHIPMENT);
    await t.postRates(SHIPMENT);
    await t.stop();
    const t2 = await startTestService({ dir: t.dir });
    const r = await t2.get('/v1/balance', t.key);
    expect(r.status).toBe(200);
    expect(r.json.balance).toBe(98);
    t = t2;
  });

  it('secrets never reach the db, -wal or -shm files', async () => {
    t = await startTestService();
    const secrets = [t.key, ...(await Promise.all(Array.from({ length: 20 }, () => t!.newKey())))];
    await t.postRates(SHIPMENT);
    const files = readdirSync(t.dir).filter((f) => f.startsWith('ratedesk.db'));
    expect(files).toContain('ratedesk.db-wal');
    for (const f of files) {
      const bytes = readFileSync(join(t.dir, f));
      for (const s of secrets) {
        expect(bytes.includes(Buffer.from(s))).toBe(false);
        expect(bytes.includes(Buffer.from(s.slice(4, 30)))).toBe(false);
      }
    }
  });

  it('low-balance notification fires once when a deduction crosses the threshold', async () => {
    t = await startTestService();
    const clock = { now: () => new Date() };
    await createAccount(t.service.store, clock, { name: 'shop', balance: 102 });
    await setThreshold(t.service.store, clock, { account: 'shop', threshold: '100' });
    await setLimits(t.service.store, clock, { account: 'shop', rps: 1000, burst: 1000 });
    const key = await t.newKey('shop');
    const seen: number[] = [];
    t.service.events.on('low-balance', (e) => seen.push(e.balance));
    for (let i = 0; i < 3; i++) expect((await t.postRates(SHIPMENT, {}, key)).status).toBe(200); // 101, 100, 99
    expect(seen).toEqual([100]);
    const log = await listNotifications(t.service.store, clock, {});
    expect(log.map((n) => [n.account, n.threshold, n.balance])).toEqual([['shop', 100, 100]]);
    // A top-up above the threshold re-arms it.
    await topup(t.service.store, clock, { account: 'shop', requests: 5 }); // 104
    for (let i = 0; i < 4; i++) expect((await t.postRates(SHIPMENT, {}, key)).status).toBe(200); // 103 … 100
    expect(seen).toEqual([100, 100]);
  });

  it('a second service on the same data folder is refused', async () => {
    t = await startTestService();
    await expect(startTestService({ dir: t.dir })).rejects.toThrow(/already serving/);
  });
});
