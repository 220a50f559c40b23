/** The public face of the grants area: what other areas and the wiring may use of it. */
export { ContentGrant } from './entities.js';
export type { ContentGrantRow } from './entities.js';
export { grantPayload, grantTarget } from './events.js';
export { putGrant } from './service.js';
