// 5Post's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { startFivePostSimulator } from '../simulators/fivepost';
import { createFivePostAdapter, type FivePostAdapterOptions } from './adapter';
import { memoryCatalogueStore } from './catalogue-store';
import { withPoints } from '../point-directory';
import { fivePostCheckSteps } from './check';
import { fivePostPointDirectory } from './directory';
import type { FivepostField } from './descriptor';

/** An API key between the sandbox adapter and simulator only; not a real one. */
const SANDBOX_KEY = 'ratedesk-sandbox-5post-key';

function options(
  { baseUrl, simulated }: AdapterTarget,
  s: CarrierSettingsReader<FivepostField>,
  environment: CarrierEnvironment,
): FivePostAdapterOptions {
  return {
    baseUrl,
    apiKey: simulated ? SANDBOX_KEY : s.get('apikey') || null,
    overweight: s.get('overweight') === 'proportional' ? 'proportional' : 'per_started_kg',
    // The check's route step quotes from the catalogue the quotes keep: without it, a check would download
    // all 25,000 points again and spend one of 5Post's few daily downloads.
    store: environment.pickupCatalogue ?? memoryCatalogueStore(),
    locations: environment.locations,
    logger: environment.logger,
    ...(environment.coordination ? { coordination: environment.coordination } : {}),
  };
}

export const implementation: CarrierImplementation<FivepostField> = {
  create: (target, s, environment) => {
    const o = options(target, s, environment);
    const adapter = createFivePostAdapter(o);
    return withPoints(
      adapter,
      fivePostPointDirectory({
        baseUrl: o.baseUrl,
        store: o.store ?? memoryCatalogueStore(),
        simulated: target.simulated,
        adapter: () => adapter,
      }),
    );
  },
  checks: (target, s, environment) => fivePostCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) => startFivePostSimulator({ latencyMs, apiKey: SANDBOX_KEY }),
};
