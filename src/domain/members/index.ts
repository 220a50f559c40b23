/** The public face of the members area: what other areas and the wiring may use of it. */
export { MEMBER } from './fragments.js';
export { assertAnotherAdmin, memberOf } from './service.js';
