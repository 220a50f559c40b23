/**
 * Who may do what, walked as a table: every kind of caller (each organization role, a guest, an
 * outsider, a guest given access through a team grant, a reader given admin on one space, a team
 * owner) × the operations of the foundation (organizations, collections, spaces) and of members,
 * teams, invite links and grants. The expected status comes from one table of roles; the
 * `permissions` objects and the member's-spaces listing must tell the same story.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { atLeast, type Role } from '../src/kernel/roles.js';
import type { Need } from '../src/kernel/policy.js';
import { createSpace } from './support/content.js';
import { newMember, newOrganization, newUser, type Caller } from './support/factories.js';
import { createInviteLink, createTeam, grant, setTeamRole } from './support/people.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

/** A role held on something: a role, null (a guest's nothing, the thing visible only as an organization), undefined (not a member). */
type Held = Role | null | undefined;
type Target = 'organization' | 'collection' | 'space' | 'team';
type Roles = Record<Target, Held>;

/**
 * The roles each caller holds. The collection holds the space; the team's grant gives its members
 * (a guest, and the team owner, a reader) `edit` on the collection; the user grant gives a reader
 * `admin` on the space.
 */
const EXPECTED_ROLES = {
  admin: { organization: 'admin', collection: 'admin', space: 'admin', team: 'admin' },
  create: { organization: 'create', collection: 'create', space: 'create', team: 'read' },
  review: { organization: 'review', collection: 'review', space: 'review', team: 'read' },
  edit: { organization: 'edit', collection: 'edit', space: 'edit', team: 'read' },
  comment: { organization: 'comment', collection: 'comment', space: 'comment', team: 'read' },
  read: { organization: 'read', collection: 'read', space: 'read', team: 'read' },
  guest: { organization: null, collection: null, space: null, team: null },
  outsider: { organization: undefined, collection: undefined, space: undefined, team: undefined },
  teamGranted: { organization: null, collection: 'edit', space: 'edit', team: null },
  userGranted: { organization: 'read', collection: 'read', space: 'admin', team: 'read' },
  teamOwner: { organization: 'read', collection: 'edit', space: 'edit', team: 'admin' },
} satisfies Record<string, Roles>;
type Subject = keyof typeof EXPECTED_ROLES;
const SUBJECTS = Object.keys(EXPECTED_ROLES) as Subject[];

/** The guard's answer: 404 to those who cannot see the target, 403 below the role needed. */
function statusFor(held: Held, target: Target, need: Need, success: number): number {
  if (held === undefined) return 404;
  if (held === null && target !== 'organization') return 404;
  if (need === 'member') return success;
  return atLeast(held, need) ? success : 403;
}

type World = {
  organizationId: string;
  collectionId: string;
  spaceId: string;
  teamId: string;
  /** A reader the member operations act on. */
  target: Caller;
  inviteId: string;
  callers: Record<Subject, Caller>;
};
let world: World;

beforeAll(async () => {
  const admin = await newUser(server);
  const organization = await newOrganization(server, admin, { title: 'Matrix org' });
  const member = (role: Role | null) => newMember(server, organization.id, role);
  const callers: Record<Subject, Caller> = {
    admin,
    create: await member('create'),
    review: await member('review'),
    edit: await member('edit'),
    comment: await member('comment'),
    read: await member('read'),
    guest: await member(null),
    outsider: await newUser(server),
    teamGranted: await member(null),
    userGranted: await member('read'),
    teamOwner: await member('read'),
  };
  const collection = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Guides' })).body;
  const space = await createSpace(admin, organization.id, 'Matrix space');
  await admin.rest('POST', `/v1/spaces/${space.id}/move`, { parent: collection.id });
  const team = await createTeam(admin, organization.id, 'Matrix team', [callers.teamGranted.user.id]);
  await setTeamRole(admin, organization.id, team.id, callers.teamOwner.user.id, 'owner');
  await grant(admin, { collection: collection.id }, { team: team.id }, 'edit');
  await grant(admin, { space: space.id }, { user: callers.userGranted.user.id }, 'admin');
  const target = await member('read');
  const invite = await createInviteLink(admin, organization.id, { role: 'read' });
  world = { organizationId: organization.id, collectionId: collection.id, spaceId: space.id, teamId: team.id, target, inviteId: invite.id, callers };
});

/** The HTTP status a GraphQL answer stands for. */
function gqlStatus(res: { errors?: { extensions?: { code?: string; status?: number } }[] }): number {
  return res.errors?.length ? (res.errors[0].extensions as { status: number }).status : 200;
}

type Operation = {
  name: string;
  /** What the guard reads, or a custom expectation for operations with a further check. */
  expect: { target: Target; need: Need; success: number } | ((roles: Roles) => number);
  run(caller: Caller, w: World): Promise<number>;
};

