// Деловые Линии's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { startDellinSimulator } from '../simulators/dellin';
import { createDellinAdapter } from './adapter';
import type { DellinField } from './descriptor';

/** An appkey between the sandbox adapter and simulator only; not a real one. */
const SANDBOX_APPKEY = 'ratedesk-sandbox-dellin-appkey';

export const implementation: CarrierImplementation<DellinField> = {
  create: ({ baseUrl, simulated }, s, environment) =>
    createDellinAdapter({
      baseUrl,
      appkey: simulated ? SANDBOX_APPKEY : s.get('appkey') || null,
      ...(environment.now ? { now: environment.now } : {}),
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) => startDellinSimulator({ latencyMs, appkey: SANDBOX_APPKEY }),
};
