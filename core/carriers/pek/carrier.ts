// PEK's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from '../simulators/pek';
import { createPekAdapter } from './adapter';
import type { PekField } from './descriptor';
import { parsePekTypes } from './products';
import { NO_RATE_LIMIT } from './rate-limit';

export const implementation: CarrierImplementation<PekField> = {
  create: ({ baseUrl, simulated }, s, environment) =>
    createPekAdapter({
      baseUrl,
      ...(simulated
        ? // PEK's 100 requests a minute is PEK's, not the simulator's (pek/rate-limit.ts).
          { login: PEK_SIM_LOGIN, apiKey: PEK_SIM_API_KEY, limiter: NO_RATE_LIMIT }
        : { login: s.get('login') || null, apiKey: s.get('api_key') || null }),
      types: parsePekTypes(s.get('types')),
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) => startPekSimulator({ latencyMs }),
};