const org = (w: World) => `/v1/orgs/${w.organizationId}`;
const rest = (method: string, path: (w: World) => string, body?: (w: World) => unknown) => async (caller: Caller, w: World) =>
  (await caller.rest(method, path(w), body?.(w))).status;
const graphql = (query: string, variables: (w: World) => Record<string, unknown>) => async (caller: Caller, w: World) =>
  gqlStatus(await caller.gql(query, variables(w)));

/** The id of the world's space or collection, and its name in GraphQL fields (`grantSpaceRole`, `spaceGrants`). */
const grantTarget = (target: 'space' | 'collection') => ({
  id: (w: World) => (target === 'space' ? w.spaceId : w.collectionId),
  Name: target === 'space' ? 'Space' : 'Collection',
});

/** Granting the read role on the world's space or collection to the target user. */
function grantRoleOperation(target: 'space' | 'collection'): Operation {
  const { id, Name } = grantTarget(target);
  return {
    name: `grant${Name}Role (GraphQL)`,
    expect: { target, need: 'admin', success: 200 },
    run: graphql(`mutation($id: ID!, $user: ID!) { grant${Name}Role(${target}Id: $id, input: { user: $user, role: read }) { id } }`, (w) => ({
      id: id(w),
      user: w.target.user.id,
    })),
  };
}

/** Listing the grants of the world's space or collection. */
function listGrantsOperation(target: 'space' | 'collection'): Operation {
  const { id } = grantTarget(target);
  return {
    name: `${target}Grants (GraphQL)`,
    expect: { target, need: 'admin', success: 200 },
    run: graphql(`query($id: ID!) { ${target}Grants(${target}Id: $id) { count } }`, (w) => ({ id: id(w) })),
  };
}

