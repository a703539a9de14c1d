export { CITY_LIST_MAX_BYTES, createBoxberryAdapter, type BoxberryAdapterOptions } from './adapter';
export { BOXBERRY_CARRIER_CODE, BOXBERRY_CARRIER_NAME } from './mapper';
export { boxberryCheckSteps } from './check';
