// Деловые Линии's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { startDellinSimulator } from '../simulators/dellin';
import { createDellinAdapter, type DellinAdapterOptions } from './adapter';
import { dellinCheckSteps } from './check';
import type { DellinField } from './descriptor';

/** An appkey between the sandbox adapter and simulator only; not a real one. */
const SANDBOX_APPKEY = 'ratedesk-sandbox-dellin-appkey';

function options(
  { baseUrl, simulated }: AdapterTarget,
  s: CarrierSettingsReader<DellinField>,
  environment: CarrierEnvironment,
): DellinAdapterOptions {
  return {
    baseUrl,
    appkey: simulated ? SANDBOX_APPKEY : s.get('appkey') || null,
    ...(environment.now ? { now: environment.now } : {}),
    locations: environment.locations,
    logger: environment.logger,
  };
}

export const implementation: CarrierImplementation<DellinField> = {
  create: (target, s, environment) => createDellinAdapter(options(target, s, environment)),
  checks: (target, s, environment) => dellinCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) => startDellinSimulator({ latencyMs, appkey: SANDBOX_APPKEY }),
};
