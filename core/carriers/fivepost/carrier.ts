// 5Post's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { startFivePostSimulator } from '../simulators/fivepost';
import { createFivePostAdapter } from './adapter';
import { memoryCatalogueStore, sqliteCatalogueStore } from './catalogue-store';
import type { FivepostField } from './descriptor';

/** An API key between the sandbox adapter and simulator only; not a real one. */
const SANDBOX_KEY = 'ratedesk-sandbox-5post-key';

export const implementation: CarrierImplementation<FivepostField> = {
  create: ({ baseUrl, simulated }, s, environment) =>
    createFivePostAdapter({
      baseUrl,
      apiKey: simulated ? SANDBOX_KEY : s.get('apikey') || null,
      overweight: s.get('overweight') === 'proportional' ? 'proportional' : 'per_started_kg',
      store: environment.db ? sqliteCatalogueStore(environment.db) : memoryCatalogueStore(),
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) => startFivePostSimulator({ latencyMs, apiKey: SANDBOX_KEY }),
};
