export { createRussianPostAdapter, type RussianPostAdapterOptions } from './adapter';
export { russianPostCheckSteps } from './check';
export { RUSSIAN_POST_CODE, RUSSIAN_POST_NAME } from './mapper';
export { POST_OBJECTS, findObject, type PostObject } from './objects';
