export { createCdekAdapter, type CdekAdapterOptions } from './adapter';
export { cdekCheckSteps } from './check';
export { CDEK_CARRIER_CODE, CDEK_CARRIER_NAME } from './mapper';
