import { beforeAll, describe, expect, it } from 'vitest';
import { User } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { callerFor, gql, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

/** Instance administration: the admin* mutations, open to instance administrators only. */
const server = useTestServer();
let admin: Caller;
beforeAll(async () => {
  admin = await newUser(server, { displayName: 'Instance admin' });
  await server.em().nativeUpdate(User, { id: admin.user.id }, { instanceAdmin: true });
});

const email = (name: string) => `${name}-${newId().toLowerCase()}@example.com`;

const CREATE_USER = 'mutation($input: AdminCreateUserInput!) { adminCreateUser(input: $input) { id email displayName instanceAdmin } }';
const CREATE_TOKEN = 'mutation($input: AdminCreateApiTokenInput!) { adminCreateApiToken(input: $input) { id label token } }';
const REVOKE_TOKEN = 'mutation($user: String!, $id: ID!) { adminRevokeApiToken(user: $user, tokenId: $id) }';
const CREATE_ORG = 'mutation($input: AdminCreateOrganizationInput!) { adminCreateOrganization(input: $input) { id title } }';
const SET_MEMBER = 'mutation($org: ID!, $input: AdminSetMemberInput!) { adminSetMember(organizationId: $org, input: $input) { id role } }';
const SET_ADMIN = 'mutation($user: String!, $admin: Boolean!) { adminSetInstanceAdmin(user: $user, instanceAdmin: $admin) { id instanceAdmin } }';

describe('instance administration', () => {
  it('creates a user, issues a token that works and revokes it', async () => {
    const address = email('erin');
    const created = await admin.gql(CREATE_USER, { input: { email: address.toUpperCase(), displayName: 'Erin' } });
    expect(created.errors).toBeUndefined();
    expect(created.data.adminCreateUser).toEqual({ id: expect.any(String), email: address, displayName: 'Erin', instanceAdmin: false });
    const userId = created.data.adminCreateUser.id;

    // By e-mail address or by id.
    const byEmail = await admin.gql(CREATE_TOKEN, { input: { user: address, label: 'laptop' } });
    const byId = await admin.gql(CREATE_TOKEN, { input: { user: userId, label: 'ci' } });
    const erin = callerFor(server, created.data.adminCreateUser, byEmail.data.adminCreateApiToken.token);
    expect((await erin.rest('GET', '/v1/user')).body).toMatchObject({ id: userId, email: address });
    expect((await erin.gql('{ apiTokens { label } viewer { instanceAdmin } }')).data).toEqual({
      apiTokens: [{ label: 'laptop' }, { label: 'ci' }],
      viewer: { instanceAdmin: false },
    });

    const revoked = await admin.gql(REVOKE_TOKEN, { user: address, id: byEmail.data.adminCreateApiToken.id });
    expect(revoked.data.adminRevokeApiToken).toBe(true);
    expect((await erin.rest('GET', '/v1/user')).status).toBe(401);
    expect((await callerFor(server, erin.user, byId.data.adminCreateApiToken.token).rest('GET', '/v1/user')).status).toBe(200);
    // A token of another user is not this user's to revoke.
    const again = await admin.gql(REVOKE_TOKEN, { user: admin.user.id, id: byId.data.adminCreateApiToken.id });
    expect(again.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('issues a scoped token (the scope as createApiToken takes it) and refuses a bad scope', async () => {
    const { organization, create: member } = await newOrganizationWithRoles(server);
    const scope = { organization: organization.id, role: 'read', expiresIn: 3600 };
    type Created = { adminCreateApiToken: { organization: string; role: string; expiresAt: string; token: string } };
    const created = await admin.gql<Created>(
      'mutation($input: AdminCreateApiTokenInput!) { adminCreateApiToken(input: $input) { organization role expiresAt token } }',
      { input: { user: member.user.id, label: 'reader', scope } },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.adminCreateApiToken).toMatchObject({ organization: organization.id, role: 'read', expiresAt: expect.any(String) as unknown });
    const reader = callerFor(server, member.user, created.data.adminCreateApiToken.token);
    expect((await reader.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Not by a reader' })).status).toBe(403);

    const both = await admin.gql<null>(CREATE_TOKEN, {
      input: { user: member.user.id, label: 'bad', scope: { expiresAt: '2030-01-01T00:00:00Z', expiresIn: 60 } },
    });
    expect(both.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/give expiresAt or expiresIn, not both/) as unknown,
      extensions: { code: 'BAD_REQUEST' },
    });
    const flat = await admin.gql<null>(CREATE_TOKEN, { input: { user: member.user.id, label: 'flat', role: 'read' } });
    expect(flat.errors?.[0]?.message).toMatch(/"role" is not defined by type "AdminCreateApiTokenInput"/);
  });

  it('creates an organization for an owner and sets memberships, guests included', async () => {
    const owner = await newUser(server);
    const org = await admin.gql(CREATE_ORG, { input: { title: 'Made by the admin', owner: owner.user.email } });
    expect(org.errors).toBeUndefined();
    const organizationId = org.data.adminCreateOrganization.id;
    expect((await owner.rest('GET', `/v1/orgs/${organizationId}/members/${owner.user.id}`)).body).toMatchObject({ role: 'admin' });
    // The administrator is no member: instance administration is not organization membership.
    expect((await admin.rest('GET', `/v1/orgs/${organizationId}`)).status).toBe(404);

    const other = await newUser(server);
    const added = await admin.gql(SET_MEMBER, { org: organizationId, input: { user: other.user.email, role: 'edit' } });
    expect(added.data.adminSetMember).toEqual({ id: other.user.id, role: 'edit' });
    const guest = await admin.gql(SET_MEMBER, { org: organizationId, input: { user: other.user.id, role: null } });
    expect(guest.data.adminSetMember).toEqual({ id: other.user.id, role: null });
    expect((await owner.rest('GET', `/v1/orgs/${organizationId}/members/${other.user.id}`)).body).toMatchObject({ role: null });

    // The last admin of the organization stays one.
    const demoted = await admin.gql(SET_MEMBER, { org: organizationId, input: { user: owner.user.id, role: 'read' } });
    expect(demoted.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' }, message: expect.stringContaining('last admin') });
  });

  it('makes and unmakes instance administrators, never the last one', async () => {
    const dana = await newUser(server);
    const made = await admin.gql(SET_ADMIN, { user: dana.user.email, admin: true });
    expect(made.data.adminSetInstanceAdmin).toEqual({ id: dana.user.id, instanceAdmin: true });
    expect((await dana.gql(CREATE_USER, { input: { email: email('by-dana'), displayName: 'By Dana' } })).errors).toBeUndefined();
    expect((await dana.gql(SET_ADMIN, { user: dana.user.id, admin: false })).data.adminSetInstanceAdmin.instanceAdmin).toBe(false);
    expect((await dana.gql(CREATE_USER, { input: { email: email('x'), displayName: 'X' } })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // Everyone else stepping down leaves `admin` the last one, who cannot.
    await server.em().nativeUpdate(User, { instanceAdmin: true, id: { $ne: admin.user.id } }, { instanceAdmin: false });
    const last = await admin.gql(SET_ADMIN, { user: admin.user.id, admin: false });
    expect(last.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' }, message: expect.stringContaining('last instance administrator') });
  });

  it('shows whether a user is an instance administrator to that user and to administrators only', async () => {
    const { organization, admin: orgAdmin, read } = await newOrganizationWithRoles(server);
    const query = `{ members(organizationId: "${organization.id}") { items { id user { instanceAdmin } } } }`;
    const seenByMember = (await read.gql(query)).data.members.items;
    expect(seenByMember.find((m: { id: string }) => m.id === read.user.id).user.instanceAdmin).toBe(false);
    expect(seenByMember.find((m: { id: string }) => m.id === orgAdmin.user.id).user.instanceAdmin).toBeNull();
    await server.em().nativeUpdate(User, { id: read.user.id }, { instanceAdmin: true });
    const seenByAdmin = (await read.gql(query)).data.members.items;
    expect(seenByAdmin.find((m: { id: string }) => m.id === orgAdmin.user.id).user.instanceAdmin).toBe(false);
  });

  it('refuses callers who are no instance administrators, and callers without a token', async () => {
    const { admin: organizationAdmin } = await newOrganizationWithRoles(server);
    const calls: [string, Record<string, unknown>][] = [
      [CREATE_USER, { input: { email: email('mallory'), displayName: 'Mallory' } }],
      [CREATE_TOKEN, { input: { user: organizationAdmin.user.id, label: 'x' } }],
      [REVOKE_TOKEN, { user: admin.user.id, id: 'x' }],
      [CREATE_ORG, { input: { title: 'Nope', owner: organizationAdmin.user.id } }],
      [SET_MEMBER, { org: 'x', input: { user: organizationAdmin.user.id, role: 'admin' } }],
      [SET_ADMIN, { user: organizationAdmin.user.id, admin: true }],
    ];
    for (const [document, variables] of calls) {
      const denied = await organizationAdmin.gql(document, variables);
      expect(denied.errors?.[0]?.extensions?.code, document).toBe('FORBIDDEN');
      const anonymous = await gql(server, null, document, variables);
      expect(anonymous.errors?.[0]?.extensions?.code, document).toBe('UNAUTHENTICATED');
    }
    expect(await server.em().count(User, { email: { $like: 'mallory-%' } })).toBe(0);
  });

  it('answers bad input with 400 naming the field, unknown users and organizations with 404', async () => {
    const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
      [CREATE_USER, { input: { email: 'not-an-email', displayName: 'X' } }, 'BAD_REQUEST', 'email: must be an e-mail address'],
      [CREATE_USER, { input: { email: admin.user.email, displayName: 'X' } }, 'CONFLICT', /^email: a user with e-mail .* already exists$/],
      [CREATE_TOKEN, { input: { user: admin.user.id, label: 'x'.repeat(101) } }, 'BAD_REQUEST', 'label: must be at most 100 characters'],
      [CREATE_TOKEN, { input: { user: 'nobody@example.com', label: 'x' } }, 'NOT_FOUND', 'User nobody@example.com not found'],
      [CREATE_ORG, { input: { title: 'x', owner: admin.user.id } }, 'BAD_REQUEST', 'title: must be at least 2 characters'],
      [CREATE_ORG, { input: { title: 'Fine', owner: 'no-such-user' } }, 'NOT_FOUND', 'User no-such-user not found'],
      [SET_MEMBER, { org: 'no-such-org', input: { user: admin.user.id, role: 'read' } }, 'NOT_FOUND', 'Organization not found'],
      [SET_MEMBER, { org: 'x', input: { user: admin.user.id } }, 'BAD_REQUEST', /^role: /],
    ];
    for (const [document, variables, code, message] of cases) {
      const res = await admin.gql(document, variables);
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe(code);
      if (typeof message === 'string') expect(res.errors![0].message).toBe(message);
      else expect(res.errors![0].message).toMatch(message);
    }
  });
});
