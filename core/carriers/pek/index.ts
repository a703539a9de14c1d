export { createPekAdapter, type PekAdapterOptions } from './adapter';
export { PEK_CARRIER_CODE, PEK_CARRIER_NAME } from './mapper';
export { parsePekTypes } from './products';
export { NO_RATE_LIMIT } from './rate-limit';
export { pekCheckSteps } from './check';
