// The live check of one carrier (`npm run admin -- carriers check CODE`, the Carriers screen's «Проверить»):
// its own steps (core/carriers/<code>/check.ts) run one at a time against the endpoint and account in
// settings, each under its own bound and timed. The first failure stops the run, since every later step needs
// what it would have proved (a token, a city code); those are reported as skipped, not as failures of their
// own. In sandbox mode, or with endpoint `simulator`, the check runs against a fresh copy of the carrier's
// simulator, so a person can see what a passing run looks like before trying the real host.
import type { CarrierCheckStep, CheckMeasure } from '../carriers/check';
import type { FivePostCatalogueStore } from '../carriers/fivepost/catalogue-store';
import type { CarrierCode } from '../carriers/types';
import type { CarrierCheckReport, CarrierCheckStepReport, CarrierEndpoint } from '../contract/operations';
import { createLocationResolver } from '../locations/resolver';
import { liveBaseUrl } from '../settings/carrier-settings';
import type { SettingName } from '../settings/schema';
import type { SettingsView } from '../settings/view';
import type { Logger } from '../util/logger';
import { builtInCarrier } from './built-in-carriers';

/** A directory download may be slower than a quote; a dead host still fails within this. */
export const DEFAULT_STEP_TIMEOUT_MS = 20_000;

export interface CarrierCheckOptions {
  settings: SettingsView;
  logger: Logger;
  /**
   * The store's pickup-point catalogue, the data a carrier keeps between quotes (5Post's): the route step
   * quotes from it like the quotes do, rather than downloading all of it again.
   */
  pickupCatalogue?: FivePostCatalogueStore;
  /** Where to check instead of the carrier's endpoint setting (live mode only). */
  endpoint?: CarrierEndpoint;
  stepTimeoutMs?: number;
  now?: () => Date;
}

export async function runCarrierCheck(
  code: CarrierCode,
  options: CarrierCheckOptions,
): Promise<CarrierCheckReport> {
  const carrier = await builtInCarrier(code);
  const { settings } = options;
  const now = options.now ?? (() => new Date());
  const sandbox = settings.get('sandbox') === 'on';
  const endpoint =
    options.endpoint ?? (settings.get(`carriers.${code}.endpoint` as SettingName) as CarrierEndpoint);
  const live = sandbox
    ? null
    : liveBaseUrl(
        carrier.descriptor.settings,
        endpoint,
        settings.get(`carriers.${code}.base_url` as SettingName),
      );
  const startedAt = now();
  const started = performance.now();
  const simulator = live === null ? await carrier.startSimulator({ latencyMs: 0 }) : null;
  try {
    // A fresh resolver: the check asks the carrier's directories itself rather than reading what an earlier
    // quote cached. The data file only against a real host: a simulator's points must not land in it.
    const steps = carrier.checks({ baseUrl: live ?? simulator!.url, simulated: live === null }, settings, {
      locations: createLocationResolver({ logger: options.logger }),
      logger: options.logger,
      now,
      ...(options.pickupCatalogue && live !== null ? { pickupCatalogue: options.pickupCatalogue } : {}),
    });
    const reports = await runSteps(steps, options.stepTimeoutMs);
    return {
      code,
      name: carrier.descriptor.name,
      target: { endpoint: sandbox ? 'sandbox' : endpoint, base_url: live },
      ok: reports.every((r) => r.status === 'passed'),
      started_at: startedAt.toISOString(),
      ms: Math.round(performance.now() - started),
      steps: reports,
    };
  } finally {
    await simulator?.close();
  }
}

async function runSteps(
  steps: readonly CarrierCheckStep[],
  givenTimeoutMs: number | undefined,
): Promise<CarrierCheckStepReport[]> {
  const reports: CarrierCheckStepReport[] = [];
  let failed = false;
  for (const step of steps) {
    const base = { kind: step.kind, subject: step.subject, hint: step.hint };
    if (failed) {
      reports.push({ ...base, status: 'skipped', ms: null, measure: null, error: null });
      continue;
    }
    const t0 = performance.now();
    const stepTimeoutMs = givenTimeoutMs ?? step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
    const signal = AbortSignal.timeout(stepTimeoutMs);
    try {
      const measure = await untilAborted(step.run(signal), signal);
      reports.push({ ...base, status: 'passed', ms: elapsed(t0), measure: wire(measure), error: null });
    } catch (error) {
      failed = true;
      const said = signal.aborted
        ? `no answer within ${stepTimeoutMs} ms`
        : error instanceof Error
          ? error.message
          : String(error);
      reports.push({ ...base, status: 'failed', ms: elapsed(t0), measure: null, error: said });
    }
  }
  return reports;
}

/** A step that ignores its signal still ends at the bound: the person waiting is told, not left hanging. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

const elapsed = (t0: number): number => Math.round(performance.now() - t0);

function wire(m: CheckMeasure): NonNullable<CarrierCheckStepReport['measure']> {
  return {
    ...(m.bytes !== undefined ? { bytes: m.bytes } : {}),
    ...(m.limitBytes !== undefined ? { limit_bytes: m.limitBytes } : {}),
    ...(m.items !== undefined ? { items: m.items } : {}),
    ...(m.cheapestKopecks !== undefined ? { cheapest_kopecks: m.cheapestKopecks } : {}),
    ...(m.note !== undefined ? { note: m.note } : {}),
  };
}
