// DPD's live check steps (issue #15 item 6) over real HTTP on 127.0.0.1: every step passes against the
// simulator; against a dead host the first step fails at once, saying so; against a simulator that holds
// another contract the auth step fails naming the credentials.
import { afterEach, describe, expect, it } from 'vitest';
import { dpdCheckSteps } from '../../../core/carriers/dpd/check';
import { DPD_SIM_DEFAULT_ACCOUNT, startDpdSimulator } from '../../../core/carriers/simulators/dpd';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { closedPort, runSteps } from '../../helpers/carrier-check';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

describe('DPD check steps', () => {
  it('declare auth, directory and route, each with a subject and a hint in both languages', () => {
    const steps = dpdCheckSteps({ baseUrl: 'http://127.0.0.1:1/services', ...DPD_SIM_DEFAULT_ACCOUNT });
    expect(steps.map((s) => s.kind)).toEqual(['auth', 'directory', 'route']);
    for (const s of steps) {
      expect(s.subject.length).toBeGreaterThan(5);
      expect(s.hint.ru).toMatch(/[а-я]/);
      expect(s.hint.en).toMatch(/[a-z]/);
    }
  });

  it('all pass against the simulator, the route with rates in kopecks', async () => {
    const sim = await startDpdSimulator();
    sims.push(sim);
    const seen = await runSteps(dpdCheckSteps({ baseUrl: sim.url, ...DPD_SIM_DEFAULT_ACCOUNT }));
    expect(seen.map((s) => [s.kind, s.ok, s.error])).toEqual([
      ['auth', true, undefined],
      ['directory', true, undefined],
      ['route', true, undefined],
    ]);
    expect(seen[0]!.measure!.note?.en).toMatch(/^DPD accepted the contract/);
    expect(seen[1]!.measure!.items).toBeGreaterThan(0);
    expect(seen[2]!.measure).toMatchObject({ items: 5, cheapestKopecks: expect.any(Number) });
    expect(seen[2]!.measure!.cheapestKopecks!).toBeGreaterThan(0);
  });

  it('against a dead host the first step fails at once, saying the connection was refused', async () => {
    const port = await closedPort();
    const seen = await runSteps(
      dpdCheckSteps({ baseUrl: `http://127.0.0.1:${port}/services`, ...DPD_SIM_DEFAULT_ACCOUNT }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'auth', ok: false });
    expect(seen[0]!.error).toMatch(/^DPD: network error: connection refused/);
    expect(seen[0]!.ms).toBeLessThan(5_000);
  });

  it('against a simulator holding another contract the auth step fails naming the credentials', async () => {
    const sim = await startDpdSimulator({ clientNumber: '2000000000', clientKey: 'OTHERKEY' });
    sims.push(sim);
    const seen = await runSteps(dpdCheckSteps({ baseUrl: sim.url, ...DPD_SIM_DEFAULT_ACCOUNT }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'auth', ok: false });
    expect(seen[0]!.error).toMatch(/DPD rejected the credentials/);
  });

  it('without a client key the auth step fails before any call', async () => {
    const sim = await startDpdSimulator();
    sims.push(sim);
    const seen = await runSteps(
      dpdCheckSteps({
        baseUrl: sim.url,
        clientNumber: DPD_SIM_DEFAULT_ACCOUNT.clientNumber,
        clientKey: null,
      }),
    );
    expect(seen[0]).toMatchObject({ kind: 'auth', ok: false });
    expect(seen[0]!.error).toMatch(/DPD client key is not set/);
    expect(sim.requestCount()).toBe(0);
  });
});
