/**
 * Teams and team members (contract §2.12, §4.10) through both doors on the real database: listing
 * with `owner` and `title`, creating, renaming, deleting, the bulk member update (all or nothing),
 * adding and removing one member, counts, and team owners managing their team without being
 * organization admins.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ContentGrant } from '../src/domain/grants/index.js';
import { Team, TeamMember } from '../src/domain/teams/index.js';
import { createSpace } from './support/content.js';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newMember, newOrganization, newOrganizationWithRoles, rest, type Caller } from './support/factories.js';
import { createTeam, grant, setTeamRole } from './support/people.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

beforeEach(() => server.clock.advance(1000));

const teamsPath = (organizationId: string) => `/v1/orgs/${organizationId}/teams`;
const teamPath = (organizationId: string, teamId: string) => `/v1/orgs/${organizationId}/teams/${teamId}`;
const titles = (res: { body: { items: { title: string }[] } }) => res.body.items.map((t) => t.title);

async function teamMemberRoles(caller: Caller, organizationId: string, teamId: string): Promise<Record<string, string>> {
  const res = await caller.rest('GET', `${teamPath(organizationId, teamId)}/members?limit=1000`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries(res.body.items.map((m: { organization: { id: string }; team: { role: string } }) => [m.organization.id, m.team.role]));
}

describe('PUT /v1/orgs/{organizationId}/teams (create)', () => {
  it('requires a token', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    expectError(await rest(server, null, 'PUT', teamsPath(organization.id), { title: 'T' }), 401, /Authentication required/);
  });

  it('creates a team with initial members, for admins only', async () => {
    const { organization, admin, edit, read } = await newOrganizationWithRoles(server);
    const res = await admin.rest('PUT', teamsPath(organization.id), { title: 'Writers', members: [edit.user.id, read.user.id, edit.user.id] });
    expect(res.status).toBe(201);
    expectContract('createOrganizationTeam', res);
    expect(res.body).toEqual({
      object: 'team',
      id: expect.any(String),
      title: 'Writers',
      members: 2,
      spaces: 0,
      createdAt: server.clock.now().toISOString(),
      permissions: { admin: true, view: true },
    });
    expect(await teamMemberRoles(admin, organization.id, res.body.id)).toEqual({ [edit.user.id]: 'member', [read.user.id]: 'member' });
    expectError(await edit.rest('PUT', teamsPath(organization.id), { title: 'Mine' }), 403, 'Organization: this operation needs the admin role');
  });

  it('checks the title (1-64) and that members belong to the organization, creating nothing otherwise', async () => {
    const { organization, admin, outsider } = await newOrganizationWithRoles(server);
    expectError(await admin.rest('PUT', teamsPath(organization.id), { title: '' }), 400, 'title: must be at least 1 character');
    expectError(await admin.rest('PUT', teamsPath(organization.id), { title: 'x'.repeat(65) }), 400, 'title: must be at most 64 characters');
    expect((await admin.rest('PUT', teamsPath(organization.id), { title: 'x'.repeat(64) })).status).toBe(201);
    expectError(await admin.rest('PUT', teamsPath(organization.id), {}), 400, 'title: is required');
    expectError(
      await admin.rest('PUT', teamsPath(organization.id), { title: 'T', members: [admin.user.id, outsider.user.id] }),
      400,
      `members: no member "${outsider.user.id}" in this organization`,
    );
    expect(await server.em().count(Team, { organization: organization.id })).toBe(1);
  });
});

describe('GET /v1/orgs/{organizationId}/teams', () => {
  it('lists teams oldest first, by title in any case, and the teams a member can manage', async () => {
    const { organization, admin, edit, read, guest, outsider } = await newOrganizationWithRoles(server);
    const docs = await createTeam(admin, organization.id, 'Docs Team');
    server.clock.advance(1000);
    const support = await createTeam(admin, organization.id, 'Support', [edit.user.id]);
    server.clock.advance(1000);
    await createTeam(admin, organization.id, 'Sales docs');
    await setTeamRole(admin, organization.id, support.id, edit.user.id, 'owner');

    const all = await read.rest('GET', teamsPath(organization.id));
    expect(all.status).toBe(200);
    expectContract('listTeamsInOrganizationById', all);
    expect(titles(all)).toEqual(['Docs Team', 'Support', 'Sales docs']);
    expect(all.body.items[0].permissions).toEqual({ admin: false, view: true });
    expect(titles(await read.rest('GET', `${teamsPath(organization.id)}?title=DOCS`))).toEqual(['Docs Team', 'Sales docs']);
    expect(titles(await read.rest('GET', `${teamsPath(organization.id)}?owner=${edit.user.id}`))).toEqual(['Support']);
    expect(titles(await read.rest('GET', `${teamsPath(organization.id)}?owner=${admin.user.id}&title=s`))).toEqual(['Docs Team', 'Support', 'Sales docs']);
    expect(titles(await read.rest('GET', `${teamsPath(organization.id)}?owner=${read.user.id}`))).toEqual([]);
    expectError(
      await read.rest('GET', `${teamsPath(organization.id)}?owner=${outsider.user.id}`),
      400,
      `owner: no member "${outsider.user.id}" in this organization`,
    );
    const page = await read.rest('GET', `${teamsPath(organization.id)}?limit=2`);
    expect(titles(page)).toEqual(['Docs Team', 'Support']);
    expect(titles(await read.rest('GET', `${teamsPath(organization.id)}?limit=2&page=${page.body.next.page}`))).toEqual(['Sales docs']);
    expect(docs.id).toBe(all.body.items[0].id);

    expectError(await guest.rest('GET', teamsPath(organization.id)), 403, 'Organization: this operation needs the read role');
    expectError(await outsider.rest('GET', teamsPath(organization.id)), 404, 'Organization not found');
  });
});

describe('GET, PATCH and DELETE /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('reads a team with its counts, and hides teams of other organizations', async () => {
    const { organization, admin, edit, read, guest } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers', [edit.user.id, read.user.id]);
    const collection = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Guides' })).body;
    const inside = await createSpace(admin, organization.id, 'Inside');
    await admin.rest('POST', `/v1/spaces/${inside.id}/move`, { parent: collection.id });
    const direct = await createSpace(admin, organization.id, 'Direct');
    await createSpace(admin, organization.id, 'Elsewhere');
    await grant(admin, { collection: collection.id }, { team: team.id }, 'edit');
    await grant(admin, { space: direct.id }, { team: team.id }, 'read');

    const res = await read.rest('GET', teamPath(organization.id, team.id));
    expect(res.status).toBe(200);
    expectContract('getTeamInOrganizationById', res);
    expect(res.body).toMatchObject({ id: team.id, title: 'Writers', members: 2, spaces: 2, permissions: { admin: false, view: true } });
    expectError(await read.rest('GET', teamPath(organization.id, 'nope')), 404, 'Team not found');
    expectError(await other.admin.rest('GET', teamPath(other.organization.id, team.id)), 404, 'Team not found');
    expectError(await other.admin.rest('GET', teamPath(organization.id, team.id)), 404, 'Team not found');
    expectError(await guest.rest('GET', teamPath(organization.id, team.id)), 404, 'Team not found');
  });

  it('renames a team (title 1-64), for organization admins only', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers', [edit.user.id]);
    await setTeamRole(admin, organization.id, team.id, edit.user.id, 'owner');
    const res = await admin.rest('PATCH', teamPath(organization.id, team.id), { title: 'Authors' });
    expect(res.status).toBe(200);
    expectContract('updateTeamInOrganizationById', res);
    expect(res.body.title).toBe('Authors');
    expectError(await admin.rest('PATCH', teamPath(organization.id, team.id), { title: '' }), 400, 'title: must be at least 1 character');
    expectError(await admin.rest('PATCH', teamPath(organization.id, team.id), {}), 400, 'title: is required');
    expectError(
      await edit.rest('PATCH', teamPath(organization.id, team.id), { title: 'Owners rule' }),
      403,
      'Organization: this operation needs the admin role',
    );
    expectError(await other.admin.rest('PATCH', teamPath(other.organization.id, team.id), { title: 'Stolen' }), 404, 'Team not found');
    expect((await admin.rest('GET', teamPath(organization.id, team.id))).body.title).toBe('Authors');
  });

  it('deletes a team with its memberships and grants, for organization admins only', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers', [edit.user.id]);
    await setTeamRole(admin, organization.id, team.id, edit.user.id, 'owner');
    const space = await createSpace(admin, organization.id);
    await grant(admin, { space: space.id }, { team: team.id }, 'admin');
    expectError(await edit.rest('DELETE', teamPath(organization.id, team.id)), 403, 'Organization: this operation needs the admin role');
    const res = await admin.rest('DELETE', teamPath(organization.id, team.id));
    expect(res.status).toBe(204);
    expect(await server.em().count(TeamMember, { team: team.id })).toBe(0);
    expect(await server.em().count(ContentGrant, { team: team.id })).toBe(0);
    expectError(await admin.rest('GET', teamPath(organization.id, team.id)), 404, 'Team not found');
    expectError(await admin.rest('DELETE', teamPath(organization.id, team.id)), 404, 'Team not found');
    // The grant went with the team: the former owner is back to their editor role on the space.
    expect((await edit.rest('GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ admin: false, edit: true });
  });
});

describe('team members', () => {
  it('lists members with their organization membership and team role', async () => {
    const { organization, admin, edit, read } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers', [edit.user.id]);
    server.clock.advance(1000);
    await setTeamRole(admin, organization.id, team.id, read.user.id, 'owner');
    const res = await read.rest('GET', `${teamPath(organization.id, team.id)}/members`);
    expect(res.status).toBe(200);
    expectContract('listTeamMembersInOrganizationById', res);
    expect(res.body.items).toEqual([
      {
        organization: expect.objectContaining({ object: 'member', id: edit.user.id, role: 'edit', teams: 1 }),
        team: { role: 'member' },
        permissions: { view: true },
      },
      {
        organization: expect.objectContaining({ object: 'member', id: read.user.id, role: 'read', teams: 1 }),
        team: { role: 'owner' },
        permissions: { view: true },
      },
    ]);
    const first = await read.rest('GET', `${teamPath(organization.id, team.id)}/members?limit=1`);
    expect(first.body.items.map((m: { organization: { id: string } }) => m.organization.id)).toEqual([edit.user.id]);
    const second = await read.rest('GET', `${teamPath(organization.id, team.id)}/members?limit=1&page=${first.body.next.page}`);
    expect(second.body.items.map((m: { organization: { id: string } }) => m.organization.id)).toEqual([read.user.id]);
  });

  it('adds, removes and re-roles in bulk, by user id or e-mail', async () => {
    const { organization, admin, create, edit, read, guest } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers', [edit.user.id, read.user.id]);
    const path = `${teamPath(organization.id, team.id)}/members`;
    const res = await admin.rest('PUT', path, {
      add: [create.user.email.toUpperCase(), guest.user.id, admin.user.id],
      remove: [read.user.email, admin.user.id],
      memberships: { [edit.user.id]: { role: 'owner' }, [guest.user.email]: { role: 'owner' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(res.body).toBeUndefined();
    // The admin was both added and removed: removed.
    expect(await teamMemberRoles(admin, organization.id, team.id)).toEqual({
      [edit.user.id]: 'owner',
      [create.user.id]: 'member',
      [guest.user.id]: 'owner',
    });
    expect((await admin.rest('GET', teamPath(organization.id, team.id))).body.members).toBe(3);
    // An empty update changes nothing.
    expect((await admin.rest('PUT', path, {})).status).toBe(204);
  });

  it('refuses the whole update when one entry is no member of the organization, naming it', async () => {
    const { organization, admin, create, edit, read, outsider } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers', [edit.user.id]);
    const path = `${teamPath(organization.id, team.id)}/members`;
    const before = await teamMemberRoles(admin, organization.id, team.id);
    expectError(
      await admin.rest('PUT', path, { add: [create.user.id, 'stranger@nowhere.example'], remove: [edit.user.id] }),
      400,
      'add: "stranger@nowhere.example" is not a member of this organization',
    );
    expectError(await admin.rest('PUT', path, { remove: [outsider.user.id] }), 400, `remove: "${outsider.user.id}" is not a member of this organization`);
    expectError(
      await admin.rest('PUT', path, { add: [create.user.id], memberships: { [read.user.id]: { role: 'owner' } } }),
      400,
      `memberships.${read.user.id}: not a member of the team`,
    );
    expectError(
      await admin.rest('PUT', path, { memberships: { [edit.user.id]: { role: 'boss' } } }),
      400,
      `memberships.${edit.user.id}.role: must be one of: owner, member`,
    );
    expectError(await admin.rest('PUT', path, { add: 'everyone' }), 400, /^add: /);
    expect(await teamMemberRoles(admin, organization.id, team.id)).toEqual(before);
  });

  it('adds the same member from concurrent requests once, without an error', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Racers');
    const one = `${teamPath(organization.id, team.id)}/members/${edit.user.id}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => admin.rest('PUT', one)));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204, 204, 204]);
    expect(await teamMemberRoles(admin, organization.id, team.id)).toEqual({ [edit.user.id]: 'member' });
  });

  it('adds one member or changes their role, and removes one', async () => {
    const { organization, admin, edit, outsider } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers');
    const one = `${teamPath(organization.id, team.id)}/members/${edit.user.id}`;
    expect((await admin.rest('PUT', one)).status).toBe(204);
    expect(await teamMemberRoles(admin, organization.id, team.id)).toEqual({ [edit.user.id]: 'member' });
    expect((await admin.rest('PUT', one, { role: 'owner' })).status).toBe(204);
    expect(await teamMemberRoles(admin, organization.id, team.id)).toEqual({ [edit.user.id]: 'owner' });
    // Without a role, an existing member keeps theirs.
    expect((await admin.rest('PUT', one, {})).status).toBe(204);
    expect(await teamMemberRoles(admin, organization.id, team.id)).toEqual({ [edit.user.id]: 'owner' });
    expectError(await admin.rest('PUT', one, { role: 'admin' }), 400, /^role: /);
    expectError(await admin.rest('PUT', `${teamPath(organization.id, team.id)}/members/${outsider.user.id}`), 404, 'Member not found');
    expect((await admin.rest('DELETE', one)).status).toBe(204);
    expect(await teamMemberRoles(admin, organization.id, team.id)).toEqual({});
    // Removing someone who is not in the team is not an error.
    expect((await admin.rest('DELETE', one)).status).toBe(204);
    expectError(await admin.rest('DELETE', `${teamPath(organization.id, 'nope')}/members/${edit.user.id}`), 404, 'Team not found');
  });

  it('lets team owners manage their own team without being organization admins', async () => {
    const { organization, admin, create, edit, read } = await newOrganizationWithRoles(server);
    const mine = await createTeam(admin, organization.id, 'Mine', [read.user.id]);
    const theirs = await createTeam(admin, organization.id, 'Theirs');
    await setTeamRole(admin, organization.id, mine.id, edit.user.id, 'owner');

    const org = await edit.rest('GET', `/v1/orgs/${organization.id}`);
    expect(org.body.permissions).toMatchObject({ admin: false, ownTeam: true });
    expect((await read.rest('GET', `/v1/orgs/${organization.id}`)).body.permissions.ownTeam).toBe(false);
    expect((await edit.rest('GET', teamPath(organization.id, mine.id))).body.permissions).toEqual({ admin: true, view: true });
    expect((await edit.rest('GET', teamPath(organization.id, theirs.id))).body.permissions).toEqual({ admin: false, view: true });

    expect((await edit.rest('PUT', `${teamPath(organization.id, mine.id)}/members/${create.user.id}`, { role: 'owner' })).status).toBe(204);
    expect((await edit.rest('PUT', `${teamPath(organization.id, mine.id)}/members`, { remove: [read.user.id] })).status).toBe(204);
    expect(await teamMemberRoles(admin, organization.id, mine.id)).toEqual({ [edit.user.id]: 'owner', [create.user.id]: 'owner' });

    // Members who own no team, and owners of another team, may not.
    expectError(await read.rest('PUT', `${teamPath(organization.id, mine.id)}/members/${read.user.id}`), 403, 'Team: this operation needs the admin role');
    expectError(await edit.rest('PUT', `${teamPath(organization.id, theirs.id)}/members/${edit.user.id}`), 403, 'Team: this operation needs the admin role');
    expectError(
      await edit.rest('PUT', `${teamPath(organization.id, theirs.id)}/members`, { add: [edit.user.id] }),
      403,
      'Team: this operation needs the admin role',
    );
    expectError(
      await edit.rest('DELETE', `${teamPath(organization.id, theirs.id)}/members/${admin.user.id}`),
      403,
      'Team: this operation needs the admin role',
    );
    expectError(await edit.rest('PATCH', teamPath(organization.id, mine.id), { title: 'Renamed' }), 403, 'Organization: this operation needs the admin role');
  });

  it('answers through GraphQL too, and hides teams across organizations', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Writers');
    const add = await admin.gql(
      `mutation($org: ID!, $team: ID!, $user: ID!) { addTeamMember(organizationId: $org, teamId: $team, userId: $user, role: owner) { organization { id role } team { role } } }`,
      { org: organization.id, team: team.id, user: edit.user.id },
    );
    expect(add.data.addTeamMember).toEqual({ organization: { id: edit.user.id, role: 'edit' }, team: { role: 'owner' } });
    const bulk = await edit.gql(
      `mutation($org: ID!, $team: ID!, $input: UpdateTeamMembersInput!) { updateTeamMembers(organizationId: $org, teamId: $team, input: $input) }`,
      {
        org: organization.id,
        team: team.id,
        input: { add: [admin.user.email] },
      },
    );
    expect(bulk.data.updateTeamMembers).toBe(true);
    const read = await edit.gql(`query($org: ID!, $team: ID!) { team(organizationId: $org, teamId: $team) { title members owningOrganization { id } } }`, {
      org: organization.id,
      team: team.id,
    });
    expect(read.data.team).toEqual({ title: 'Writers', members: 2, owningOrganization: { id: organization.id } });
    expectGqlError(
      await other.admin.gql(`query($org: ID!, $team: ID!) { team(organizationId: $org, teamId: $team) { id } }`, { org: other.organization.id, team: team.id }),
      'NOT_FOUND',
      'Team not found',
    );
    const removed = await admin.gql(`mutation($org: ID!, $team: ID!, $user: ID!) { removeTeamMember(organizationId: $org, teamId: $team, userId: $user) }`, {
      org: organization.id,
      team: team.id,
      user: edit.user.id,
    });
    expect(removed.data.removeTeamMember).toBe(true);
  });

  it('gives team grants to every member of the team, guests included, and takes them back on leaving', async () => {
    const { organization, admin, guest } = await newOrganizationWithRoles(server);
    const writer = await newMember(server, organization.id, 'read');
    const space = await createSpace(admin, organization.id, 'Team space');
    const team = await createTeam(admin, organization.id, 'Writers', [guest.user.id, writer.user.id]);
    await grant(admin, { space: space.id }, { team: team.id }, 'edit');
    expect((await guest.rest('GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ view: true, edit: true, admin: false });
    expect((await writer.rest('GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ edit: true, review: false });
    expect((await admin.rest('DELETE', `${teamPath(organization.id, team.id)}/members/${guest.user.id}`)).status).toBe(204);
    expectError(await guest.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
    expect((await writer.rest('GET', `/v1/spaces/${space.id}`)).body.permissions.edit).toBe(true);
    const elsewhere = await newOrganization(server, admin);
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: elsewhere.id })).status).toBe(200);
    expect(await server.em().count(ContentGrant, { space: space.id })).toBe(0);
  });
});
