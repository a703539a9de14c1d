export { createBoxberryAdapter, type BoxberryAdapterOptions } from './adapter';
export { BOXBERRY_CARRIER_CODE, BOXBERRY_CARRIER_NAME } from './mapper';
