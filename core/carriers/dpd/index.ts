export { createDpdAdapter, DPD_CALCULATOR_PATH, type DpdAdapterOptions } from './adapter';
export { DPD_CARRIER_CODE, DPD_CARRIER_NAME } from './mapper';
