// Dellin's live check steps (core/carriers/dellin/check.ts, issue #15 item 6) against the Dellin simulator
// (every step passes), against a dead host (the first network step fails, clearly and at once) and against a
// simulator that expects another appkey (the first authenticated step, the terminal lookup, fails).
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_STEP_KINDS } from '../../../core/carriers/check';
import { dellinCheckSteps } from '../../../core/carriers/dellin/check';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import { DELLIN_SIM_DEFAULT_APPKEY, startDellinSimulator } from '../../../core/carriers/simulators/dellin';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { closedPort, runSteps } from '../../helpers/carrier-check';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

/** A Tuesday at noon in Moscow: the simulator refuses Sundays (180012). */
const TUESDAY = new Date('2030-01-08T09:00:00Z');

describe('Dellin check steps', () => {
  it('declare directory, size and route in the runner’s order, each with a subject and hints in both languages', () => {
    const steps = dellinCheckSteps({ baseUrl: 'http://127.0.0.1:1', appkey: 'k' });
    expect(steps.map((s) => s.kind)).toEqual(['directory', 'size', 'route']);
    const order = steps.map((s) => CHECK_STEP_KINDS.indexOf(s.kind));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const s of steps) {
      expect(s.subject).not.toBe('');
      expect(s.hint.ru.length).toBeGreaterThan(20);
      expect(s.hint.en.length).toBeGreaterThan(20);
    }
  });

  it('all pass against the simulator, in at most five calls', async () => {
    const sim = await startDellinSimulator();
    sims.push(sim);
    const results = await runSteps(
      dellinCheckSteps({ baseUrl: sim.url, appkey: DELLIN_SIM_DEFAULT_APPKEY, now: () => TUESDAY }),
    );
    expect(results.map((r) => [r.kind, r.ok])).toEqual([
      ['directory', true],
      ['size', true],
      ['route', true],
    ]);
    const [directory, size, route] = results.map((r) => (r.ok ? r.measure : {}));
    expect(directory).toMatchObject({ items: 2, note: { en: expect.stringMatching(/^terminal \d+/) } });
    expect(size!.bytes).toBeGreaterThan(0);
    expect(size!.bytes).toBeLessThan(size!.limitBytes!);
    expect(size!.limitBytes).toBe(MAX_CARRIER_RESPONSE_BYTES);
    expect(route!.items).toBeGreaterThan(0);
    expect(route!.cheapestKopecks).toBeGreaterThan(0);
    expect(route!.note?.en).toContain('dellin:auto:terminal');
    expect(sim.requestCount()).toBeLessThanOrEqual(5);
  });

  it('against a dead host the first network step fails at once, saying the connection was refused', async () => {
    const started = performance.now();
    const results = await runSteps(
      dellinCheckSteps({
        baseUrl: `http://127.0.0.1:${await closedPort()}`,
        appkey: 'k',
        now: () => TUESDAY,
      }),
    );
    expect(results).toMatchObject([
      { kind: 'directory', ok: false, error: expect.stringMatching(/connection refused/i) },
    ]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('against a simulator expecting another appkey the terminal lookup fails with Dellin’s answer', async () => {
    const sim = await startDellinSimulator({ appkey: 'another-key' });
    sims.push(sim);
    const results = await runSteps(
      dellinCheckSteps({ baseUrl: sim.url, appkey: DELLIN_SIM_DEFAULT_APPKEY, now: () => TUESDAY }),
    );
    expect(results).toMatchObject([
      { kind: 'directory', ok: false, error: expect.stringMatching(/^Dellin answered HTTP 401: .*appkey/) },
    ]);
  });

  it('without an appkey the first step says so and calls nothing', async () => {
    const sim = await startDellinSimulator();
    sims.push(sim);
    const results = await runSteps(dellinCheckSteps({ baseUrl: sim.url, appkey: null }));
    expect(results).toMatchObject([
      { kind: 'directory', ok: false, error: expect.stringContaining('appkey is not set') },
    ]);
    expect(sim.requestCount()).toBe(0);
  });
});