const OPERATIONS: Operation[] = [
  // Foundation: organizations, collections, spaces.
  { name: 'getOrganizationById', expect: { target: 'organization', need: 'member', success: 200 }, run: rest('GET', org) },
  { name: 'updateOrganizationById', expect: { target: 'organization', need: 'admin', success: 200 }, run: rest('PATCH', org, () => ({ title: 'Matrix org' })) },
  { name: 'updateOrganizationMemberLastSeenAt', expect: { target: 'organization', need: 'member', success: 200 }, run: rest('POST', (w) => `${org(w)}/ping`) },
  {
    name: 'listCollectionsInOrganizationById',
    expect: { target: 'organization', need: 'member', success: 200 },
    run: rest('GET', (w) => `${org(w)}/collections`),
  },
  { name: 'listSpacesInOrganizationById', expect: { target: 'organization', need: 'member', success: 200 }, run: rest('GET', (w) => `${org(w)}/spaces`) },
  { name: 'listSites', expect: { target: 'organization', need: 'read', success: 200 }, run: rest('GET', (w) => `${org(w)}/sites`) },
  {
    name: 'createCollection (top level)',
    expect: { target: 'organization', need: 'create', success: 201 },
    run: rest(
      'POST',
      (w) => `${org(w)}/collections`,
      () => ({ title: 'Top' }),
    ),
  },
  { name: 'getCollectionById', expect: { target: 'collection', need: 'read', success: 200 }, run: rest('GET', (w) => `/v1/collections/${w.collectionId}`) },
  {
    name: 'listSpacesInCollectionById',
    expect: { target: 'collection', need: 'read', success: 200 },
    run: rest('GET', (w) => `/v1/collections/${w.collectionId}/spaces`),
  },
  {
    name: 'updateCollectionById',
    expect: { target: 'collection', need: 'admin', success: 200 },
    run: rest(
      'PATCH',
      (w) => `/v1/collections/${w.collectionId}`,
      () => ({ description: 'About' }),
    ),
  },
  { name: 'getSpaceById', expect: { target: 'space', need: 'read', success: 200 }, run: rest('GET', (w) => `/v1/spaces/${w.spaceId}`) },
  {
    name: 'updateSpaceById',
    expect: { target: 'space', need: 'admin', success: 200 },
    run: rest(
      'PATCH',
      (w) => `/v1/spaces/${w.spaceId}`,
      () => ({ title: 'Matrix space' }),
    ),
  },
  {
    // Reading the space is the guard; the copy lands in its collection, which needs create there.
    name: 'duplicateSpace',
    expect: (roles) => (roles.space === undefined || roles.space === null ? 404 : atLeast(roles.collection, 'create') ? 201 : 403),
    run: rest('POST', (w) => `/v1/spaces/${w.spaceId}/duplicate`),
  },
  // Members.
  { name: 'listMembersInOrganizationById', expect: { target: 'organization', need: 'read', success: 200 }, run: rest('GET', (w) => `${org(w)}/members`) },
  {
    name: 'getMemberInOrganizationById',
    expect: { target: 'organization', need: 'read', success: 200 },
    run: rest('GET', (w) => `${org(w)}/members/${w.target.user.id}`),
  },
  {
    name: 'updateMemberInOrganizationById',
    expect: { target: 'organization', need: 'admin', success: 200 },
    run: rest(
      'PATCH',
      (w) => `${org(w)}/members/${w.target.user.id}`,
      () => ({ role: 'read' }),
    ),
  },
  {
    name: 'setUserAsSSOMemberForOrganization',
    expect: { target: 'organization', need: 'admin', success: 200 },
    run: rest('POST', (w) => `${org(w)}/members/${w.target.user.id}/sso`),
  },
  {
    name: 'removeMemberFromOrganizationById',
    expect: { target: 'organization', need: 'admin', success: 204 },
    run: async (caller, w) => {
      const leaving = await newMember(server, w.organizationId, 'read');
      return (await caller.rest('DELETE', `${org(w)}/members/${leaving.user.id}`)).status;
    },
  },
  {
    name: 'listSpacesForOrganizationMember',
    expect: { target: 'organization', need: 'read', success: 200 },
    run: rest('GET', (w) => `${org(w)}/members/${w.target.user.id}/spaces`),
  },
  {
    name: 'listTeamsForOrganizationMember',
    expect: { target: 'organization', need: 'read', success: 200 },
    run: rest('GET', (w) => `${org(w)}/members/${w.target.user.id}/teams`),
  },
  // Teams.
  { name: 'listTeamsInOrganizationById', expect: { target: 'organization', need: 'read', success: 200 }, run: rest('GET', (w) => `${org(w)}/teams`) },
  {
    name: 'createOrganizationTeam',
    expect: { target: 'organization', need: 'admin', success: 201 },
    run: rest(
      'PUT',
      (w) => `${org(w)}/teams`,
      () => ({ title: 'Another team' }),
    ),
  },
  { name: 'getTeamInOrganizationById', expect: { target: 'team', need: 'read', success: 200 }, run: rest('GET', (w) => `${org(w)}/teams/${w.teamId}`) },
  {
    name: 'updateTeamInOrganizationById',
    expect: { target: 'organization', need: 'admin', success: 200 },
    run: rest(
      'PATCH',
      (w) => `${org(w)}/teams/${w.teamId}`,
      () => ({ title: 'Matrix team' }),
    ),
  },
  {
    name: 'removeTeamFromOrganizationById',
    expect: { target: 'organization', need: 'admin', success: 204 },
    run: async (caller, w) => {
      const doomed = await createTeam(w.callers.admin, w.organizationId, 'Doomed');
      return (await caller.rest('DELETE', `${org(w)}/teams/${doomed.id}`)).status;
    },
  },
  {
    name: 'listTeamMembersInOrganizationById',
    expect: { target: 'team', need: 'read', success: 200 },
    run: rest('GET', (w) => `${org(w)}/teams/${w.teamId}/members`),
  },
  {
    name: 'updateMembersInOrganizationTeam',
    expect: { target: 'team', need: 'admin', success: 204 },
    run: rest(
      'PUT',
      (w) => `${org(w)}/teams/${w.teamId}/members`,
      (w) => ({ add: [w.target.user.id] }),
    ),
  },
  {
    name: 'addMemberToOrganizationTeamById',
    expect: { target: 'team', need: 'admin', success: 204 },
    run: rest('PUT', (w) => `${org(w)}/teams/${w.teamId}/members/${w.target.user.id}`),
  },
  {
    name: 'deleteMemberFromOrganizationTeamById',
    expect: { target: 'team', need: 'admin', success: 204 },
    run: rest('DELETE', (w) => `${org(w)}/teams/${w.teamId}/members/${w.target.user.id}`),
  },
  // Invite links.
  {
    name: 'getOrganizationInviteLink',
    expect: { target: 'organization', need: 'admin', success: 200 },
    run: rest('GET', (w) => `${org(w)}/link-invites/${w.inviteId}`),
  },
  {
    name: 'updateOrganizationInviteById',
    expect: { target: 'organization', need: 'admin', success: 200 },
    run: rest(
      'PATCH',
      (w) => `${org(w)}/link-invites/${w.inviteId}`,
      () => ({ role: 'read' }),
    ),
  },
  {
    name: 'deleteOrganizationInviteById',
    expect: { target: 'organization', need: 'admin', success: 204 },
    run: async (caller, w) => {
      const link = await createInviteLink(w.callers.admin, w.organizationId, { role: 'read' });
      return (await caller.rest('DELETE', `${org(w)}/link-invites/${link.id}`)).status;
    },
  },
  {
    name: 'inviteLinks (GraphQL)',
    expect: { target: 'organization', need: 'admin', success: 200 },
    run: graphql(`query($org: ID!) { inviteLinks(organizationId: $org) { count } }`, (w) => ({ org: w.organizationId })),
  },
  {
    name: 'createInviteLink (GraphQL)',
    expect: { target: 'organization', need: 'admin', success: 200 },
    run: graphql(`mutation($org: ID!) { createInviteLink(organizationId: $org, input: { role: read }) { __typename } }`, (w) => ({ org: w.organizationId })),
  },
  // Grants.
  grantRoleOperation('space'),
  {
    name: 'revokeSpaceRole (GraphQL)',
    expect: { target: 'space', need: 'admin', success: 200 },
    run: graphql(`mutation($id: ID!, $user: ID!) { revokeSpaceRole(spaceId: $id, input: { user: $user }) }`, (w) => ({
      id: w.spaceId,
      user: w.target.user.id,
    })),
  },
  listGrantsOperation('space'),
  grantRoleOperation('collection'),
  listGrantsOperation('collection'),
];

