export { createDpdAdapter, DPD_CALCULATOR_PATH, type DpdAdapterOptions } from './adapter';
export { dpdCheckSteps } from './check';
export { DPD_LIMITS_UNVERIFIED_REASON } from './limits';
export { DPD_CARRIER_CODE, DPD_CARRIER_NAME } from './mapper';
