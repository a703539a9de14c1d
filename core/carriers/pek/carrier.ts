// PEK's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from '../simulators/pek';
import { createPekAdapter, type PekAdapterOptions } from './adapter';
import { pekCheckSteps } from './check';
import type { PekField } from './descriptor';
import { parsePekTypes } from './products';
import { NO_RATE_LIMIT, pekLimiterFor } from './rate-limit';

function options(
  { baseUrl, simulated }: AdapterTarget,
  s: CarrierSettingsReader<PekField>,
  environment: CarrierEnvironment,
): PekAdapterOptions {
  return {
    baseUrl,
    ...(simulated
      ? // PEK's 100 requests a minute is PEK's, not the simulator's (pek/rate-limit.ts).
        { login: PEK_SIM_LOGIN, apiKey: PEK_SIM_API_KEY, limiter: NO_RATE_LIMIT }
      : {
          login: s.get('login') || null,
          apiKey: s.get('api_key') || null,
          // On a company server the 100 a minute is the whole company's, whichever instance asks.
          ...(environment.coordination
            ? { limiter: pekLimiterFor(new URL(baseUrl).origin, s.get('login'), environment.coordination) }
            : {}),
        }),
    types: parsePekTypes(s.get('types')),
    locations: environment.locations,
    logger: environment.logger,
  };
}

export const implementation: CarrierImplementation<PekField> = {
  create: (target, s, environment) => createPekAdapter(options(target, s, environment)),
  // The check's calls go through the same per-login limiter as the quotes: they count towards PEK's 100 a minute.
  checks: (target, s, environment) => pekCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) => startPekSimulator({ latencyMs }),
};
