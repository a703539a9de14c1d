export { createFivePostAdapter, type FivePostAdapterOptions } from './adapter';
export { memoryCatalogueStore, type FivePostCatalogueStore } from './catalogue-store';
export { FIVEPOST_CARRIER_CODE, FIVEPOST_CARRIER_NAME } from './quote';
export { fivePostCheckSteps } from './check';
