// CDEK's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { startCdekSimulator } from '../simulators/cdek';
import { createCdekAdapter } from './adapter';
import type { CdekField } from './descriptor';

/** Credentials between the sandbox adapter and simulator only; not a real account. */
const SANDBOX = { id: 'ratedesk-sandbox', secret: 'ratedesk-sandbox-secret' } as const;

export const implementation: CarrierImplementation<CdekField> = {
  create: ({ baseUrl, simulated }, s, environment) =>
    createCdekAdapter({
      baseUrl,
      ...(simulated
        ? { clientId: SANDBOX.id, clientSecret: SANDBOX.secret }
        : { clientId: s.get('client_id') || null, clientSecret: s.get('client_secret') || null }),
      contractType: s.get('contract_type') === '2' ? 2 : 1,
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) =>
    startCdekSimulator({ latencyMs, clientId: SANDBOX.id, clientSecret: SANDBOX.secret }),
};
