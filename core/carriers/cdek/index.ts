export { createCdekAdapter, type CdekAdapterOptions } from './adapter';
export { CDEK_CARRIER_CODE, CDEK_CARRIER_NAME } from './mapper';
