/** The public face of the change-requests area: what other areas and the wiring may use of it. */
export { ChangeRequest } from './entities.js';
export type { ChangeRequestRow } from './entities.js';
export { CHANGE_REQUEST } from './fragments.js';
export { assertEditable, changeRequestIn, editableSpace, lockChangeRequest } from './service.js';
