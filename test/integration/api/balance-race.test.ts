import { afterEach, describe, expect, it } from 'vitest';
import { createAccount, setLimits } from '../../../core/operations';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('overdraft race', () => {
  it('balance N, many parallel calls: exactly N succeed, the rest 402, never negative, ledger adds up', async () => {
    t = await startTestService({ simulatorLatencyMs: 20 });
    const clock = { now: () => new Date() };
    await createAccount(t.service.store, clock, { name: 'small', balance: 7 });
    await setLimits(t.service.store, clock, { account: 'small', rps: 10_000, burst: 10_000 });
    const keys = [await t.newKey('small'), await t.newKey('small'), await t.newKey('small')];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t!.postRates(SHIPMENT, {}, keys[i % 3])),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBe(7);
    expect(results.filter((r) => r.status === 402).length).toBe(33);
    expect(ok.map((r) => r.json.balance_remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect((await t.service.store.accounts.byName('small'))!.balance).toBe(0);
    expect(await t.service.store.accounts.invariantViolations()).toEqual([]);
  });
});
