/** The public face of the teams area: what other areas and the wiring may use of it. */
export { Team, TeamMember } from './entities.js';
export type { TeamMemberRow, TeamRow } from './entities.js';
export { TEAM } from './fragments.js';
