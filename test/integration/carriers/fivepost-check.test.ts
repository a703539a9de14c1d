// 5Post's live check steps (core/carriers/fivepost/check.ts) against its simulator, a dead host, and a
// simulator that expects another API key.
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_STEP_KINDS, type CarrierCheckStep, type CheckMeasure } from '../../../core/carriers/check';
import { memoryCatalogueStore } from '../../../core/carriers/fivepost';
import { CATALOGUE_PAGE_SIZE } from '../../../core/carriers/fivepost/catalogue';
import { fivePostCheckSteps } from '../../../core/carriers/fivepost/check';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import {
  startFivePostSimulator,
  type FivePostSimulatorHandle,
} from '../../../core/carriers/simulators/fivepost';
import { closedPort } from '../../helpers/carrier-check';

const sims: FivePostSimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function sim(apiKey: string): Promise<FivePostSimulatorHandle> {
  const s = await startFivePostSimulator({ apiKey });
  sims.push(s);
  return s;
}

/** Runs the steps in order as the runner does, stopping at the first failure. */
async function runAll(steps: CarrierCheckStep[]) {
  const results: Array<{ kind: string; measure?: CheckMeasure; error?: string }> = [];
  for (const step of steps) {
    try {
      results.push({ kind: step.kind, measure: await step.run(AbortSignal.timeout(10_000)) });
    } catch (err) {
      results.push({ kind: step.kind, error: (err as Error).message });
      break;
    }
  }
  return results;
}

describe('5Post check steps', () => {
  it('are auth, directory, size, route, each with a subject and a hint in both languages', () => {
    const steps = fivePostCheckSteps({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
    expect(steps.map((s) => s.kind)).toEqual([...CHECK_STEP_KINDS]);
    for (const s of steps) {
      expect(s.subject).not.toBe('');
      expect(s.hint.ru).toMatch(/[а-я]/);
      expect(s.hint.en).toMatch(/[a-z]/);
    }
  });

  it('all pass against the simulator, measuring page 0 against the cap and pricing Москва → Казань', async () => {
    const s = await sim('check-key');
    const results = await runAll(
      fivePostCheckSteps({ baseUrl: s.url, apiKey: 'check-key', store: memoryCatalogueStore() }),
    );
    expect(results.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
    const [auth, directory, size, route] = results.map((r) => r.measure!);
    expect(auth!.note?.en).toBe('JWT valid 60 min');
    expect(directory).toMatchObject({ items: 10 });
    expect(directory!.note?.en).toMatch(
      /^\d+ points in the catalogue; first point in «.+ г»: placed by its FIAS code$/,
    );
    expect(size!.limitBytes).toBe(MAX_CARRIER_RESPONSE_BYTES);
    expect(size!.items).toBeGreaterThan(100);
    expect(size!.items).toBeLessThanOrEqual(CATALOGUE_PAGE_SIZE);
    expect(size!.bytes! / size!.items!).toBeGreaterThan(1_900); // the simulator's points are 5Post-sized
    expect(size!.bytes).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES);
    expect(route).toMatchObject({ items: 3, cheapestKopecks: expect.any(Number) });
    expect(route!.cheapestKopecks).toBeGreaterThan(0);
  });

  it('fail at auth against a dead host, saying the connection was refused', async () => {
    const results = await runAll(
      fivePostCheckSteps({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'check-key' }),
    );
    expect(results).toEqual([
      { kind: 'auth', error: expect.stringMatching(/network error: connection refused \(ECONNREFUSED\)/) },
    ]);
  });

  it('fail at auth when 5Post refuses the key, in 5Post’s words', async () => {
    const s = await sim('the-right-key');
    const results = await runAll(fivePostCheckSteps({ baseUrl: s.url, apiKey: 'another-key' }));
    expect(results).toEqual([
      { kind: 'auth', error: expect.stringMatching(/5Post rejected the API key \(Invalid ApiKey\)/) },
    ]);
    expect(s.pageRequests()).toBe(0);
  });

  it('fail at auth without a key, naming the setting', async () => {
    const results = await runAll(fivePostCheckSteps({ baseUrl: 'http://127.0.0.1:1', apiKey: null }));
    expect(results).toEqual([{ kind: 'auth', error: expect.stringMatching(/carriers\.5post\.apikey/) }]);
  });
});
