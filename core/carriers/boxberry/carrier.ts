// Boxberry's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { startBoxberrySimulator } from '../simulators/boxberry';
import { createBoxberryAdapter, type BoxberryAdapterOptions } from './adapter';
import { withPoints } from '../point-directory';
import { boxberryCheckSteps } from './check';
import type { BoxberryField } from './descriptor';
import { createBoxberryPointDirectory } from './points';

/** A token between the sandbox adapter and simulator only; not a real account. */
const SANDBOX_TOKEN = 'ratedesk-sandbox-boxberry-token';

function options(
  { baseUrl, simulated }: AdapterTarget,
  s: CarrierSettingsReader<BoxberryField>,
  environment: CarrierEnvironment,
): BoxberryAdapterOptions {
  return {
    baseUrl,
    token: simulated ? SANDBOX_TOKEN : s.get('token') || null,
    locations: environment.locations,
    logger: environment.logger,
  };
}

export const implementation: CarrierImplementation<BoxberryField> = {
  create: (target, s, environment) => {
    const o = options(target, s, environment);
    return withPoints(createBoxberryAdapter(o), createBoxberryPointDirectory(o));
  },
  checks: (target, s, environment) => boxberryCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) => startBoxberrySimulator({ latencyMs, token: SANDBOX_TOKEN }),
};
