// Yandex Delivery's heavy half (core/carriers/descriptor.ts): the adapter, its live check and its simulator.
import type { CarrierImplementation } from '../descriptor';
import { startYandexSimulator, YANDEX_SIM_TOKEN } from '../simulators/yandex';
import { createYandexAdapter } from './adapter';
import type { YandexField } from './descriptor';

export const implementation: CarrierImplementation<YandexField> = {
  create: ({ baseUrl, simulated }, s, environment) =>
    createYandexAdapter({
      baseUrl,
      token: simulated ? YANDEX_SIM_TOKEN : s.get('token') || null,
      sourceStationId: simulated ? null : s.get('platform_station_id') || null,
      locations: environment.locations,
      logger: environment.logger,
    }),
  checks: () => [],
  startSimulator: ({ latencyMs }) => startYandexSimulator({ latencyMs }),
};
