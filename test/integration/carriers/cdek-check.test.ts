// CDEK's live check steps (issue #15 item 6) over real HTTP on 127.0.0.1: every step passes against the
// simulator; against a dead host the first step (the token) fails at once, saying so; against a simulator
// that holds another account the auth step fails naming the credentials.
import { afterEach, describe, expect, it } from 'vitest';
import { cdekCheckSteps } from '../../../core/carriers/cdek/check';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import {
  CDEK_TEST_CLIENT_ID,
  CDEK_TEST_CLIENT_SECRET,
  startCdekSimulator,
  type CdekSimulatorHandle,
} from '../../../core/carriers/simulators/cdek';
import { closedPort, runSteps } from '../../helpers/carrier-check';

const sims: CdekSimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const account = { clientId: CDEK_TEST_CLIENT_ID, clientSecret: CDEK_TEST_CLIENT_SECRET };

describe('CDEK check steps', () => {
  it('declare auth, directory, size and route, each with a subject and a hint in both languages', () => {
    const steps = cdekCheckSteps({ baseUrl: 'http://127.0.0.1:1/v2', ...account });
    expect(steps.map((s) => s.kind)).toEqual(['auth', 'directory', 'size', 'route']);
    for (const s of steps) {
      expect(s.hint.ru).toMatch(/[а-я]/);
      expect(s.hint.en).toMatch(/[a-z]/);
    }
    expect(steps[0]!.hint.en).toContain('cdek-it/wordpress#82');
  });

  it('all pass against the simulator: a token, Москва as code 44, the answer’s size, rates', async () => {
    const sim = await startCdekSimulator();
    sims.push(sim);
    const seen = await runSteps(cdekCheckSteps({ baseUrl: sim.url, ...account }));
    expect(seen.map((s) => [s.kind, s.ok, s.error])).toEqual([
      ['auth', true, undefined],
      ['directory', true, undefined],
      ['size', true, undefined],
      ['route', true, undefined],
    ]);
    expect(seen[0]!.measure!.note?.en).toBe('token issued for 3599 s');
    expect(seen[1]!.measure).toMatchObject({ note: { en: 'Москва is code 44' } });
    expect(seen[2]!.measure).toMatchObject({ limitBytes: MAX_CARRIER_RESPONSE_BYTES });
    expect(seen[2]!.measure!.bytes!).toBeGreaterThan(10);
    expect(seen[2]!.measure!.items).toBe(seen[1]!.measure!.items);
    expect(seen[3]!.measure!.items!).toBeGreaterThan(0);
    expect(seen[3]!.measure!.cheapestKopecks!).toBeGreaterThan(0);
    // The directory and size steps share one answer and one token with the auth step.
    expect(sim.tokenRequests()).toBe(2); // the check's token, then the route's adapter's own
  });

  it('against a dead host the token step fails at once, saying the connection was refused', async () => {
    const port = await closedPort();
    const seen = await runSteps(cdekCheckSteps({ baseUrl: `http://127.0.0.1:${port}/v2`, ...account }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'auth', ok: false });
    expect(seen[0]!.error).toMatch(/^CDEK token request failed: network error: connection refused/);
    expect(seen[0]!.ms).toBeLessThan(5_000);
  });

  it('against a simulator holding another account the auth step fails naming the credentials', async () => {
    const sim = await startCdekSimulator({ clientId: 'another-id', clientSecret: 'another-secret' });
    sims.push(sim);
    const seen = await runSteps(cdekCheckSteps({ baseUrl: sim.url, ...account }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'auth', ok: false });
    expect(seen[0]!.error).toMatch(/CDEK rejected the credentials \(invalid_client/);
  });

  it('without a secret the auth step fails before any call', async () => {
    const sim = await startCdekSimulator();
    sims.push(sim);
    const seen = await runSteps(
      cdekCheckSteps({ baseUrl: sim.url, clientId: CDEK_TEST_CLIENT_ID, clientSecret: null }),
    );
    expect(seen[0]).toMatchObject({
      kind: 'auth',
      ok: false,
      error: expect.stringMatching(/client secret is not set/),
    });
    expect(sim.requestCount()).toBe(0);
  });
});
