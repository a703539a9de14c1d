import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { startRussianPostSimulator } from '../../../core/carriers/simulators/russian-post';

const QUERY =
  'json&object=23030&from=101000&to=630000&weight=1200&pack=20&date=20250310&time=1000&errorcode=1';

describe('Russian Post simulator server', () => {
  const sims: SimulatorHandle[] = [];
  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });
  async function start(latencyMs?: number): Promise<SimulatorHandle> {
    const sim = await startRussianPostSimulator(latencyMs === undefined ? {} : { latencyMs });
    sims.push(sim);
    return sim;
  }

  it('listens on 127.0.0.1 and answers the §1.9 request', async () => {
    const sim = await start();
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${sim.url}/v2/calculate/tariff/delivery?${QUERY}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({
      id: 23030,
      name: 'Посылка онлайн обыкновенная',
      paynds: expect.any(Number),
    });
    expect(sim.requestCount()).toBe(1);
  });

  it('answers errors with 400 under errorcode=1 and 200 under errorcode=0', async () => {
    const sim = await start();
    const bad = await fetch(
      `${sim.url}/v2/calculate/tariff/delivery?${QUERY.replace('object=23030', 'object=1')}`,
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ code: 1205 }] });
    const soft = await fetch(
      `${sim.url}/v2/calculate/tariff/delivery?${QUERY.replace('object=23030', 'object=1').replace('errorcode=1', 'errorcode=0')}`,
    );
    expect(soft.status).toBe(200);
    expect(await soft.json()).toMatchObject({ errors: [{ code: 1205 }] });
  });

  it('refuses other paths, methods and output formats', async () => {
    const sim = await start();
    expect((await fetch(`${sim.url}/v2/calculate/tariff?${QUERY}`)).status).toBe(404);
    expect((await fetch(`${sim.url}/v2/calculate/tariff/delivery?${QUERY}`, { method: 'POST' })).status).toBe(
      405,
    );
    expect(
      (await fetch(`${sim.url}/v2/calculate/tariff/delivery?${QUERY.replace('json&', '')}`)).status,
    ).toBe(400);
  });

  it('delays answers by latencyMs', async () => {
    const sim = await start(150);
    const started = Date.now();
    const res = await fetch(`${sim.url}/v2/calculate/tariff/delivery?${QUERY}`);
    expect(res.status).toBe(200);
    // The delay is the feature; only a lower bound, with slack for timer granularity.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('closes quickly while a request hangs, and close() can be called twice', async () => {
    const sim = await startRussianPostSimulator({ latencyMs: 60_000 });
    const hanging = fetch(
      `${sim.url}/v2/calculate/tariff/delivery?${QUERY.replace('to=630000', `to=${CARRIER_TRIGGERS['russian-post'].timeout}`)}`,
    ).catch((err: unknown) => err);
    const delayed = fetch(`${sim.url}/v2/calculate/tariff/delivery?${QUERY}`).catch((err: unknown) => err);
    while (sim.requestCount() < 2) await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await sim.close();
    await sim.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await hanging).toBeInstanceOf(Error);
    expect(await delayed).toBeInstanceOf(Error);
  });
});
