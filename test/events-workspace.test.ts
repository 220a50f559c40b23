/**
 * Domain events of the workspace areas: each change through a public door records one event of its
 * type, with its actor, target and payload in the contract's shape, in the change's transaction; a
 * refused change records nothing; of concurrent identical changes, each committed one has its event.
 */
import { describe, expect, it } from 'vitest';
import { User } from '../src/domain/users/index.js';
import type { DomainEventRow } from '../src/events/entities.js';
import { createCollection, createPage, createSpace, merge, openChangeRequest } from './support/content.js';
import { eventsOf, lastEventSeq } from './support/events.js';
import { expectError } from './support/expectations.js';
import { newMember, newOrganization, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

/** The events of the organization after `since`, oldest first: what the test did. */
async function eventsSince(organizationId: string, since: number): Promise<DomainEventRow[]> {
  return eventsOf(server, organizationId, since);
}

/** The only event of `type` among `events`. */
function only(events: DomainEventRow[], type: string): DomainEventRow {
  const found = events.filter((e) => e.type === type);
  expect(
    found.map((e) => e.type),
    `events of ${type}: ${events.map((e) => e.type).join(', ')}`,
  ).toEqual([type]);
  return found[0];
}

const typesOf = (events: DomainEventRow[]) => events.map((e) => e.type);

async function gqlOk(caller: Caller, query: string, variables: Record<string, unknown>) {
  const res = await caller.gql(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

describe('events of organizations and members', () => {
  it('records organization.created (GraphQL) and organization.updated with the changed fields (REST)', async () => {
    const owner = await newUser(server);
    const data = await gqlOk(owner, `mutation { createOrganization(input: { title: "Acme" }) { id } }`, {});
    const organizationId = data.createOrganization.id;
    const created = only(await eventsSince(organizationId, 0), 'organization.created');
    expect(created).toMatchObject({
      actorUserId: owner.user.id,
      door: 'graphql',
      operation: 'createOrganization',
      target: { organizationId },
      payload: { object: 'organization', id: organizationId, title: 'Acme', defaultRole: 'read', inviteLinks: true },
    });
    expect(created.payload).not.toHaveProperty('permissions');
    expect(created.payload).not.toHaveProperty('urls');

    const since = await lastEventSeq(server);
    expect((await owner.rest('PATCH', `/v1/orgs/${organizationId}`, { title: 'Acme Inc', ai: false, sso: true })).status).toBe(200);
    const updated = only(await eventsSince(organizationId, since), 'organization.updated');
    expect(updated).toMatchObject({
      door: 'rest',
      operation: 'updateOrganizationById',
      actorUserId: owner.user.id,
      payload: { title: 'Acme Inc', sso: true, changes: ['title', 'sso'] },
    });

    // Nothing changed, nothing announced.
    const unchanged = await lastEventSeq(server);
    expect((await owner.rest('PATCH', `/v1/orgs/${organizationId}`, { title: 'Acme Inc' })).status).toBe(200);
    expect(await eventsSince(organizationId, unchanged)).toEqual([]);
  });

  it('records invite links created, updated and deleted without their secret id, and member joined, updated and removed', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const orgId = organization.id;
    const since = await lastEventSeq(server);
    const data = await gqlOk(
      admin,
      `mutation($o: ID!) { createInviteLink(organizationId: $o, input: { role: read }) { ... on OrganizationInviteLink { id } } }`,
      { o: orgId },
    );
    const inviteId = data.createInviteLink.id as string;
    expect((await admin.rest('PATCH', `/v1/orgs/${orgId}/link-invites/${inviteId}`, { role: 'edit' })).status).toBe(200);

    const joiner = await newUser(server);
    await gqlOk(joiner, `mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organizationId: $o, inviteId: $i) { id } }`, { o: orgId, i: inviteId });
    // Joining again changes nothing: no second event.
    await gqlOk(joiner, `mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organizationId: $o, inviteId: $i) { id } }`, { o: orgId, i: inviteId });
    expect((await admin.rest('PATCH', `/v1/orgs/${orgId}/members/${joiner.user.id}`, { role: 'create' })).status).toBe(200);
    expect((await admin.rest('DELETE', `/v1/orgs/${orgId}/members/${joiner.user.id}`)).status).toBe(204);
    expect((await admin.rest('DELETE', `/v1/orgs/${orgId}/link-invites/${inviteId}`)).status).toBe(204);

    const events = await eventsSince(orgId, since);
    expect(typesOf(events)).toEqual(['invite.created', 'invite.updated', 'member.joined', 'member.updated', 'member.removed', 'invite.deleted']);
    const [created, updated, joined, roleChanged, removed, deleted] = events;
    expect(created).toMatchObject({ actorUserId: admin.user.id, target: { organizationId: orgId }, payload: { object: 'invite', role: 'read' } });
    expect(updated.payload).toMatchObject({ role: 'edit', changes: ['role'] });
    for (const event of [created, updated, joined, deleted]) expect(JSON.stringify(event)).not.toContain(inviteId);
    expect(deleted.payload.fingerprint).toBe(created.payload.fingerprint);
    expect(joined).toMatchObject({
      actorUserId: joiner.user.id,
      operation: 'joinOrganizationWithInvite',
      target: { organizationId: orgId, userId: joiner.user.id },
      payload: { object: 'member', id: joiner.user.id, role: 'edit', invite: created.payload.fingerprint },
    });
    expect(roleChanged).toMatchObject({ operation: 'updateMemberInOrganizationById', payload: { role: 'create', changes: ['role'] } });
    expect(removed).toMatchObject({
      operation: 'removeMemberFromOrganizationById',
      target: { userId: joiner.user.id },
      payload: { id: joiner.user.id, role: 'create' },
    });
  });
});

describe('events of teams and permissions', () => {
  it('records team created, updated, members changed and deleted', async () => {
    const { organization, admin, edit, read } = await newOrganizationWithRoles(server);
    const teams = `/v1/orgs/${organization.id}/teams`;
    const since = await lastEventSeq(server);
    const team = (await admin.rest('PUT', teams, { title: 'Writers', members: [edit.user.id] })).body;
    const teamPath = `${teams}/${team.id}`;
    expect((await admin.rest('PATCH', teamPath, { title: 'Authors' })).status).toBe(200);
    expect((await admin.rest('PUT', `${teamPath}/members`, { add: [read.user.email], remove: [edit.user.id] })).status).toBe(204);
    expect((await admin.rest('PUT', `${teamPath}/members/${edit.user.id}`, { role: 'owner' })).status).toBe(204);
    expect((await admin.rest('DELETE', `${teamPath}/members/${read.user.id}`)).status).toBe(204);
    expect((await admin.rest('DELETE', teamPath)).status).toBe(204);

    const events = await eventsSince(organization.id, since);
    expect(typesOf(events)).toEqual(['team.created', 'team.updated', 'team.members_changed', 'team.members_changed', 'team.members_changed', 'team.deleted']);
    const [created, renamed, bulk, added, removed, deleted] = events;
    expect(created).toMatchObject({ target: { teamId: team.id }, payload: { object: 'team', id: team.id, title: 'Writers', initialMembers: [edit.user.id] } });
    expect(renamed.payload).toMatchObject({ title: 'Authors', changes: ['title'] });
    expect(bulk.payload).toMatchObject({ team: { id: team.id }, added: [read.user.id], removed: [edit.user.id], roles: {} });
    expect(added.payload).toMatchObject({ added: [edit.user.id], removed: [] });
    expect(removed.payload).toMatchObject({ added: [], removed: [read.user.id] });
    expect(deleted).toMatchObject({ actorUserId: admin.user.id, operation: 'removeTeamFromOrganizationById', payload: { id: team.id, title: 'Authors' } });
  });

  it('records permission granted and revoked on a space (user) and a collection (team)', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id);
    const collection = await createCollection(admin, organization.id);
    const team = (await admin.rest('PUT', `/v1/orgs/${organization.id}/teams`, { title: 'Readers' })).body;
    const since = await lastEventSeq(server);
    await gqlOk(admin, `mutation($s: ID!, $u: ID!) { grantSpaceRole(spaceId: $s, input: { user: $u, role: edit }) { role } }`, {
      s: space.id,
      u: read.user.id,
    });
    await gqlOk(admin, `mutation($c: ID!, $t: ID!) { grantCollectionRole(collectionId: $c, input: { team: $t, role: comment }) { role } }`, {
      c: collection.id,
      t: team.id,
    });
    await gqlOk(admin, `mutation($s: ID!, $u: ID!) { revokeSpaceRole(spaceId: $s, input: { user: $u }) }`, { s: space.id, u: read.user.id });
    // Revoking what is not there changes nothing.
    await gqlOk(admin, `mutation($s: ID!, $u: ID!) { revokeSpaceRole(spaceId: $s, input: { user: $u }) }`, { s: space.id, u: read.user.id });

    const events = await eventsSince(organization.id, since);
    expect(typesOf(events)).toEqual(['permission.granted', 'permission.granted', 'permission.revoked']);
    expect(events[0]).toMatchObject({
      operation: 'grantSpaceRole',
      target: { spaceId: space.id, userId: read.user.id },
      payload: { space: space.id, collection: null, user: read.user.id, team: null, role: 'edit' },
    });
    expect(events[1]).toMatchObject({
      target: { collectionId: collection.id, teamId: team.id },
      payload: { collection: collection.id, team: team.id, role: 'comment' },
    });
    expect(events[2]).toMatchObject({ operation: 'revokeSpaceRole', payload: { space: space.id, user: read.user.id, role: 'edit' } });
  });
});

