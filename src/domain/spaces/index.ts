/** The public face of the spaces area: what other areas and the wiring may use of it. */
export { Space } from './entities.js';
export type { SpaceEntity, SpaceRow } from './entities.js';
export { SPACE } from './fragments.js';
export { spacesByCreation } from './lists.js';
export { copySpace, createSpace, listCollectionSpaces, listOrganizationSpaces, moveTenantRows, purgeSpace, softDeleteSpaces } from './service.js';
