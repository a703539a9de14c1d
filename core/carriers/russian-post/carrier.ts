// Russian Post's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { startRussianPostSimulator } from '../simulators/russian-post';
import { createRussianPostAdapter, type RussianPostAdapterOptions } from './adapter';
import { russianPostCheckSteps } from './check';
import type { RussianPostField } from './descriptor';
import { parseObjectCodes } from './objects';

function options(
  { baseUrl }: AdapterTarget,
  s: CarrierSettingsReader<RussianPostField>,
  environment: CarrierEnvironment,
): RussianPostAdapterOptions {
  return {
    baseUrl,
    objects: parseObjectCodes(s.get('objects')),
    locations: environment.locations,
    logger: environment.logger,
  };
}

export const implementation: CarrierImplementation<RussianPostField> = {
  create: (target, s, environment) => createRussianPostAdapter(options(target, s, environment)),
  checks: (target, s, environment) => russianPostCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) => startRussianPostSimulator({ latencyMs }),
};
