/**
 * Invite links (contract §2.12, §4.10) on the real database: the contract's get, patch and delete
 * through REST, and the reference's list, create and join (outside the contract's operation list)
 * through GraphQL. Joining makes the caller a member with the link's role; a deleted link, or an
 * organization that turned invite links off, lets nobody in.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Member } from '../src/domain/organizations/index.js';
import { createSpace, newOrganizationWithSpace } from './support/content.js';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, newUser, rest } from './support/factories.js';
import { createInviteLink, INVITE_LINK_FIELDS, joinWithInvite } from './support/people.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

beforeEach(() => server.clock.advance(1000));

const linkPath = (organizationId: string, inviteId: string) => `/v1/orgs/${organizationId}/link-invites/${inviteId}`;

describe('creating and listing invite links (GraphQL)', () => {
  it('creates links to the organization and to content, with ids of at least 128 random bits', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, 'Partner guide');
    const collection = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Guides' })).body;
    // One second apart, so that the list's order (oldest first) is theirs.
    const later = <T>(make: () => Promise<T>) => (server.clock.advance(1000), make());
    const editors = await later(() => createInviteLink(admin, organization.id, { role: 'edit' }));
    const guests = await later(() => createInviteLink(admin, organization.id, { role: null }));
    const toSpace = await later(() => createInviteLink(admin, organization.id, { space: space.id, level: 'comment' }));
    const toCollection = await later(() => createInviteLink(admin, organization.id, { collection: collection.id, level: 'read' }));
    expect(editors).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true, createdAt: expect.any(String) });
    expect(guests).toMatchObject({ role: null, redundant: true });
    expect(toSpace).toMatchObject({ object: 'invite', level: 'comment', space: { id: space.id } });
    expect(toCollection).toMatchObject({ level: 'read', collection: { id: collection.id } });
    for (const link of [editors, guests, toSpace, toCollection]) {
      // base64url of 24 random bytes: 32 characters, 192 bits.
      expect(link.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    }
    const list = await admin.gql(`query($org: ID!) { inviteLinks(organizationId: $org, limit: 2) { count items { ${INVITE_LINK_FIELDS} } next { page } } }`, {
      org: organization.id,
    });
    expect(list.data.inviteLinks.count).toBe(4);
    expect(list.data.inviteLinks.items.map((l: { id: string }) => l.id)).toEqual([editors.id, guests.id]);
    const rest = await admin.gql(`query($org: ID!, $page: String) { inviteLinks(organizationId: $org, page: $page) { items { ${INVITE_LINK_FIELDS} } } }`, {
      org: organization.id,
      page: list.data.inviteLinks.next.page,
    });
    expect(rest.data.inviteLinks.items.map((l: { id: string }) => l.id)).toEqual([toSpace.id, toCollection.id]);
  });

  it('checks the input, naming the field', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id);
    const foreign = await createSpace(other.admin, other.organization.id);
    const create = (input: Record<string, unknown>) =>
      admin.gql(`mutation($org: ID!, $input: CreateInviteLinkInput!) { createInviteLink(organizationId: $org, input: $input) { __typename } }`, {
        org: organization.id,
        input,
      });
    expectGqlError(await create({}), 'BAD_REQUEST', 'role: is required (null invites guests)');
    expectGqlError(await create({ role: 'edit', level: 'edit' }), 'BAD_REQUEST', 'level: only a link to a space or collection takes a level');
    expectGqlError(await create({ space: space.id }), 'BAD_REQUEST', 'level: is required for a link to a space or collection');
    expectGqlError(
      await create({ space: space.id, level: 'edit', role: 'edit' }),
      'BAD_REQUEST',
      'role: a link to a space or collection takes a level, not a role',
    );
    expectGqlError(await create({ space: foreign.id, level: 'edit' }), 'BAD_REQUEST', `space: no space "${foreign.id}" in this organization`);
    expectGqlError(await create({ collection: 'nope', level: 'edit' }), 'BAD_REQUEST', 'collection: no collection "nope" in this organization');
    expectGqlError(
      await create({ space: space.id, collection: 'x', level: 'edit' }),
      'BAD_REQUEST',
      'space: a link is to one space or one collection, not both',
    );
    expectGqlError(await create({ role: 'owner' }), 'BAD_REQUEST');
  });

  it('is for organization admins only', async () => {
    const { organization, edit, outsider } = await newOrganizationWithRoles(server);
    const list = `query($org: ID!) { inviteLinks(organizationId: $org) { count } }`;
    expectGqlError(await edit.gql(list, { org: organization.id }), 'FORBIDDEN', 'Organization: this operation needs the admin role');
    expectGqlError(await outsider.gql(list, { org: organization.id }), 'NOT_FOUND', 'Organization not found');
    expectGqlError(
      await edit.gql(`mutation($org: ID!) { createInviteLink(organizationId: $org, input: { role: admin }) { __typename } }`, { org: organization.id }),
      'FORBIDDEN',
    );
  });
});

describe('GET, PATCH and DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
  it('requires a token', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: 'read' });
    expectError(await rest(server, null, 'GET', linkPath(organization.id, link.id)), 401, /Authentication required/);
  });

  it('reads a link in the reference shape, for admins only, and hides it from other organizations', async () => {
    const { organization, admin, edit, outsider } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: null });
    const res = await admin.rest('GET', linkPath(organization.id, link.id));
    expect(res.status).toBe(200);
    expectContract('getOrganizationInviteLink', res);
    expect(res.body).toEqual({ object: 'invite', id: link.id, role: null, redundant: true });
    expectError(await edit.rest('GET', linkPath(organization.id, link.id)), 403, 'Organization: this operation needs the admin role');
    expectError(await outsider.rest('GET', linkPath(organization.id, link.id)), 404, 'Organization not found');
    expectError(await other.admin.rest('GET', linkPath(other.organization.id, link.id)), 404, 'Invite link not found');
    expectError(await admin.rest('GET', linkPath(organization.id, 'nope')), 404, 'Invite link not found');
  });

  it('reads a content link with its space', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, 'Partner guide');
    const link = await createInviteLink(admin, organization.id, { space: space.id, level: 'edit' });
    const res = await admin.rest('GET', linkPath(organization.id, link.id));
    expectContract('getOrganizationInviteLink', res);
    expect(res.body).toMatchObject({ object: 'invite', id: link.id, level: 'edit', redundant: true, space: { id: space.id, title: 'Partner guide' } });
    expect(res.body.role).toBeUndefined();
  });

  it("changes an organization link's role or a content link's level", async () => {
    const { organization, admin, edit, space } = await newOrganizationWithSpace(server);
    const link = await createInviteLink(admin, organization.id, { role: 'read' });
    const res = await admin.rest('PATCH', linkPath(organization.id, link.id), { role: 'edit' });
    expect(res.status).toBe(200);
    expectContract('updateOrganizationInviteById', res);
    expect(res.body).toMatchObject({ id: link.id, role: 'edit' });
    expect((await admin.rest('PATCH', linkPath(organization.id, link.id), { role: null })).body.role).toBeNull();
    expectError(
      await admin.rest('PATCH', linkPath(organization.id, link.id), { level: 'edit' }),
      400,
      'level: this link is to the organization; change its role',
    );
    expectError(await admin.rest('PATCH', linkPath(organization.id, link.id), {}), 400, 'role: is required (null invites guests)');
    expectError(await admin.rest('PATCH', linkPath(organization.id, link.id), { role: 'owner' }), 400, /^role: /);
    expectError(await edit.rest('PATCH', linkPath(organization.id, link.id), { role: 'admin' }), 403, 'Organization: this operation needs the admin role');

    const content = await createInviteLink(admin, organization.id, { space: space.id, level: 'read' });
    const updated = await admin.rest('PATCH', linkPath(organization.id, content.id), { level: 'review' });
    expectContract('updateOrganizationInviteById', updated);
    expect(updated.body).toMatchObject({ level: 'review', space: { id: space.id } });
    expectError(
      await admin.rest('PATCH', linkPath(organization.id, content.id), { role: 'edit' }),
      400,
      'role: this link is to a space or collection; change its level',
    );
    expectError(await admin.rest('PATCH', linkPath(organization.id, content.id), { level: null }), 400, 'level: is required');
  });

  it('deletes a link, which then lets nobody in', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: 'edit' });
    expectError(await edit.rest('DELETE', linkPath(organization.id, link.id)), 403, 'Organization: this operation needs the admin role');
    const res = await admin.rest('DELETE', linkPath(organization.id, link.id));
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectError(await admin.rest('GET', linkPath(organization.id, link.id)), 404, 'Invite link not found');
    expectError(await admin.rest('DELETE', linkPath(organization.id, link.id)), 404, 'Invite link not found');
    const newcomer = await newUser(server);
    expectGqlError(await joinWithInvite(newcomer, organization.id, link.id), 'NOT_FOUND', 'Invite link not found');
    expect(await server.em().count(Member, { organization: organization.id, user: newcomer.user.id })).toBe(0);
  });
});

describe('joining with an invite link (GraphQL)', () => {
  it("makes the caller a member with the link's role", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: 'edit' });
    const newcomer = await newUser(server);
    expectError(await newcomer.rest('GET', `/v1/orgs/${organization.id}`), 404, 'Organization not found');
    const res = await joinWithInvite(newcomer, organization.id, link.id);
    expect(res.errors).toBeUndefined();
    expect(res.data.joinOrganizationWithInvite).toEqual({ id: newcomer.user.id, role: 'edit' });
    const org = await newcomer.rest('GET', `/v1/orgs/${organization.id}`);
    expect(org.body.permissions).toMatchObject({ view: true, admin: false, listMembers: true });
    const member = await admin.rest('GET', `/v1/orgs/${organization.id}/members/${newcomer.user.id}`);
    expect(member.body).toMatchObject({ role: 'edit', joinedAt: server.clock.now().toISOString() });
    // The same link works for anyone holding it; a guest link makes guests.
    const guestLink = await createInviteLink(admin, organization.id, { role: null });
    const another = await newUser(server);
    expect((await joinWithInvite(another, organization.id, guestLink.id)).data.joinOrganizationWithInvite).toEqual({ id: another.user.id, role: null });
  });

  it('leaves the role of an existing member as it is', async () => {
    const { organization, admin, read, guest } = await newOrganizationWithRoles(server);
    const adminLink = await createInviteLink(admin, organization.id, { role: 'admin' });
    expect((await joinWithInvite(read, organization.id, adminLink.id)).data.joinOrganizationWithInvite).toEqual({ id: read.user.id, role: 'read' });
    expect((await joinWithInvite(guest, organization.id, adminLink.id)).data.joinOrganizationWithInvite).toEqual({ id: guest.user.id, role: null });
    const guestLink = await createInviteLink(admin, organization.id, { role: null });
    expect((await joinWithInvite(admin, organization.id, guestLink.id)).data.joinOrganizationWithInvite).toEqual({ id: admin.user.id, role: 'admin' });
  });

  it('makes a guest with the level on the space of a content link, and nothing more', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const shared = await createSpace(admin, organization.id, 'Shared');
    const other = await createSpace(admin, organization.id, 'Other');
    await admin.rest('PATCH', `/v1/spaces/${shared.id}`, { defaultLevel: null });
    const link = await createInviteLink(admin, organization.id, { space: shared.id, level: 'edit' });
    const partner = await newUser(server);
    expect((await joinWithInvite(partner, organization.id, link.id)).data.joinOrganizationWithInvite).toEqual({ id: partner.user.id, role: null });
    const space = await partner.rest('GET', `/v1/spaces/${shared.id}`);
    expect(space.status).toBe(200);
    expect(space.body.permissions).toMatchObject({ view: true, edit: true, review: false, admin: false });
    expectError(await partner.rest('GET', `/v1/spaces/${other.id}`), 404, 'Space not found');
    expect((await partner.rest('GET', `/v1/orgs/${organization.id}/spaces`)).body.items.map((s: { id: string }) => s.id)).toEqual([shared.id]);
    // An existing member keeps their role and gains the level on the content when it is more.
    expectError(await read.rest('GET', `/v1/spaces/${shared.id}`), 404, 'Space not found');
    expect((await joinWithInvite(read, organization.id, link.id)).data.joinOrganizationWithInvite).toEqual({ id: read.user.id, role: 'read' });
    expect((await read.rest('GET', `/v1/spaces/${shared.id}`)).body.permissions.edit).toBe(true);
    // A weaker link never lowers what was given.
    const weaker = await createInviteLink(admin, organization.id, { space: shared.id, level: 'read' });
    await joinWithInvite(read, organization.id, weaker.id);
    expect((await read.rest('GET', `/v1/spaces/${shared.id}`)).body.permissions.edit).toBe(true);
  });

  it('gives the level on a collection and everything in it through a collection link', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Partners' })).body;
    const inside = await createSpace(admin, organization.id, 'Inside');
    await admin.rest('POST', `/v1/spaces/${inside.id}/move`, { parent: collection.id });
    const outside = await createSpace(admin, organization.id, 'Outside');
    const link = await createInviteLink(admin, organization.id, { collection: collection.id, level: 'comment' });
    const partner = await newUser(server);
    expect((await joinWithInvite(partner, organization.id, link.id)).errors).toBeUndefined();
    expect((await partner.rest('GET', `/v1/collections/${collection.id}`)).body.permissions).toMatchObject({ view: true, create: false });
    expect((await partner.rest('GET', `/v1/spaces/${inside.id}`)).body.permissions).toMatchObject({ comment: true, edit: false });
    expectError(await partner.rest('GET', `/v1/spaces/${outside.id}`), 404, 'Space not found');
  });

  it('refuses every link while the organization has invite links turned off (403)', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: 'read' });
    expect((await admin.rest('PATCH', `/v1/orgs/${organization.id}`, { inviteLinks: false })).status).toBe(200);
    const newcomer = await newUser(server);
    expectGqlError(await joinWithInvite(newcomer, organization.id, link.id), 'FORBIDDEN', 'Invite links are turned off in this organization');
    expect(await server.em().count(Member, { organization: organization.id, user: newcomer.user.id })).toBe(0);
    await admin.rest('PATCH', `/v1/orgs/${organization.id}`, { inviteLinks: true });
    expect((await joinWithInvite(newcomer, organization.id, link.id)).data.joinOrganizationWithInvite.role).toBe('read');
  });

  it('answers 404 for a link of another organization, and needs a token', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: 'read' });
    const newcomer = await newUser(server);
    expectGqlError(await joinWithInvite(newcomer, other.organization.id, link.id), 'NOT_FOUND', 'Invite link not found');
    const anonymous = await rest(server, null, 'POST', '/graphql', {
      query: `mutation($org: ID!, $invite: ID!) { joinOrganizationWithInvite(organizationId: $org, inviteId: $invite) { id } }`,
      variables: { org: organization.id, invite: link.id },
    });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('tells whether a link is redundant for the caller', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: 'edit' });
    await admin.rest('PATCH', `/v1/orgs/${organization.id}/members/${read.user.id}`, { role: 'admin' });
    const asRead = await read.rest('GET', linkPath(organization.id, link.id));
    expect(asRead.body.redundant).toBe(true);
    const space = await createSpace(admin, organization.id);
    const spaceLink = await createInviteLink(admin, organization.id, { space: space.id, level: 'admin' });
    expect(spaceLink.redundant).toBe(true);
  });
});