describe('roles × operations', () => {
  it.each(OPERATIONS.map((op) => [op.name, op] as const))('%s answers each caller as the role table says', async (_, op) => {
    const expected: Record<string, number> = {};
    const actual: Record<string, number> = {};
    for (const subject of SUBJECTS) {
      const roles = EXPECTED_ROLES[subject];
      expected[subject] =
        typeof op.expect === 'function' ? op.expect(roles) : statusFor(roles[op.expect.target], op.expect.target, op.expect.need, op.expect.success);
      actual[subject] = await op.run(world.callers[subject], world);
    }
    expect(actual).toEqual(expected);
  });
});

describe('permissions objects and listings agree with the guards', () => {
  it.each(SUBJECTS)('%s', async (subject) => {
    const roles: Roles = EXPECTED_ROLES[subject];
    const w = world;
    const ask = async <T>(query: string) => {
      const res = await w.callers[subject].gql(query, { org: w.organizationId, collection: w.collectionId, space: w.spaceId, team: w.teamId });
      return { data: res.data as T | null, status: gqlStatus(res) };
    };
    /** What the caller reads of a resource: 404 when it is hidden from them, else their role there and the permissions it gives. */
    const expectViewed = (
      answer: { data: Record<string, unknown> | null; status: number },
      field: string,
      role: Held,
      hidden: boolean,
      permissions: (role: Held) => Record<string, boolean>,
    ) => {
      if (hidden) expect(answer.status).toBe(404);
      else expect(answer.data![field]).toEqual({ viewerRole: role, permissions: permissions(role) });
    };
    const organization = await ask<{ organization: any }>(
      `query($org: ID!) { organization(id: $org) { viewerRole permissions { view admin ownTeam createContent listMembers listTeams } } }`,
    );
    expectViewed(organization, 'organization', roles.organization, roles.organization === undefined, (role) => ({
      view: true,
      admin: role === 'admin',
      ownTeam: subject === 'teamOwner',
      createContent: atLeast(role, 'create'),
      listMembers: role !== null,
      listTeams: role !== null,
    }));

    const collection = await ask<{ collection: any }>(
      `query($collection: ID!) { collection(id: $collection) { viewerRole permissions { view admin create } } }`,
    );
    expectViewed(collection, 'collection', roles.collection, !roles.collection, (role) => ({
      view: true,
      admin: atLeast(role, 'admin'),
      create: atLeast(role, 'create'),
    }));

    const space = await ask<{ space: any }>(
      `query($space: ID!) { space(id: $space) { viewerRole permissions { view access admin edit comment merge review } } }`,
    );
    expectViewed(space, 'space', roles.space, !roles.space, (role) => ({
      view: true,
      access: true,
      admin: atLeast(role, 'admin'),
      edit: atLeast(role, 'edit'),
      comment: atLeast(role, 'comment'),
      merge: atLeast(role, 'review'),
      review: atLeast(role, 'review'),
    }));

    const team = await ask<{ team: any }>(`query($org: ID!, $team: ID!) { team(organizationId: $org, teamId: $team) { permissions { admin view } } }`);
    if (roles.team === undefined || roles.team === null) expect(team.status).toBe(404);
    else expect(team.data!.team.permissions).toEqual({ admin: atLeast(roles.team, 'admin'), view: true });

    // The member's-spaces listing (as the admin sees it) gives the member's role on the space.
    if (roles.organization !== undefined) {
      const listing = await w.callers.admin.rest('GET', `/v1/orgs/${w.organizationId}/members/${w.callers[subject].user.id}/spaces?limit=1000`);
      const item = listing.body.items.find((i: { space: { id: string } }) => i.space.id === w.spaceId);
      expect(item?.permission ?? null).toBe(roles.space);
    }
  });
});
