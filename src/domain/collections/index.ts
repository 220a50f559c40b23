/** The public face of the collections area: what other areas and the wiring may use of it. */
export { Collection } from './entities.js';
export type { CollectionRow } from './entities.js';
export { placementOf } from './events.js';
export { COLLECTION } from './fragments.js';
export { collectionInOrganization } from './placement.js';
export { positionIn } from './positions.js';
export { MoveContentInput } from './inputs.js';
export { listCollections } from './service.js';
