// DPD's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { startDpdSimulator } from '../simulators/dpd';
import { createDpdAdapter, type DpdAdapterOptions } from './adapter';
import { withPoints } from '../point-directory';
import { dpdCheckSteps } from './check';
import type { DpdField } from './descriptor';
import { createDpdPointDirectory } from './points';

/** An account between the sandbox adapter and simulator only; not a real one. */
const SANDBOX = { clientNumber: '9999999999', clientKey: 'ratedesk-sandbox-dpd-key' } as const;

function options(
  { baseUrl, simulated }: AdapterTarget,
  s: CarrierSettingsReader<DpdField>,
  environment: CarrierEnvironment,
): DpdAdapterOptions {
  return {
    baseUrl,
    ...(simulated
      ? SANDBOX
      : { clientNumber: s.get('client_number') || null, clientKey: s.get('client_key') || null }),
    contractCurrency: simulated ? 'RUB' : s.get('contract_currency'),
    locations: environment.locations,
    logger: environment.logger,
  };
}

export const implementation: CarrierImplementation<DpdField> = {
  create: (target, s, environment) => {
    const o = options(target, s, environment);
    return withPoints(createDpdAdapter(o), createDpdPointDirectory(o));
  },
  checks: (target, s, environment) => dpdCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) => startDpdSimulator({ latencyMs, ...SANDBOX }),
};
