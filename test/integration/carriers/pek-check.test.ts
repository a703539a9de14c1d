// PEK's live check steps (core/carriers/pek/check.ts, issue #15 item 6) against the PEK simulator (every step
// passes, in a handful of PEK's 100 requests a minute), against a dead host (the first network step fails,
// clearly and at once) and against a simulator expecting another account (the auth step fails).
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_STEP_KINDS } from '../../../core/carriers/check';
import { pekCheckSteps } from '../../../core/carriers/pek/check';
import { NO_RATE_LIMIT, slidingWindowLimiter } from '../../../core/carriers/pek/rate-limit';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from '../../../core/carriers/simulators/pek';
import { closedPort, runSteps } from '../../helpers/carrier-check';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const account = { login: PEK_SIM_LOGIN, apiKey: PEK_SIM_API_KEY, limiter: NO_RATE_LIMIT };

describe('PEK check steps', () => {
  it('declare auth, directory and route in the runner’s order, each with a subject and hints in both languages', () => {
    const steps = pekCheckSteps({ baseUrl: 'http://127.0.0.1:1/api/v1', ...account });
    expect(steps.map((s) => s.kind)).toEqual(['auth', 'directory', 'route']);
    const order = steps.map((s) => CHECK_STEP_KINDS.indexOf(s.kind));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const s of steps) {
      expect(s.subject).not.toBe('');
      expect(s.hint.ru.length).toBeGreaterThan(20);
      expect(s.hint.en.length).toBeGreaterThan(20);
    }
  });

  it('all pass against the simulator, within PEK’s limit: at most six calls, the share of one asker', async () => {
    // The simulator answers 429 past 6 a minute: the check must never get there. A window of 12 gives one
    // asker 6 (fair shares, #16).
    const sim = await startPekSimulator({ requestsPerMinute: 6 });
    sims.push(sim);
    const limiter = slidingWindowLimiter({ limit: 12, windowMs: 60_000, maxWaitMs: 50 });
    const results = await runSteps(pekCheckSteps({ baseUrl: sim.url, ...account, limiter, types: [3, 1] }));
    expect(results.map((r) => [r.kind, r.ok])).toEqual([
      ['auth', true],
      ['directory', true],
      ['route', true],
    ]);
    const [auth, directory, route] = results.map((r) => (r.ok ? r.measure : {}));
    expect(auth).toMatchObject({ items: 4, note: { en: expect.stringContaining('3') } });
    expect(directory).toMatchObject({
      items: 1,
      note: { en: expect.stringMatching(/^Москва: warehouse [0-9a-f-]{36}$/) },
    });
    expect(route!.items).toBeGreaterThan(0);
    expect(route!.cheapestKopecks).toBeGreaterThan(0);
    expect(route!.note?.en).toContain('pek:3:terminal');
    expect(sim.requestCount()).toBeLessThanOrEqual(6);
  });

  it('a product PEK does not list fails the auth step, naming it', async () => {
    const sim = await startPekSimulator();
    sims.push(sim);
    const results = await runSteps(pekCheckSteps({ baseUrl: sim.url, ...account, types: [3, 7] }));
    expect(results).toMatchObject([
      { kind: 'auth', ok: false, error: expect.stringContaining('products 7') },
    ]);
  });

  it('against a dead host the first network step fails at once, saying the connection was refused', async () => {
    const started = performance.now();
    const results = await runSteps(
      pekCheckSteps({ baseUrl: `http://127.0.0.1:${await closedPort()}/api/v1`, ...account }),
    );
    expect(results).toMatchObject([
      { kind: 'auth', ok: false, error: expect.stringMatching(/connection refused/i) },
    ]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('against a simulator expecting another account the auth step fails with PEK’s answer', async () => {
    const sim = await startPekSimulator({ login: 'someone-else', apiKey: 'their-key' });
    sims.push(sim);
    const results = await runSteps(pekCheckSteps({ baseUrl: sim.url, ...account }));
    expect(results).toMatchObject([
      {
        kind: 'auth',
        ok: false,
        error: 'PEK answered HTTP 401: Ошибка авторизации: Неверный логин или ключ API',
      },
    ]);
    expect(sim.requestCount()).toBe(1);
  });

  it('without a login the first step says so and calls nothing', async () => {
    const sim = await startPekSimulator();
    sims.push(sim);
    const results = await runSteps(pekCheckSteps({ baseUrl: sim.url, ...account, login: '' }));
    expect(results).toMatchObject([
      { kind: 'auth', ok: false, error: expect.stringContaining('login is not set') },
    ]);
    expect(sim.requestCount()).toBe(0);
  });
});
