/**
 * Members (contract §2.12, §4.10) through both doors on the real database: listing with its filters,
 * sorts and pages, reading, changing roles, removing (with team memberships and grants), the
 * last-admin rule, SSO members, and a member's spaces and teams.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ContentGrant } from '../src/domain/grants/index.js';
import { Member } from '../src/domain/organizations/index.js';
import { TeamMember } from '../src/domain/teams/index.js';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { addMember } from '../src/domain/organizations/index.js';
import { createSpace } from './support/content.js';
import { newMember, newOrganization, newOrganizationWithMember, newOrganizationWithRoles, newUser, rest, type Caller } from './support/factories.js';
import { createTeam, grant, setTeamRole } from './support/people.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

// Members who join in separate tests (and in separate steps of one test) never share a join time.
beforeEach(() => server.clock.advance(1000));

const members = (caller: Caller, organizationId: string, query = '') => caller.rest('GET', `/v1/orgs/${organizationId}/members${query}`);
const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((m) => m.id);

/** An organization whose members joined one second apart: admin, then create, edit, read, guest. */
async function organizationWithMembers() {
  const admin = await newUser(server, { displayName: 'Ada Admin' });
  const organization = await newOrganization(server, admin);
  const joined: Caller[] = [admin];
  for (const role of ['create', 'edit', 'read', null] as const) {
    server.clock.advance(1000);
    joined.push(await newMember(server, organization.id, role));
  }
  const [, create, edit, read, guest] = joined;
  return { organization, admin, create: create, edit: edit, read: read, guest: guest, joined };
}

