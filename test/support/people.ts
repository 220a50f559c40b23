import { expect } from 'vitest';
import type { Role } from '../../src/kernel/roles.js';
import type { Caller } from './factories.js';

/**
 * Teams, grants and invite links made through the doors (REST where the contract routes the operation,
 * GraphQL otherwise), for tests of who may do what.
 */

/** A new team of the organization through REST, with these members (user ids) as `member`. */
export async function createTeam(admin: Caller, organizationId: string, title = 'Team', members: string[] = []) {
  const res = await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title, members });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; title: string; members: number; spaces: number; [key: string]: any };
}

/** Makes `userId` an owner (or member) of the team through REST. */
export async function setTeamRole(admin: Caller, organizationId: string, teamId: string, userId: string, role: 'owner' | 'member') {
  const res = await admin.rest('PUT', `/v1/orgs/${organizationId}/teams/${teamId}/members/${userId}`, { role });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
}

type Grantee = { team: string } | { user: string };

/** Gives a team or a member `role` on a space or a collection through GraphQL. */
export async function grant(admin: Caller, on: { space: string } | { collection: string }, grantee: Grantee, role: Role) {
  const [field, idArg, id] = 'space' in on ? ['grantSpaceRole', 'spaceId', on.space] : ['grantCollectionRole', 'collectionId', on.collection];
  const res = await admin.gql(`mutation($id: ID!, $input: GrantInput!) { ${field}(${idArg}: $id, input: $input) { id role } }`, {
    id,
    input: { ...grantee, role },
  });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data[field] as { id: string; role: Role };
}

export const INVITE_LINK_FIELDS = `
  ... on OrganizationInviteLink { object id role redundant createdAt }
  ... on SpaceInviteLink { object id level redundant space { id } }
  ... on CollectionInviteLink { object id level redundant collection { id } }
`;

/** A new invite link through GraphQL: `{role}` to the organization, `{space|collection, level}` to content. */
export async function createInviteLink(admin: Caller, organizationId: string, input: Record<string, unknown>) {
  const res = await admin.gql(
    `mutation($org: ID!, $input: CreateInviteLinkInput!) { createInviteLink(organizationId: $org, input: $input) { ${INVITE_LINK_FIELDS} } }`,
    {
      org: organizationId,
      input,
    },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data.createInviteLink as { id: string; [key: string]: any };
}

/** Joins the organization with an invite link through GraphQL; the raw answer. */
export function joinWithInvite(caller: Caller, organizationId: string, inviteId: string) {
  return caller.gql(`mutation($org: ID!, $invite: ID!) { joinOrganizationWithInvite(organizationId: $org, inviteId: $invite) { id role } }`, {
    org: organizationId,
    invite: inviteId,
  });
}
