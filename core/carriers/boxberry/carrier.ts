// Boxberry's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { startBoxberrySimulator } from '../simulators/boxberry';
import { createBoxberryAdapter } from './adapter';
import type { BoxberryField } from './descriptor';

/** A token between the sandbox adapter and simulator only; not a real account. */
const SANDBOX_TOKEN = 'ratedesk-sandbox-boxberry-token';

export const implementation: CarrierImplementation<BoxberryField> = {
  create: ({ baseUrl, simulated }, s, environment) =>
    createBoxberryAdapter({
      baseUrl,
      token: simulated ? SANDBOX_TOKEN : s.get('token') || null,
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) => startBoxberrySimulator({ latencyMs, token: SANDBOX_TOKEN }),
};
