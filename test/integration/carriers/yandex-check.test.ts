// Yandex Delivery's live check steps (issue #15 item 6) over real HTTP on 127.0.0.1: every step passes against
// the simulator; against a dead host the first step fails at once, saying so; against a simulator holding
// another token the auth step fails naming the token; without a token nothing is called.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { startYandexSimulator, YANDEX_SIM_TOKEN } from '../../../core/carriers/simulators/yandex';
import { yandexCheckSteps } from '../../../core/carriers/yandex';
import { closedPort, runSteps } from '../../helpers/carrier-check';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

describe('Yandex check steps', () => {
  it('declare auth, directory, size and route, each with a subject and a hint in both languages', () => {
    const steps = yandexCheckSteps({ baseUrl: 'http://127.0.0.1:1', token: 'y2' });
    expect(steps.map((s) => s.kind)).toEqual(['auth', 'directory', 'size', 'route']);
    for (const s of steps) {
      expect(s.subject).not.toBe('');
      expect(s.hint.ru).toMatch(/[а-я]/);
      expect(s.hint.en).toMatch(/[a-z]/);
    }
    expect(steps[3]!.subject).toMatch(/Москва .*→ Москва/);
    expect(steps[3]!.hint.en).toMatch(/Moscow addresses only/);
  });

  it('all pass against the simulator: the token, Москва as geo_id 213, a bounded list, rates', async () => {
    const sim = await startYandexSimulator();
    sims.push(sim);
    const seen = await runSteps(yandexCheckSteps({ baseUrl: sim.url, token: YANDEX_SIM_TOKEN }));
    expect(seen.map((s) => [s.kind, s.ok, s.error])).toEqual([
      ['auth', true, undefined],
      ['directory', true, undefined],
      ['size', true, undefined],
      ['route', true, undefined],
    ]);
    expect(seen[1]!.measure).toMatchObject({ note: { en: 'Москва is geo_id 213' } });
    const size = seen[2]!.measure!;
    expect(size.limitBytes).toBe(MAX_CARRIER_RESPONSE_BYTES);
    expect(size.items!).toBeGreaterThan(10);
    expect(size.bytes!).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 4);
    expect(seen[3]!.measure!.items!).toBeGreaterThan(0);
    expect(seen[3]!.measure!.cheapestKopecks!).toBeGreaterThan(0);
  });

  it('against a dead host the auth step fails at once, saying the connection was refused', async () => {
    const port = await closedPort();
    const seen = await runSteps(yandexCheckSteps({ baseUrl: `http://127.0.0.1:${port}`, token: 'y2' }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'auth', ok: false });
    expect(seen[0]!.error).toMatch(/pickup-points\/list: network error: connection refused/);
    expect(seen[0]!.ms).toBeLessThan(5_000);
  });

  it('against a simulator holding another token the auth step fails naming the token', async () => {
    const sim = await startYandexSimulator({ token: 'another-token' });
    sims.push(sim);
    const seen = await runSteps(yandexCheckSteps({ baseUrl: sim.url, token: YANDEX_SIM_TOKEN }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      kind: 'auth',
      ok: false,
      error: 'Yandex rejected the token (HTTP 401: unauthorized: Access denied)',
    });
  });

  it('without a token the auth step fails before any call', async () => {
    const sim = await startYandexSimulator();
    sims.push(sim);
    const seen = await runSteps(yandexCheckSteps({ baseUrl: sim.url, token: ' ' }));
    expect(seen[0]).toMatchObject({
      kind: 'auth',
      ok: false,
      error: expect.stringMatching(/token is not set/),
    });
    expect(sim.requestCount()).toBe(0);
  });
});