describe('GET /v1/orgs/{organizationId}/members', () => {
  it('requires a token', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    expectError(await rest(server, null, 'GET', `/v1/orgs/${organization.id}/members`), 401, /Authentication required/);
  });

  it('lists members newest first with every field of the reference', async () => {
    const { organization, admin, joined } = await organizationWithMembers();
    const res = await members(admin, organization.id);
    expect(res.status).toBe(200);
    expectContract('listMembersInOrganizationById', res);
    expect(ids(res)).toEqual(joined.map((c) => c.user.id).reverse());
    expect(res.body.count).toBe(5);
    const first = res.body.items.at(-1);
    expect(first).toEqual({
      object: 'member',
      id: admin.user.id,
      role: 'admin',
      user: {
        object: 'user',
        id: admin.user.id,
        displayName: 'Ada Admin',
        email: admin.user.email,
        urls: { location: `http://docs.test/v1/users/${admin.user.id}` },
      },
      disabled: false,
      joinedAt: expect.any(String),
      sso: false,
      spaces: 0,
      teams: 0,
    });
    // A guest's role is null, and null is kept (it means guest).
    expect(res.body.items[0]).toMatchObject({ role: null });
  });

  it('orders ascending on request and pages with keyset cursors', async () => {
    const { organization, admin, joined } = await organizationWithMembers();
    const all = joined.map((c) => c.user.id);
    const first = await members(admin, organization.id, '?order=asc&limit=2');
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect(first.body.count).toBe(5);
    const second = await members(admin, organization.id, `?order=asc&limit=2&page=${first.body.next.page}`);
    expect(ids(second)).toEqual(all.slice(2, 4));
    const third = await members(admin, organization.id, `?order=asc&limit=2&page=${second.body.next.page}`);
    expect(ids(third)).toEqual(all.slice(4));
    expect(third.body.next).toBeUndefined();

    const descending = await members(admin, organization.id, '?limit=3');
    expect(ids(descending)).toEqual(all.slice().reverse().slice(0, 3));
    const rest = await members(admin, organization.id, `?limit=3&page=${descending.body.next.page}`);
    expect(ids(rest)).toEqual(all.slice().reverse().slice(3));
  });

  it('filters by role, guests included', async () => {
    const { organization, admin, edit, guest } = await organizationWithMembers();
    expect(ids(await members(admin, organization.id, '?role=edit'))).toEqual([edit.user.id]);
    expect(ids(await members(admin, organization.id, '?role=guest'))).toEqual([guest.user.id]);
    expect(ids(await members(admin, organization.id, '?role=review'))).toEqual([]);
    expectError(await members(admin, organization.id, '?role=owner'), 400, 'role: must be one of: read, comment, edit, review, create, admin, guest');
  });

  it('searches display names and e-mail addresses, in any case', async () => {
    const admin = await newUser(server);
    const organization = await newOrganization(server, admin);
    const grace = await newUser(server, { displayName: 'Grace Hopper', email: `grace-${organization.id.toLowerCase()}@navy.example` });
    const alan = await newUser(server, { displayName: 'Alan Turing', email: `alan-${organization.id.toLowerCase()}@bletchley.example` });
    await addMember(server.em(), server.clock, organization.id, grace.user.id, 'read');
    await addMember(server.em(), server.clock, organization.id, alan.user.id, 'edit');
    expect(ids(await members(admin, organization.id, '?search=HOPPER'))).toEqual([grace.user.id]);
    expect(ids(await members(admin, organization.id, '?search=Bletchley.EXAMPLE'))).toEqual([alan.user.id]);
    expect(ids(await members(admin, organization.id, '?search=a&role=edit'))).toEqual([alan.user.id]);
    expect(ids(await members(admin, organization.id, '?search=nobody-like-this'))).toEqual([]);
  });

  it('sorts by last activity, listing only members seen at least once', async () => {
    const { organization, admin, edit, read } = await organizationWithMembers();
    expect((await edit.rest('POST', `/v1/orgs/${organization.id}/ping`)).status).toBe(200);
    server.clock.advance(1000);
    expect((await read.rest('POST', `/v1/orgs/${organization.id}/ping`)).status).toBe(200);
    server.clock.advance(1000);
    expect((await edit.rest('POST', `/v1/orgs/${organization.id}/ping`)).status).toBe(200);
    const bySeen = await members(admin, organization.id, '?sort=lastSeenAt');
    expect(ids(bySeen)).toEqual([edit.user.id, read.user.id]);
    expect(bySeen.body.items[0].lastSeenAt).toBe(server.clock.now().toISOString());
    expect(ids(await members(admin, organization.id, '?sort=lastSeenAt&order=asc'))).toEqual([read.user.id, edit.user.id]);
    expectError(await members(admin, organization.id, '?sort=name'), 400, 'sort: must be one of: joinedAt, lastSeenAt');
    expectError(await members(admin, organization.id, '?order=up'), 400, 'order: must be one of: asc, desc');
    expectError(await members(admin, organization.id, '?limit=1001'), 400, 'limit: must be an integer from 1 to 1000');
    expectError(await members(admin, organization.id, '?page=nonsense'), 400, 'page: not a page identifier returned by this list');
  });

  it('needs a non-guest membership: 403 for guests, 404 for outsiders', async () => {
    const { organization, read, guest, outsider } = await newOrganizationWithRoles(server);
    expect((await members(read, organization.id)).status).toBe(200);
    expectError(await members(guest, organization.id), 403, 'Organization: this operation needs the read role');
    expectError(await members(outsider, organization.id), 404, 'Organization not found');
  });

  it('answers the same through GraphQL', async () => {
    const { organization, admin, edit } = await organizationWithMembers();
    const res = await admin.gql(
      `query($org: ID!) { members(organizationId: $org, role: "edit") { count items { id role user { displayName } owningOrganization { id } } } }`,
      { org: organization.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.members).toEqual({
      count: 1,
      items: [{ id: edit.user.id, role: 'edit', user: { displayName: 'Test User' }, owningOrganization: { id: organization.id } }],
    });
    expectGqlError(
      await admin.gql(`query($org: ID!) { members(organizationId: $org, sort: "x") { count } }`, { org: organization.id }),
      'BAD_REQUEST',
      'sort: must be one of: joinedAt, lastSeenAt',
    );
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
  it('answers a member, and 404 for a user who is not one or a member of another organization', async () => {
    const { organization, admin, edit, outsider } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const res = await edit.rest('GET', `/v1/orgs/${organization.id}/members/${admin.user.id}`);
    expect(res.status).toBe(200);
    expectContract('getMemberInOrganizationById', res);
    expect(res.body).toMatchObject({ id: admin.user.id, role: 'admin' });
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/members/${outsider.user.id}`), 404, 'Member not found');
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/members/${other.admin.user.id}`), 404, 'Member not found');
    expectError(await outsider.rest('GET', `/v1/orgs/${organization.id}/members/${admin.user.id}`), 404, 'Organization not found');
  });
});

describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
  it('changes the role, guest included, for admins only', async () => {
    const { organization, admin, edit, read } = await newOrganizationWithRoles(server);
    const path = `/v1/orgs/${organization.id}/members/${edit.user.id}`;
    const res = await admin.rest('PATCH', path, { role: 'review' });
    expect(res.status).toBe(200);
    expectContract('updateMemberInOrganizationById', res);
    expect(res.body).toMatchObject({ id: edit.user.id, role: 'review' });
    const guest = await admin.rest('PATCH', path, { role: null });
    expect(guest.body.role).toBeNull();
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}/members?role=guest`)).body.items.map((m: { id: string }) => m.id)).toContain(edit.user.id);
    // An empty body changes nothing.
    expect((await admin.rest('PATCH', path, {})).body.role).toBeNull();
    expectError(await read.rest('PATCH', path, { role: 'admin' }), 403, 'Organization: this operation needs the admin role');
    expectError(await admin.rest('PATCH', path, { role: 'owner' }), 400, /^role: /);
    expectError(await admin.rest('PATCH', path, { rank: 'edit' }), 400, 'rank: unknown field');
    expectError(await admin.rest('PATCH', `/v1/orgs/${organization.id}/members/nobody`, { role: 'read' }), 404, 'Member not found');
  });

  it('refuses to demote the last admin (409), and allows it once there is another', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const self = `/v1/orgs/${organization.id}/members/${admin.user.id}`;
    expectError(await admin.rest('PATCH', self, { role: 'edit' }), 409, /last admin of the organization cannot be demoted/);
    expectError(await admin.rest('PATCH', self, { role: null }), 409, /last admin/);
    expect((await admin.rest('GET', self)).body.role).toBe('admin');
    expect((await admin.rest('PATCH', `/v1/orgs/${organization.id}/members/${edit.user.id}`, { role: 'admin' })).status).toBe(200);
    const demoted = await admin.rest('PATCH', self, { role: 'edit' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.role).toBe('edit');
    // The former admin is now an editor: the admin operations refuse them.
    expectError(await admin.rest('PATCH', self, { role: 'admin' }), 403, 'Organization: this operation needs the admin role');
  });

  it('answers the same through GraphQL', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const mutation = `mutation($org: ID!, $user: ID!, $input: UpdateMemberInput!) { updateMember(organizationId: $org, userId: $user, input: $input) { id role } }`;
    const res = await admin.gql(mutation, { org: organization.id, user: read.user.id, input: { role: 'comment' } });
    expect(res.data.updateMember).toEqual({ id: read.user.id, role: 'comment' });
    expectGqlError(await admin.gql(mutation, { org: organization.id, user: admin.user.id, input: { role: 'read' } }), 'CONFLICT');
  });
});

describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
  it('removes the member with their team memberships and grants in that organization only', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const elsewhere = await newOrganization(server, admin);
    await addMember(server.em(), server.clock, elsewhere.id, edit.user.id, 'edit');
    const team = await createTeam(admin, organization.id, 'Writers', [edit.user.id]);
    const otherTeam = await createTeam(admin, elsewhere.id, 'Elsewhere', [edit.user.id]);
    const space = await createSpace(admin, organization.id, 'Handbook');
    const otherSpace = await createSpace(admin, elsewhere.id, 'Other');
    await grant(admin, { space: space.id }, { user: edit.user.id }, 'admin');
    await grant(admin, { space: space.id }, { team: team.id }, 'edit');
    await grant(admin, { space: otherSpace.id }, { user: edit.user.id }, 'admin');

    const res = await admin.rest('DELETE', `/v1/orgs/${organization.id}/members/${edit.user.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const em = server.em();
    expect(await em.count(Member, { organization: organization.id, user: edit.user.id })).toBe(0);
    expect(await em.count(TeamMember, { organization: organization.id, user: edit.user.id })).toBe(0);
    expect(await em.count(ContentGrant, { organization: organization.id, user: edit.user.id })).toBe(0);
    // The team keeps its own grant; the other organization keeps everything.
    expect(await em.count(ContentGrant, { team: team.id })).toBe(1);
    expect(await em.count(TeamMember, { team: otherTeam.id, user: edit.user.id })).toBe(1);
    expect(await em.count(ContentGrant, { organization: elsewhere.id, user: edit.user.id })).toBe(1);

    expectError(await edit.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
    expectError(await edit.rest('GET', `/v1/orgs/${organization.id}`), 404, 'Organization not found');
    expectError(await admin.rest('DELETE', `/v1/orgs/${organization.id}/members/${edit.user.id}`), 404, 'Member not found');
  });

  it('refuses to remove the last admin (409), for admins only', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    expectError(await admin.rest('DELETE', `/v1/orgs/${organization.id}/members/${admin.user.id}`), 409, /last admin of the organization cannot be removed/);
    expectError(await read.rest('DELETE', `/v1/orgs/${organization.id}/members/${admin.user.id}`), 403, 'Organization: this operation needs the admin role');
    const second = await newMember(server, organization.id, 'admin');
    expect((await second.rest('DELETE', `/v1/orgs/${organization.id}/members/${admin.user.id}`)).status).toBe(204);
    expect((await read.rest('GET', `/v1/orgs/${organization.id}/members?role=admin`)).body.items.map((m: { id: string }) => m.id)).toEqual([second.user.id]);
  });

  it('answers the same through GraphQL', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const res = await admin.gql(`mutation($org: ID!, $user: ID!) { removeMember(organizationId: $org, userId: $user) }`, {
      org: organization.id,
      user: read.user.id,
    });
    expect(res.data.removeMember).toBe(true);
    expect(await server.em().count(Member, { organization: organization.id, user: read.user.id })).toBe(0);
  });
});

describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
  it('marks the member as an SSO member, for admins only', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const path = `/v1/orgs/${organization.id}/members/${edit.user.id}/sso`;
    expectError(await edit.rest('POST', path), 403, 'Organization: this operation needs the admin role');
    const res = await admin.rest('POST', path);
    expect(res.status).toBe(200);
    expectContract('setUserAsSSOMemberForOrganization', res);
    expect(res.body).toMatchObject({ id: edit.user.id, sso: true });
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}/members/${edit.user.id}`)).body.sso).toBe(true);
    expectError(await admin.rest('POST', `/v1/orgs/${organization.id}/members/nobody/sso`), 404, 'Member not found');
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  it("lists the spaces the member can access with the member's own role, and counts them", async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const open = await createSpace(admin, organization.id, 'Open');
    server.clock.advance(1000);
    const closed = await createSpace(admin, organization.id, 'Closed');
    server.clock.advance(1000);
    const shared = await createSpace(admin, organization.id, 'Shared');
    await admin.rest('PATCH', `/v1/spaces/${closed.id}`, { defaultLevel: null });
    await admin.rest('PATCH', `/v1/spaces/${shared.id}`, { defaultLevel: null });
    await grant(admin, { space: shared.id }, { user: read.user.id }, 'edit');

    const res = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${read.user.id}/spaces`);
    expect(res.status).toBe(200);
    expectContract('listSpacesForOrganizationMember', res);
    // Newest first; the admin's own permissions object is on each space, the member's role beside it.
    expect(res.body.items.map((i: { permission: string; space: { id: string } }) => [i.space.id, i.permission])).toEqual([
      [shared.id, 'edit'],
      [open.id, 'read'],
    ]);
    expect(res.body.items[0].space.permissions.admin).toBe(true);
    const asc = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${read.user.id}/spaces?order=asc&limit=1`);
    expect(asc.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([open.id]);
    expect(asc.body.count).toBe(2);
    const page2 = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${read.user.id}/spaces?order=asc&limit=1&page=${asc.body.next.page}`);
    expect(page2.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([shared.id]);

    const member = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${read.user.id}`);
    expect(member.body.spaces).toBe(2);
    const adminMember = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${admin.user.id}`);
    expect(adminMember.body.spaces).toBe(3);
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/members/nobody/spaces`), 404, 'Member not found');
  });

  it('never shows a caller the spaces hidden from them', async () => {
    const { organization, admin, read, edit } = await newOrganizationWithRoles(server);
    const secret = await createSpace(admin, organization.id, 'Secret');
    await admin.rest('PATCH', `/v1/spaces/${secret.id}`, { defaultLevel: null });
    await grant(admin, { space: secret.id }, { user: edit.user.id }, 'edit');
    const asAdmin = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${edit.user.id}/spaces`);
    expect(asAdmin.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([secret.id]);
    const asReader = await read.rest('GET', `/v1/orgs/${organization.id}/members/${edit.user.id}/spaces`);
    expect(asReader.body).toEqual({ items: [], count: 0 });
    expect((await read.rest('GET', `/v1/orgs/${organization.id}/members/${edit.user.id}`)).body.spaces).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
  it("lists the member's teams with their team role, filtered by title in any case", async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const writers = await createTeam(admin, organization.id, 'Technical Writers', [edit.user.id]);
    server.clock.advance(1000);
    const reviewers = await createTeam(admin, organization.id, 'Reviewers', [edit.user.id]);
    await createTeam(admin, organization.id, 'Strangers');
    await setTeamRole(admin, organization.id, reviewers.id, edit.user.id, 'owner');

    const res = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${edit.user.id}/teams`);
    expect(res.status).toBe(200);
    expectContract('listTeamsForOrganizationMember', res);
    expect(res.body.items.map((i: { team: { id: string }; member: { role: string } }) => [i.team.id, i.member.role])).toEqual([
      [writers.id, 'member'],
      [reviewers.id, 'owner'],
    ]);
    const filtered = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${edit.user.id}/teams?title=WRITER`);
    expect(filtered.body.items.map((i: { team: { title: string } }) => i.team.title)).toEqual(['Technical Writers']);
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}/members/${edit.user.id}`)).body.teams).toBe(2);
    const gql = await edit.gql(
      `query($org: ID!, $user: ID!) { memberTeams(organizationId: $org, userId: $user, title: "review") { items { team { title } member { role } } } }`,
      {
        org: organization.id,
        user: edit.user.id,
      },
    );
    expect(gql.data.memberTeams.items).toEqual([{ team: { title: 'Reviewers' }, member: { role: 'owner' } }]);
  });
});

describe('memberships read with the token', () => {
  it('decide the role in every organization of a user of many, read with the token or not', async () => {
    const member = await newUser(server);
    const organizations = [];
    // More organizations than the token's statement brings memberships of: the others are read when asked.
    for (let i = 0; i < 24; i++) organizations.push((await newOrganizationWithMember(server, member, i % 2 ? 'read' : 'admin')).organization);
    for (const [i, organization] of organizations.entries()) {
      const res = await member.rest('GET', `/v1/orgs/${organization.id}/members/${member.user.id}`);
      expect(res.status).toBe(200);
      expect(res.body.role).toBe(i % 2 ? 'read' : 'admin');
      // Only admins change roles: the role read decides.
      const change = await member.rest('PATCH', `/v1/orgs/${organization.id}/members/${member.user.id}`, { role: 'review' });
      expect(change.status).toBe(i % 2 ? 403 : 200);
    }
    const outsider = await newOrganization(server, await newUser(server));
    expect((await member.rest('GET', `/v1/orgs/${outsider.id}/members/${member.user.id}`)).status).toBe(404);
  });
});