describe('events of collections and spaces', () => {
  it('records collection created, updated, moved, transferred and deleted', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin);
    const since = await lastEventSeq(server);
    const parent = await createCollection(admin, organization.id, { title: 'Guides' });
    const child = await createCollection(admin, organization.id, { title: 'Setup' });
    const inner = await createSpace(admin, organization.id, { title: 'Inner' });
    expect((await admin.rest('PATCH', `/v1/collections/${child.id}`, { description: 'How to' })).status).toBe(200);
    expect((await admin.rest('POST', `/v1/collections/${child.id}/move`, { parent: parent.id })).status).toBe(200);
    expect((await admin.rest('POST', `/v1/spaces/${inner.id}/move`, { parent: child.id })).status).toBe(200);
    expect((await admin.rest('POST', `/v1/collections/${child.id}/transfer`, { organization: other.id })).status).toBe(200);
    expect((await admin.rest('DELETE', `/v1/collections/${parent.id}`)).status).toBe(204);

    const events = await eventsSince(organization.id, since);
    expect(typesOf(events)).toEqual([
      'collection.created',
      'collection.created',
      'space.created',
      'collection.updated',
      'collection.moved',
      'space.moved',
      'collection.transferred',
      'collection.deleted',
    ]);
    const [created, , , updated, moved, , transferred, deleted] = events;
    expect(created).toMatchObject({
      operation: 'createCollection',
      target: { collectionId: parent.id },
      payload: { object: 'collection', id: parent.id, title: 'Guides', organization: organization.id, parent: null },
    });
    expect(updated.payload).toMatchObject({ description: 'How to', changes: ['description'] });
    expect(moved.payload).toMatchObject({
      parent: parent.id,
      from: { organization: organization.id, parent: null },
      to: { organization: organization.id, parent: parent.id },
    });
    expect(transferred).toMatchObject({
      target: { collectionId: child.id, toOrganizationId: other.id },
      payload: {
        organization: other.id,
        from: { organization: organization.id, parent: parent.id },
        to: { organization: other.id, parent: null },
        spaces: [inner.id],
      },
    });
    expect(transferred.targetIds).toContain(other.id);
    expect(deleted).toMatchObject({ operation: 'deleteCollectionById', payload: { id: parent.id, collections: [], spaces: [] } });
    // The organization it joined records nothing of its own: the transfer is one change, one event.
    expect(await eventsSince(other.id, since)).toEqual([]);
  });

  it('records space created (and duplicated), updated, deleted, restored, moved and transferred', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin);
    const collection = await createCollection(admin, organization.id);
    const since = await lastEventSeq(server);
    const space = await createSpace(admin, organization.id, { title: 'Handbook' });
    const copy = (await admin.rest('POST', `/v1/spaces/${space.id}/duplicate`)).body;
    expect((await admin.rest('PATCH', `/v1/spaces/${space.id}`, { title: 'Handbook 2', visibility: 'private' })).status).toBe(200);
    expect((await admin.rest('DELETE', `/v1/spaces/${copy.id}`)).status).toBe(204);
    expect((await admin.rest('POST', `/v1/spaces/${copy.id}/restore`)).status).toBe(200);
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/move`, { parent: collection.id })).status).toBe(200);
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: other.id })).status).toBe(200);

    const events = await eventsSince(organization.id, since);
    expect(typesOf(events)).toEqual(['space.created', 'space.created', 'space.updated', 'space.deleted', 'space.restored', 'space.moved', 'space.transferred']);
    const [created, duplicated, updated, deleted, restored, moved, transferred] = events;
    expect(created).toMatchObject({
      actorUserId: admin.user.id,
      operation: 'createSpace',
      target: { spaceId: space.id },
      payload: { object: 'space', id: space.id, title: 'Handbook', visibility: 'private', organization: organization.id, revision: space.revision },
    });
    expect(duplicated).toMatchObject({
      operation: 'duplicateSpace',
      target: { spaceId: copy.id },
      payload: { id: copy.id, title: 'Handbook (copy)', duplicatedFrom: space.id },
    });
    expect(updated.payload).toMatchObject({ title: 'Handbook 2', changes: ['title'] });
    expect(deleted.payload).toMatchObject({ id: copy.id, deletedAt: server.clock.now().toISOString() });
    expect(restored.payload).toMatchObject({ id: copy.id, deletedAt: null });
    expect(moved.payload).toMatchObject({ from: { parent: null }, to: { parent: collection.id } });
    expect(transferred).toMatchObject({
      target: { spaceId: space.id, toOrganizationId: other.id },
      payload: { organization: other.id, from: { organization: organization.id, parent: collection.id }, to: { organization: other.id, parent: null } },
    });
  });
});

describe('events of change requests and content', () => {
  it('records change request opened, updated, status changed, content edited per revision, and merged', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id);
    const since = await lastEventSeq(server);
    const cr = await openChangeRequest(edit, space.id, 'Intro');
    const crPath = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const edited = await createPage(edit, space.id, cr.id, { title: 'Welcome' });
    expect((await edit.rest('PATCH', crPath, { subject: 'Introduction' })).status).toBe(200);
    expect((await edit.rest('PATCH', crPath, { status: 'draft' })).status).toBe(200);
    const merged = await merge(admin, space.id, cr.id);
    expect(merged.status).toBe(200);

    const events = await eventsSince(organization.id, since);
    expect(typesOf(events)).toEqual([
      'change_request.opened',
      'content.edited',
      'change_request.updated',
      'change_request.status_changed',
      'content.edited',
      'change_request.merged',
    ]);
    const [opened, edit1, updated, status, mergeRevision, mergedEvent] = events;
    expect(opened).toMatchObject({
      actorUserId: edit.user.id,
      operation: 'createChangeRequest',
      target: { spaceId: space.id, changeRequestId: cr.id },
      payload: { object: 'change-request', id: cr.id, number: cr.number, status: 'open', subject: 'Intro', createdBy: edit.user.id },
    });
    expect(edit1).toMatchObject({
      door: 'graphql',
      operation: 'createPage',
      target: { spaceId: space.id, changeRequestId: cr.id, revisionId: edited.revision.id },
      payload: { object: 'revision', id: edited.revision.id, type: 'edits', parents: edited.revision.parents, createdBy: edit.user.id },
    });
    expect(updated.payload).toMatchObject({ subject: 'Introduction', changes: ['subject'] });
    expect(status.payload).toMatchObject({ status: 'draft', from: 'open', to: 'draft' });
    expect(mergeRevision).toMatchObject({
      actorUserId: admin.user.id,
      operation: 'mergeChangeRequest',
      target: { revisionId: merged.body.revision },
      payload: { type: 'merge', changeRequest: cr.id },
    });
    expect(mergedEvent).toMatchObject({ payload: { status: 'merged', revisionMerged: merged.body.revision } });
  });

  it('records content.edited for the revision an update from main writes', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id);
    const first = await openChangeRequest(admin, space.id, 'First');
    const second = await openChangeRequest(admin, space.id, 'Second');
    await createPage(admin, space.id, first.id, { title: 'One' });
    expect((await merge(admin, space.id, first.id)).status).toBe(200);
    const since = await lastEventSeq(server);
    const updated = await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${second.id}/update`);
    expect(updated.status).toBe(200);
    const event = only(await eventsSince(organization.id, since), 'content.edited');
    expect(event).toMatchObject({
      operation: 'updateChangeRequest',
      target: { changeRequestId: second.id, revisionId: updated.body.revision },
      payload: { type: 'update', changeRequest: second.id },
    });
  });

  it('records saml.updated when a provider is created, changed and deleted', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const path = `/v1/orgs/${organization.id}/saml`;
    const since = await lastEventSeq(server);
    const provider = (await admin.rest('POST', path, { label: 'Okta' })).body;
    expect((await admin.rest('PATCH', `${path}/${provider.id}`, { label: 'Okta SSO' })).status).toBe(200);
    expect((await admin.rest('DELETE', `${path}/${provider.id}`)).status).toBe(204);
    const events = await eventsSince(organization.id, since);
    expect(events.map((e) => [e.type, e.payload.change])).toEqual([
      ['saml.updated', 'created'],
      ['saml.updated', 'updated'],
      ['saml.updated', 'deleted'],
    ]);
    expect(events[1]).toMatchObject({
      target: { organizationId: organization.id, samlProviderId: provider.id },
      payload: { provider: { object: 'saml-provider', label: 'Okta SSO' }, changes: ['label'] },
    });
  });
});

