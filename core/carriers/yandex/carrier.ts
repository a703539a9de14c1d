// Yandex Delivery's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsReader,
} from '../descriptor';
import { startYandexSimulator, YANDEX_SIM_TOKEN } from '../simulators/yandex';
import { createYandexAdapter, type YandexAdapterOptions } from './adapter';
import { withPoints } from '../point-directory';
import { yandexCheckSteps } from './check';
import { createYandexPointDirectory } from './directory';
import type { YandexField } from './descriptor';

function options(
  { baseUrl, simulated }: AdapterTarget,
  s: CarrierSettingsReader<YandexField>,
  environment: CarrierEnvironment,
): YandexAdapterOptions {
  return {
    baseUrl,
    token: simulated ? YANDEX_SIM_TOKEN : s.get('token') || null,
    sourceStationId: simulated ? null : s.get('platform_station_id') || null,
    locations: environment.locations,
    logger: environment.logger,
  };
}

export const implementation: CarrierImplementation<YandexField> = {
  create: (target, s, environment) => {
    const o = options(target, s, environment);
    return withPoints(createYandexAdapter(o), createYandexPointDirectory(o));
  },
  checks: (target, s, environment) => yandexCheckSteps(options(target, s, environment)),
  startSimulator: ({ latencyMs }) => startYandexSimulator({ latencyMs }),
};
