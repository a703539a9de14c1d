// Russian Post's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { startRussianPostSimulator } from '../simulators/russian-post';
import { createRussianPostAdapter } from './adapter';
import type { RussianPostField } from './descriptor';
import { parseObjectCodes } from './objects';

export const implementation: CarrierImplementation<RussianPostField> = {
  create: ({ baseUrl }, s, environment) =>
    createRussianPostAdapter({
      baseUrl,
      objects: parseObjectCodes(s.get('objects')),
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) => startRussianPostSimulator({ latencyMs }),
};
