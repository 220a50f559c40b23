/** The public face of the organizations area: what other areas and the wiring may use of it. */
export { Member, Organization } from './entities.js';
export type { MemberEntity, MemberRow, OrganizationRow } from './entities.js';
export { memberPayload, memberTarget } from './events.js';
export { ORGANIZATION } from './fragments.js';
export { addMember, createOrganization } from './service.js';
export { joinAsMember, joinAsMembers, type Joining } from './joining.js';
