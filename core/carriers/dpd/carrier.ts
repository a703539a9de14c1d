// DPD's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { startDpdSimulator } from '../simulators/dpd';
import { createDpdAdapter } from './adapter';
import type { DpdField } from './descriptor';

/** An account between the sandbox adapter and simulator only; not a real one. */
const SANDBOX = { clientNumber: '9999999999', clientKey: 'ratedesk-sandbox-dpd-key' } as const;

export const implementation: CarrierImplementation<DpdField> = {
  create: ({ baseUrl, simulated }, s, environment) =>
    createDpdAdapter({
      baseUrl,
      ...(simulated
        ? SANDBOX
        : { clientNumber: s.get('client_number') || null, clientKey: s.get('client_key') || null }),
      contractCurrency: simulated ? 'RUB' : s.get('contract_currency'),
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) => startDpdSimulator({ latencyMs, ...SANDBOX }),
};
