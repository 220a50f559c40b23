/** The public face of the invites area: what other areas and the wiring may use of it. */
export { InviteLink } from './entities.js';
