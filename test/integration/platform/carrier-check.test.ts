// The live check of every built-in carrier through its runner (`carriers check CODE`, «Проверить»), over real
// HTTP on 127.0.0.1: in sandbox mode each passes against a fresh simulator; in live mode against a dead host the
// first step fails at once, saying the connection was refused, and the rest are skipped; against the carrier's
// simulator holding another account than the one in settings, the auth step fails.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_DESCRIPTORS } from '../../../core/carriers/built-in';
import type { CarrierSettingsDescription } from '../../../core/carriers/descriptor';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { CarrierCheckReport } from '../../../core/contract/operations';
import { builtInCarrier } from '../../../core/platform/built-in-carriers';
import { runCarrierCheck } from '../../../core/platform/carrier-check';
import { SettingsView } from '../../../core/settings/view';
import { openStore, type Store } from '../../../core/store';
import { silentLogger } from '../../../core/util/logger';
import { closedPort } from '../../helpers/carrier-check';

const open: Array<Store | SimulatorHandle> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

async function settings(values: Record<string, string>): Promise<SettingsView> {
  const store = openStore(':memory:');
  open.push(store);
  await store.settings.write(
    Object.entries(values).map(([name, value]) => ({ name, value })),
    new Date().toISOString(),
  );
  return new SettingsView(store.settings);
}

/**
 * Live mode with this carrier at `baseUrl` and every account field of it set to a made-up value that passes
 * local checks (DPD's client number is digits), so only the carrier can refuse it.
 */
function liveAt(code: string, baseUrl: string): Record<string, string> {
  const account = Object.keys(credentialsOf(code)).map((f) => [`carriers.${code}.${f}`, '1000000001']);
  return {
    sandbox: 'off',
    [`carriers.${code}.endpoint`]: 'custom',
    [`carriers.${code}.base_url`]: baseUrl,
    ...Object.fromEntries(account),
  };
}

const CODES = CARRIER_DESCRIPTORS.map((d) => d.code);

function credentialsOf(code: string): NonNullable<CarrierSettingsDescription['credentials']> {
  const spec: CarrierSettingsDescription = CARRIER_DESCRIPTORS.find((d) => d.code === code)!.settings;
  return spec.credentials ?? {};
}

describe('carriers check', () => {
  it.each(CODES)('%s passes every step against its simulator in sandbox mode', async (code) => {
    const report = await runCarrierCheck(code, { settings: await settings({}), logger: silentLogger });
    expect(CarrierCheckReport.parse(report)).toEqual(report);
    expect(report.target).toEqual({ endpoint: 'sandbox', base_url: null });
    expect(report.steps.map((s) => [s.kind, s.status, s.error])).toEqual(
      report.steps.map((s) => [s.kind, 'passed', null]),
    );
    // Every carrier proves at least one route through its real adapter.
    const route = report.steps.find((s) => s.kind === 'route');
    expect(route?.measure?.items).toBeGreaterThan(0);
    expect(route?.measure?.cheapest_kopecks).toBeGreaterThan(0);
    // What a step saw is said in both UI languages: the Russian desk never shows an English sentence.
    for (const step of report.steps) {
      const note = step.measure?.note;
      if (note && /[a-z]{3,} [a-z]{3,}/.test(note.en)) expect(note.ru).not.toBe(note.en);
    }
    expect(report.ok).toBe(true);
  });

  it.each(CODES)('%s fails at its first step against a dead host, and skips the rest', async (code) => {
    const d = CARRIER_DESCRIPTORS.find((c) => c.code === code)!;
    const path = new URL(d.settings.production).pathname.replace(/\/$/, '');
    const base = `http://127.0.0.1:${await closedPort()}${path}`;
    const report = await runCarrierCheck(code, {
      settings: await settings(liveAt(code, base)),
      logger: silentLogger,
    });
    expect(report.target).toEqual({ endpoint: 'custom', base_url: base });
    expect(report.ok).toBe(false);
    const [first, ...rest] = report.steps;
    expect(first).toMatchObject({ status: 'failed', measure: null });
    expect(first!.error).toMatch(/connection refused/i);
    // Refused at once: nothing waited for the step's bound.
    expect(first!.ms).toBeLessThan(5_000);
    expect(rest.map((s) => s.status)).toEqual(rest.map(() => 'skipped'));
  });

  it.each(CODES.filter((c) => Object.keys(credentialsOf(c)).length > 0))(
    '%s fails its first step, naming the account, against its simulator holding another one',
    async (code) => {
      const sim = await (await builtInCarrier(code)).startSimulator({ latencyMs: 0 });
      open.push(sim);
      const report = await runCarrierCheck(code, {
        settings: await settings(liveAt(code, sim.url)),
        logger: silentLogger,
      });
      expect(report.ok).toBe(false);
      const failed = report.steps.find((s) => s.status === 'failed')!;
      // The first step that needs the account: a token, or (Dellin, whose appkey rides in every body) the
      // first directory call. It fails saying the carrier refused the account.
      expect(report.steps.indexOf(failed)).toBe(0);
      expect(failed.kind).toBe(code === 'dellin' ? 'directory' : 'auth');
      expect(failed.error).toMatch(/401|403|refused|rejected|invalid|appkey|credentials|token|токен/i);
    },
  );

  it('a step that does not answer within its bound fails saying so, within that bound', async () => {
    // A listener that accepts and never answers: the carrier hangs.
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    try {
      const started = performance.now();
      const report = await runCarrierCheck('russian-post', {
        settings: await settings(liveAt('russian-post', `http://127.0.0.1:${port}`)),
        logger: silentLogger,
        stepTimeoutMs: 1_000,
      });
      expect(report.steps[0]).toMatchObject({ status: 'failed', error: 'no answer within 1000 ms' });
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      silent.close();
    }
  });

  it('checks the endpoint it is given instead of the setting, for this run only', async () => {
    const view = await settings({ sandbox: 'off', 'carriers.russian-post.endpoint': 'production' });
    const report = await runCarrierCheck('russian-post', {
      settings: view,
      logger: silentLogger,
      endpoint: 'simulator',
    });
    expect(report.target).toEqual({ endpoint: 'simulator', base_url: null });
    expect(report.ok).toBe(true);
    expect(view.get('carriers.russian-post.endpoint')).toBe('production');
  });
});
