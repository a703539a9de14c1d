export { CALCULATOR_PATH, createDellinAdapter, type DellinAdapterOptions } from './adapter';
export { DELLIN_CARRIER_CODE, DELLIN_CARRIER_NAME } from './mapper';
export { TERMINALS_PATH } from './locations';
export { dellinCheckSteps } from './check';
