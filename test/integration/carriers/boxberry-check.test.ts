// Boxberry's live check steps (issue #15 item 6) over real HTTP on 127.0.0.1: every step passes against the
// simulator (whose ListCitiesFull, like the real one, is over the 1 MiB cap, so the size step reports the
// ListCities fallback); against a dead host the first step fails at once; against a simulator holding another
// token the auth step fails with Boxberry's words; without a token nothing is called.
import { afterEach, describe, expect, it } from 'vitest';
import { boxberryCheckSteps, CITY_LIST_MAX_BYTES } from '../../../core/carriers/boxberry';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import {
  startBoxberrySimulator,
  type BoxberrySimulatorHandle,
} from '../../../core/carriers/simulators/boxberry';
import { closedPort, runSteps } from '../../helpers/carrier-check';

const TOKEN = 'check-token';
const sims: BoxberrySimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function sim(token = TOKEN): Promise<BoxberrySimulatorHandle> {
  const s = await startBoxberrySimulator({ token });
  sims.push(s);
  return s;
}

describe('Boxberry check steps', () => {
  it('declare auth, directory, size and route, each with a subject and a hint in both languages', () => {
    const steps = boxberryCheckSteps({ baseUrl: 'http://127.0.0.1:1/json.php', token: TOKEN });
    expect(steps.map((s) => s.kind)).toEqual(['auth', 'directory', 'size', 'route']);
    for (const s of steps) {
      expect(s.hint.ru).toMatch(/[а-я]/);
      expect(s.hint.en).toMatch(/[a-z]/);
    }
    expect(steps[2]!.hint.en).toMatch(/ListCities/);
  });

  it('all pass against the simulator held to 1 MiB: the token, Москва, the ListCities fallback, rates', async () => {
    const s = await sim();
    const seen = await runSteps(
      boxberryCheckSteps({ baseUrl: s.url, token: TOKEN, cityListMaxBytes: MAX_CARRIER_RESPONSE_BYTES }),
    );
    expect(seen.map((x) => [x.kind, x.ok, x.error])).toEqual([
      ['auth', true, undefined],
      ['directory', true, undefined],
      ['size', true, undefined],
      ['route', true, undefined],
    ]);
    expect(seen[1]!.measure!.note?.en).toBe('Москва is code 68, Reception 1, from ListCities');
    const size = seen[2]!.measure!;
    expect(size.limitBytes).toBe(MAX_CARRIER_RESPONSE_BYTES);
    expect(size.bytes!).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES);
    expect(size.items!).toBeGreaterThan(400);
    expect(size.note?.en).toMatch(/ListCitiesFull is over the cap/);
    expect(seen[3]!.measure!.items).toBe(2);
    expect(s.methodCount('ListCitiesFull')).toBeGreaterThan(0);
  });

  it('with the city list’s own cap (the default), the size step weighs ListCitiesFull whole, thousands of rows', async () => {
    const s = await sim();
    const seen = await runSteps(boxberryCheckSteps({ baseUrl: s.url, token: TOKEN }));
    expect(seen.every((x) => x.ok)).toBe(true);
    expect(seen[2]!.measure).toMatchObject({
      limitBytes: CITY_LIST_MAX_BYTES,
      note: { en: 'ListCitiesFull' },
    });
    expect(seen[2]!.measure!.bytes!).toBeGreaterThan(MAX_CARRIER_RESPONSE_BYTES);
    expect(seen[2]!.measure!.items!).toBeGreaterThan(2_500);
  });

  it('against a dead host the auth step fails at once, saying the connection was refused', async () => {
    const port = await closedPort();
    const seen = await runSteps(
      boxberryCheckSteps({ baseUrl: `http://127.0.0.1:${port}/json.php`, token: TOKEN }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'auth', ok: false });
    expect(seen[0]!.error).toMatch(/^Boxberry ZipCheck: network error: connection refused/);
    expect(seen[0]!.ms).toBeLessThan(5_000);
  });

  it('against a simulator holding another token the auth step fails with Boxberry’s words', async () => {
    const s = await sim('another-token');
    const seen = await runSteps(boxberryCheckSteps({ baseUrl: s.url, token: TOKEN }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      kind: 'auth',
      ok: false,
      error: 'Boxberry ZipCheck: Неверный токен (token)',
    });
  });

  it('without a token the auth step fails before any call', async () => {
    const s = await sim();
    const seen = await runSteps(boxberryCheckSteps({ baseUrl: s.url, token: null }));
    expect(seen[0]).toMatchObject({
      kind: 'auth',
      ok: false,
      error: expect.stringMatching(/token is not set/),
    });
    expect(s.requestCount()).toBe(0);
  });
});
