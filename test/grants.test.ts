/**
 * Grants: roles given explicitly on a space or a collection to a team or a member (GraphQL; the
 * reference's space and collection permission operations are outside the contract), and how the
 * policy joins them with membership roles and `defaultLevel`s.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ContentGrant } from '../src/domain/grants/index.js';
import { createCollection, createSpace, newOrganizationWithSpace } from './support/content.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { newOrganization, newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createTeam, grant } from './support/people.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

beforeEach(() => server.clock.advance(1000));

const GRANT_FIELDS = 'id role team { id title } user { id } space { id } collection { id } createdAt';

const spaceRole = async (caller: Caller, spaceId: string) =>
  (await caller.gql(`query($id: ID!) { space(id: $id) { viewerRole } }`, { id: spaceId })).data?.space?.viewerRole ?? 'hidden';
const collectionRole = async (caller: Caller, collectionId: string) =>
  (await caller.gql(`query($id: ID!) { collection(id: $id) { viewerRole } }`, { id: collectionId })).data?.collection?.viewerRole ?? 'hidden';

describe('granting and revoking roles', () => {
  it('gives a member or a team a role on a space, replaces it, lists and revokes it', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, 'Handbook');
    const team = await createTeam(admin, organization.id, 'Writers');
    const mutation = `mutation($id: ID!, $input: GrantInput!) { grantSpaceRole(spaceId: $id, input: $input) { ${GRANT_FIELDS} } }`;
    const toUser = await admin.gql(mutation, { id: space.id, input: { user: read.user.id, role: 'edit' } });
    expect(toUser.data.grantSpaceRole).toEqual({
      id: expect.any(String),
      role: 'edit',
      team: null,
      user: { id: read.user.id },
      space: { id: space.id },
      collection: null,
      createdAt: server.clock.now().toISOString(),
    });
    const replaced = await admin.gql(mutation, { id: space.id, input: { user: read.user.id, role: 'review' } });
    expect(replaced.data.grantSpaceRole).toMatchObject({ id: toUser.data.grantSpaceRole.id, role: 'review' });
    server.clock.advance(1000);
    await admin.gql(mutation, { id: space.id, input: { team: team.id, role: 'comment' } });
    expect(await spaceRole(read, space.id)).toBe('review');

    const list = await admin.gql(`query($id: ID!) { spaceGrants(spaceId: $id) { count items { role team { title } user { id } } } }`, { id: space.id });
    expect(list.data.spaceGrants).toEqual({
      count: 2,
      items: [
        { role: 'review', team: null, user: { id: read.user.id } },
        { role: 'comment', team: { title: 'Writers' }, user: null },
      ],
    });
    const revoke = `mutation($id: ID!, $input: GranteeInput!) { revokeSpaceRole(spaceId: $id, input: $input) }`;
    expect((await admin.gql(revoke, { id: space.id, input: { user: read.user.id } })).data.revokeSpaceRole).toBe(true);
    expect((await admin.gql(revoke, { id: space.id, input: { user: read.user.id } })).data.revokeSpaceRole).toBe(false);
    expect(await spaceRole(read, space.id)).toBe('read');
    expect(await server.em().count(ContentGrant, { space: space.id })).toBe(1);

    // A deleted space keeps its grants, unchanged until it is restored.
    await admin.rest('DELETE', `/v1/spaces/${space.id}`);
    expectGqlError(await admin.gql(mutation, { id: space.id, input: { user: read.user.id, role: 'edit' } }), 'CONFLICT', 'Space is deleted: restore it first');
    expectGqlError(await admin.gql(revoke, { id: space.id, input: { team: team.id } }), 'CONFLICT', 'Space is deleted: restore it first');
  });

  it('checks the grantee and the role, naming the field', async () => {
    const { organization, admin, outsider } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id);
    const foreignTeam = await createTeam(other.admin, other.organization.id, 'Foreign');
    const team = await createTeam(admin, organization.id, 'Writers');
    const give = (input: Record<string, unknown>) =>
      admin.gql(`mutation($id: ID!, $input: GrantInput!) { grantSpaceRole(spaceId: $id, input: $input) { id } }`, { id: space.id, input });
    expectGqlError(await give({ role: 'edit' }), 'BAD_REQUEST', 'team or user is required (exactly one)');
    expectGqlError(await give({ role: 'edit', team: team.id, user: admin.user.id }), 'BAD_REQUEST', 'team or user is required (exactly one)');
    expectGqlError(await give({ role: 'edit', user: outsider.user.id }), 'BAD_REQUEST', `user: no member "${outsider.user.id}" in this organization`);
    expectGqlError(await give({ role: 'edit', team: foreignTeam.id }), 'BAD_REQUEST', `team: no team "${foreignTeam.id}" in this organization`);
    expectGqlError(await give({ user: admin.user.id }), 'BAD_REQUEST');
    expectGqlError(await give({ role: 'owner', user: admin.user.id }), 'BAD_REQUEST');
    expect(await server.em().count(ContentGrant, { space: space.id })).toBe(0);
  });

  it('needs the admin role on the space or collection: space admins by grant may share it further', async () => {
    const { organization, admin, edit, read, outsider, space } = await newOrganizationWithSpace(server);
    const give = (caller: Caller, user: string) =>
      caller.gql(`mutation($id: ID!, $input: GrantInput!) { grantSpaceRole(spaceId: $id, input: $input) { id } }`, {
        id: space.id,
        input: { user, role: 'edit' },
      });
    expectGqlError(await give(edit, read.user.id), 'FORBIDDEN', 'Space: this operation needs the admin role');
    expectGqlError(await give(outsider, read.user.id), 'NOT_FOUND', 'Space not found');
    await grant(admin, { space: space.id }, { user: edit.user.id }, 'admin');
    expect((await give(edit, read.user.id)).errors).toBeUndefined();
    expect(await spaceRole(read, space.id)).toBe('edit');
    const collection = await createCollection(admin, organization.id);
    expectGqlError(
      await edit.gql(`query($id: ID!) { collectionGrants(collectionId: $id) { count } }`, { id: collection.id }),
      'FORBIDDEN',
      'Collection: this operation needs the admin role',
    );
  });
});

describe('roles from grants', () => {
  it('reach everything below a granted collection, whatever the defaultLevels below', async () => {
    const { organization, admin, read, guest } = await newOrganizationWithRoles(server);
    const outer = await createCollection(admin, organization.id, { title: 'Outer' });
    const inner = await createCollection(admin, organization.id, { title: 'Inner', parent: outer.id });
    const closed = await createSpace(admin, organization.id, 'Closed');
    await admin.rest('POST', `/v1/spaces/${closed.id}/move`, { parent: inner.id });
    await admin.rest('PATCH', `/v1/collections/${inner.id}`, { defaultLevel: null });
    await admin.rest('PATCH', `/v1/spaces/${closed.id}`, { defaultLevel: null });
    expect(await collectionRole(read, inner.id)).toBe('hidden');
    expect(await spaceRole(read, closed.id)).toBe('hidden');

    const team = await createTeam(admin, organization.id, 'Writers', [read.user.id, guest.user.id]);
    await grant(admin, { collection: outer.id }, { team: team.id }, 'comment');
    for (const caller of [read, guest]) {
      expect(await collectionRole(caller, outer.id)).toBe('comment');
      expect(await collectionRole(caller, inner.id)).toBe('comment');
      expect(await spaceRole(caller, closed.id)).toBe('comment');
    }
    // The strongest role wins: a weaker grant never lowers a membership role.
    await grant(admin, { space: closed.id }, { user: read.user.id }, 'review');
    expect(await spaceRole(read, closed.id)).toBe('review');
    expect(await collectionRole(read, outer.id)).toBe('comment');
    await grant(admin, { collection: outer.id }, { user: read.user.id }, 'read');
    expect(await collectionRole(read, outer.id)).toBe('comment');
  });

  it('keep organization admins admins, and guests see only what they were given', async () => {
    const { organization, admin, guest } = await newOrganizationWithRoles(server);
    const given = await createSpace(admin, organization.id, 'Given');
    const other = await createSpace(admin, organization.id, 'Other');
    await grant(admin, { space: given.id }, { user: admin.user.id }, 'read');
    expect(await spaceRole(admin, given.id)).toBe('admin');
    await grant(admin, { space: given.id }, { user: guest.user.id }, 'comment');
    expect((await guest.rest('GET', `/v1/spaces/${given.id}`)).body.permissions).toMatchObject({ view: true, comment: true, edit: false });
    expectError(await guest.rest('GET', `/v1/spaces/${other.id}`), 404, 'Space not found');
    expect((await guest.rest('GET', `/v1/orgs/${organization.id}/spaces`)).body.items.map((s: { id: string }) => s.id)).toEqual([given.id]);
    expectError(await guest.rest('PATCH', `/v1/spaces/${given.id}`, { title: 'Mine' }), 403, 'Space: this operation needs the admin role');
  });

  it('are given up when content moves to another organization', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const elsewhere = await newOrganization(server, admin);
    const collection = await createCollection(admin, organization.id);
    const space = await createSpace(admin, organization.id);
    await admin.rest('POST', `/v1/spaces/${space.id}/move`, { parent: collection.id });
    await grant(admin, { collection: collection.id }, { user: read.user.id }, 'admin');
    await grant(admin, { space: space.id }, { user: read.user.id }, 'admin');
    const res = await admin.rest('POST', `/v1/collections/${collection.id}/transfer`, { organization: elsewhere.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await server.em().count(ContentGrant, { $or: [{ collection: collection.id }, { space: space.id }] })).toBe(0);
  });
});