describe('refused and concurrent changes', () => {
  it('records nothing for a change refused with 403, 400 or 409', async () => {
    const { organization, admin, edit, read } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id);
    const since = await lastEventSeq(server);
    expectError(await read.rest('PATCH', `/v1/spaces/${space.id}`, { title: 'Mine' }), 403);
    expectError(await edit.rest('PUT', `/v1/orgs/${organization.id}/teams`, { title: 'Mine' }), 403);
    expectError(await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'x'.repeat(51) }), 400);
    expectError(await admin.rest('PATCH', `/v1/orgs/${organization.id}/members/${admin.user.id}`, { role: 'read' }), 409);
    expectError(await admin.rest('DELETE', `/v1/orgs/${organization.id}/members/${admin.user.id}`), 409);
    expect(await eventsSince(organization.id, since)).toEqual([]);
  });

  it('of identical concurrent changes records one event per committed change, none for the loser', async () => {
    const { organization, admin, edit, read } = await newOrganizationWithRoles(server);
    const team = (await admin.rest('PUT', `/v1/orgs/${organization.id}/teams`, { title: 'Writers' })).body;
    const teamPath = `/v1/orgs/${organization.id}/teams/${team.id}`;
    const space = await createSpace(admin, organization.id);
    const collection = await createCollection(admin, organization.id);
    const since = await lastEventSeq(server);

    const adds = await Promise.all([1, 2, 3].map(() => admin.rest('PUT', `${teamPath}/members/${edit.user.id}`, {})));
    expect(adds.map((r) => r.status)).toEqual([204, 204, 204]);
    const bulkAdds = await Promise.all([1, 2].map(() => admin.rest('PUT', `${teamPath}/members`, { add: [read.user.id] })));
    expect(bulkAdds.map((r) => r.status)).toEqual([204, 204]);
    const moves = await Promise.all([1, 2].map(() => admin.rest('POST', `/v1/spaces/${space.id}/move`, { parent: collection.id })));
    expect(moves.map((r) => r.status)).toEqual([200, 200]);
    const deletions = await Promise.all([1, 2].map(() => admin.rest('DELETE', teamPath)));
    // The second deletion either found the team gone (404) or lost the race inside (204, nothing deleted).
    expect(deletions.map((r) => r.status)).toContain(204);
    for (const res of deletions) expect([204, 404]).toContain(res.status);

    const events = await eventsSince(organization.id, since);
    // Three identical adds, then two identical bulk adds: one of each added the member, the others changed nothing.
    expect(events.filter((e) => e.type === 'team.members_changed').map((e) => e.payload.added)).toEqual([[edit.user.id], [read.user.id]]);
    // Two moves both committed (the second to the same parent, at its end): each has its event.
    expect(events.filter((e) => e.type === 'space.moved')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'team.deleted')).toHaveLength(1);
    // Every event is of a distinct committed change.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('records member.joined once for an administrator adding a user, and member.updated for a role change', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    const user = await newUser(server);
    const instanceAdmin = await newMember(server, organization.id, 'admin');
    await server.em().nativeUpdate(User, { id: instanceAdmin.user.id }, { instanceAdmin: true });
    const since = await lastEventSeq(server);
    const set = (role: string | null) =>
      gqlOk(instanceAdmin, `mutation($o: ID!, $u: String!, $r: Role) { adminSetMember(organizationId: $o, input: { user: $u, role: $r }) { role } }`, {
        o: organization.id,
        u: user.user.email,
        r: role,
      });
    await set('read');
    await set('read');
    await set('edit');
    const events = await eventsSince(organization.id, since);
    expect(typesOf(events)).toEqual(['member.joined', 'member.updated']);
    expect(events[1]).toMatchObject({ actorUserId: instanceAdmin.user.id, payload: { role: 'edit', changes: ['role'] } });
  });
});
