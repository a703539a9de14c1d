// CDEK's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { startCdekSimulator } from '../simulators/cdek';
import { createCdekAdapter, type CdekAdapterOptions } from './adapter';
import { withPoints } from '../point-directory';
import { cdekCheckSteps } from './check';
import type { CdekField } from './descriptor';
import { createCdekPointDirectory } from './points';

/** Credentials between the sandbox adapter and simulator only; not a real account. */
const SANDBOX = { id: 'ratedesk-sandbox', secret: 'ratedesk-sandbox-secret' } as const;

function options(
  { baseUrl, simulated }: AdapterTarget,
  s: CarrierSettingsReader<CdekField>,
  environment: CarrierEnvironment,
): CdekAdapterOptions {
  return {
    baseUrl,
    ...(simulated
      ? { clientId: SANDBOX.id, clientSecret: SANDBOX.secret }
      : { clientId: s.get('client_id') || null, clientSecret: s.get('client_secret') || null }),
    contractType: s.get('contract_type') === '2' ? 2 : 1,
    locations: environment.locations,
    logger: environment.logger,
    ...(environment.coordination ? { coordination: environment.coordination } : {}),
  };
}

export const implementation: CarrierImplementation<CdekField> = {
  create: (target, s, environment) => {
    const o = options(target, s, environment);
    return withPoints(createCdekAdapter(o), createCdekPointDirectory(o));
  },
  checks: (target, s, environment) => cdekCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) =>
    startCdekSimulator({ latencyMs, clientId: SANDBOX.id, clientSecret: SANDBOX.secret }),
};
