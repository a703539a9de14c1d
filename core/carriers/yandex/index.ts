export { createYandexAdapter, type YandexAdapterOptions } from './adapter';
export { YANDEX_CARRIER_CODE, YANDEX_CARRIER_NAME } from './mapper';
export { yandexCheckSteps } from './check';
