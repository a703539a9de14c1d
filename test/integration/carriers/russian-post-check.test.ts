// Russian Post's live check (issue #15 item 6) over real HTTP on 127.0.0.1: its one step (no account, no
// directory call) passes against the simulator and fails at once against a dead host, saying so.
import { afterEach, describe, expect, it } from 'vitest';
import { russianPostCheckSteps } from '../../../core/carriers/russian-post/check';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { startRussianPostSimulator } from '../../../core/carriers/simulators/russian-post';
import { closedPort } from '../../helpers/carrier-check';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

describe('Russian Post check steps', () => {
  it('are one route step whose hint names the foreign-IP block', () => {
    const steps = russianPostCheckSteps({ baseUrl: 'http://127.0.0.1:1' });
    expect(steps.map((s) => s.kind)).toEqual(['route']);
    expect(steps[0]!.hint.en).toMatch(/outside Russia/);
    expect(steps[0]!.hint.ru).toMatch(/не из России/);
  });

  it('passes against the simulator with a rate per product, the cheapest in kopecks', async () => {
    const sim = await startRussianPostSimulator();
    sims.push(sim);
    const [route] = russianPostCheckSteps({ baseUrl: sim.url });
    const measure = await route!.run(AbortSignal.timeout(10_000));
    expect(measure).toMatchObject({ items: 5, cheapestKopecks: expect.any(Number) });
    expect(measure.note?.en).toBe('27030, 47030, 23030, 24030, 7030');
    expect(sim.requestCount()).toBe(5);
  });

  it('fails at once against a dead host, saying the connection was refused', async () => {
    const port = await closedPort();
    const [route] = russianPostCheckSteps({ baseUrl: `http://127.0.0.1:${port}` });
    const started = performance.now();
    await expect(route!.run(AbortSignal.timeout(10_000))).rejects.toThrow(
      /Russian Post: network error: connection refused/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
