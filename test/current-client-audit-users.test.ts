/**
 * The current client's (`@gitbook/api@0.202.0`) audit events, updating a user and inviting users by
 * e-mail address, each called through that client and validated against its reference: the happy
 * paths, permission denials, bad input and unknown ids; concurrent invitations make one user and one
 * membership per address.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Member } from '../src/domain/organizations/index.js';
import { User } from '../src/domain/users/index.js';
import { DomainEvent } from '../src/events/entities.js';
import { EVENT_TYPES } from '../src/events/types.js';
import { newId } from '../src/kernel/ids.js';
import { createSpace } from './support/content.js';
import { currentClientFor, expectCurrent, expectRefused, role } from './support/current-client.js';
import { eventsOf, lastEventSeq, recordTeamEvents } from './support/events.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { newOrganization, newOrganizationWithRoles, newUser, type Caller, type OrganizationWithRoles } from './support/factories.js';
import { runMigration } from './support/migrations.js';
import { databaseDigest } from './support/sql.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MINUTE = 60_000;

/** A fresh address no user has. */
const newAddress = (name = 'invitee') => `${name}-${newId().toLowerCase()}@example.com`;

describe('audit events', () => {
  let team: OrganizationWithRoles;
  let spaceId: string;
  /** When the space was created, renamed, and the rename refused to a reader. */
  let times: { created: Date; renamed: Date; refused: Date };

  beforeAll(async () => {
    team = await newOrganizationWithRoles(server);
    server.clock.advance(MINUTE);
    const created = server.clock.now();
    spaceId = (await createSpace(team.admin, team.organization.id, { title: 'Handbook' })).id;
    server.clock.advance(MINUTE);
    const renamed = server.clock.now();
    expect((await team.admin.rest('PATCH', `/v1/spaces/${spaceId}`, { title: 'Guide' })).status).toBe(200);
    server.clock.advance(MINUTE);
    const refused = server.clock.now();
    expectError(await team.read.rest('PATCH', `/v1/spaces/${spaceId}`, { title: 'Mine' }), 403);
    times = { created, renamed, refused };
  });

  const list = (caller: Caller, query: Parameters<ReturnType<typeof clientFor>['orgs']['listOrganizationAuditEvents']>[1] = {}) =>
    expectCurrent('listOrganizationAuditEvents', clientFor(caller).orgs.listOrganizationAuditEvents(team.organization.id, query));

  it('lists the changes and refusals newest first, in 0.202.0 shape, and each by its uuid', async () => {
    const { items, next } = await list(team.admin, { from: times.created.toISOString() });
    expect(next).toBeUndefined();
    expect(items.map((item) => item.action)).toEqual(['mutation.refused', 'space.updated', 'space.created']);
    const [refusal, renamed, created] = items;
    expect(created.id).toMatch(UUID);
    expect(created).toEqual({
      object: 'audit-event',
      id: created.id,
      occurredAt: times.created.toISOString(),
      action: 'space.created',
      actor: { type: 'user', id: team.admin.user.id, label: team.admin.user.displayName },
      source: 'api',
      target: { type: 'space', id: spaceId },
      urls: { location: `${server.deps.config.publicUrl}/v1/orgs/${team.organization.id}/audit-events/${created.id}` },
    });
    expect(renamed).toMatchObject({ occurredAt: times.renamed.toISOString(), target: { type: 'space', id: spaceId } });
    expect(refusal).toMatchObject({ actor: { type: 'user', id: team.read.user.id }, target: { type: 'space', id: spaceId } });
    expect(new Set(items.map((item) => item.id)).size).toBe(3);

    const api = clientFor(team.admin);
    const details = await expectCurrent('getOrganizationAuditEvent', api.orgs.getOrganizationAuditEvent(team.organization.id, renamed.id));
    const { schemaVersion, payload, ...summary } = details;
    expect(summary).toEqual(renamed);
    expect(schemaVersion).toBe(1);
    expect(payload).toMatchObject({ object: 'space', id: spaceId, title: 'Guide', changes: ['title'] });
    const refused = await expectCurrent('getOrganizationAuditEvent', api.orgs.getOrganizationAuditEvent(team.organization.id, refusal.id.toUpperCase()));
    expect(Object.keys(refused.payload)).toEqual(['status', 'message']);
    expect(refused.payload.status).toBe(403);
  });

  it('filters by action, actor, target and an inclusive time range', async () => {
    const from = times.created.toISOString();
    const actions = async (query: Record<string, string>) => (await list(team.admin, { from, ...query })).items.map((item) => item.action);
    expect(await actions({ action: 'space.updated' })).toEqual(['space.updated']);
    expect(await actions({ actor: team.admin.user.id })).toEqual(['space.updated', 'space.created']);
    expect(await actions({ actor: team.read.user.id })).toEqual(['mutation.refused']);
    expect(await actions({ target: spaceId, action: 'space.created' })).toEqual(['space.created']);
    expect(await actions({ target: 'nothing-by-this-id' })).toEqual([]);
    // Both ends inclusive: exactly the rename's instant.
    expect(await actions({ from: times.renamed.toISOString(), to: times.renamed.toISOString() })).toEqual(['space.updated']);
    expect(await actions({ to: times.renamed.toISOString() })).toEqual(['space.updated', 'space.created']);
  });

  it('pages newest first, 20 by default, each event once; the server is an actor of its own', async () => {
    const other = await newOrganizationWithRoles(server);
    const recorded = await recordTeamEvents(server, other.organization.id, 23);
    const api = clientFor(other.admin);
    const first = await expectCurrent(
      'listOrganizationAuditEvents',
      api.orgs.listOrganizationAuditEvents(other.organization.id, { actor: 'server', action: 'team.created' }),
    );
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toMatchObject({ actor: { type: 'system', id: 'server' }, source: 'workflow', target: { type: 'team', id: 'team-22' } });
    const seen = first.items.map((item) => item.id);
    let page = first.next?.page;
    while (page) {
      const more = await expectCurrent(
        'listOrganizationAuditEvents',
        api.orgs.listOrganizationAuditEvents(other.organization.id, { actor: 'server', action: 'team.created', limit: 2, page }),
      );
      seen.push(...more.items.map((item) => item.id));
      page = more.next?.page;
    }
    expect(seen).toEqual(recorded.map((event) => event.uuid).reverse());
  });

  it('refuses bad filters and pages with 400', async () => {
    const api = clientFor(team.admin);
    const organizationId = team.organization.id;
    for (const query of [
      { action: 'space.exploded' },
      { limit: 0 },
      { limit: 101 },
      { from: 'yesterday' },
      { from: times.renamed.toISOString(), to: times.created.toISOString() },
      { page: 'not-a-page' },
    ]) {
      await expectRefused(api.orgs.listOrganizationAuditEvents(organizationId, query), 400);
    }
    expectError(
      await team.admin.rest('GET', `/v1/orgs/${organizationId}/audit-events?action=space.exploded`),
      400,
      'action: not an audit action: "space.exploded"',
    );
    expectError(await team.admin.rest('GET', `/v1/orgs/${organizationId}/audit-events?limit=101`), 400, 'limit: must be an integer from 1 to 100');
  });

  it('is for the organization admins: members 403, outsiders and unknown organizations 404', async () => {
    const organizationId = team.organization.id;
    const { items } = await list(team.admin);
    for (const member of [team.create, team.read, team.guest]) {
      const api = clientFor(member);
      await expectRefused(api.orgs.listOrganizationAuditEvents(organizationId), 403);
      await expectRefused(api.orgs.getOrganizationAuditEvent(organizationId, items[0].id), 403);
      await expectRefused(api.orgs.listOrganizationAuditEventActions(organizationId), 403);
    }
    const outsider = clientFor(team.outsider);
    await expectRefused(outsider.orgs.listOrganizationAuditEvents(organizationId), 404);
    await expectRefused(outsider.orgs.getOrganizationAuditEvent(organizationId, items[0].id), 404);
    await expectRefused(outsider.orgs.listOrganizationAuditEventActions(organizationId), 404);
    await expectRefused(clientFor(team.admin).orgs.listOrganizationAuditEvents('no-such-organization'), 404);
  });

  it("answers 404 for an unknown id, one that is not a uuid, and another organization's event", async () => {
    const api = clientFor(team.admin);
    const elsewhere = await newOrganizationWithRoles(server);
    const [theirs] = (
      await expectCurrent('listOrganizationAuditEvents', clientFor(elsewhere.admin).orgs.listOrganizationAuditEvents(elsewhere.organization.id))
    ).items;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', theirs.id]) {
      await expectRefused(api.orgs.getOrganizationAuditEvent(team.organization.id, id), 404);
    }
    // Through its own organization it is found.
    await expectCurrent('getOrganizationAuditEvent', clientFor(elsewhere.admin).orgs.getOrganizationAuditEvent(elsewhere.organization.id, theirs.id));
  });

  it('lists every action of the event catalogue, labelled', async () => {
    const { items } = await expectCurrent(
      'listOrganizationAuditEventActions',
      clientFor(team.admin).orgs.listOrganizationAuditEventActions(team.organization.id),
    );
    expect(items.map((item) => item.id)).toEqual(Object.keys(EVENT_TYPES));
    expect(items).toContainEqual({ object: 'audit-event-action', id: 'space.created', label: EVENT_TYPES['space.created'] });
    expect(items).toContainEqual({ object: 'audit-event-action', id: 'mutation.refused', label: EVENT_TYPES['mutation.refused'] });
  });

  it('answers the same through GraphQL', async () => {
    const res = await team.admin.gql<{ auditEvents: { items: { action: string; target: { id: string } }[] } }>(
      `query($o: ID!, $from: DateTime) { auditEvents(organizationId: $o, from: $from, action: "space.created") { items { action target { id } } } }`,
      { o: team.organization.id, from: times.created.toISOString() },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.auditEvents.items).toEqual([{ action: 'space.created', target: { id: spaceId } }]);
    expectGqlError(await team.read.gql(`query($o: ID!) { auditEventActions(organizationId: $o) { items { id } } }`, { o: team.organization.id }), 'FORBIDDEN');
  });

  // Last of the file's audit tests: the migration draws new uuids for every event.
  it('gives every event recorded before the uuid column one of its own (the migration)', async () => {
    const em = server.em().fork();
    await runMigration(server.deps.orm, 'Migration20261230150000', 'down');
    await runMigration(server.deps.orm, 'Migration20261230150000', 'up');
    const [row] = await em
      .getConnection()
      .execute<{ events: number; distinct: number }[]>('select count(*)::int as events, count(distinct uuid)::int as "distinct" from domain_event');
    expect(row.distinct).toBe(row.events);
    expect(row.events).toBeGreaterThan(3);
    const { items } = await list(team.admin, { from: times.created.toISOString() });
    expect(items.map((item) => item.action)).toEqual(['mutation.refused', 'space.updated', 'space.created']);
    for (const item of items) {
      expect(item.id).toMatch(UUID);
      await expectCurrent('getOrganizationAuditEvent', clientFor(team.admin).orgs.getOrganizationAuditEvent(team.organization.id, item.id));
    }
  });
});

describe('updateUserById', () => {
  it("changes the caller's own profile and records it in each of their organizations", async () => {
    const me = await newUser(server, { displayName: 'Ada' });
    const first = await newOrganization(server, me);
    const second = await newOrganization(server, me, { title: 'Second' });
    const seq = await lastEventSeq(server);
    const api = clientFor(me);
    const updated = await expectCurrent(
      'updateUserById',
      api.users.updateUserById(me.user.id, { displayName: 'Ada Lovelace', photoURL: 'https://images.example.com/ada.png' }),
    );
    expect(updated).toMatchObject({ object: 'user', id: me.user.id, displayName: 'Ada Lovelace', photoURL: 'https://images.example.com/ada.png' });
    expect(await expectCurrent('getUserById', api.users.getUserById(me.user.id))).toEqual(updated);

    for (const organization of [first, second]) {
      const events = (await eventsOf(server, organization.id, seq)).map((event) => [event.type, event.target, event.payload]);
      expect(events).toEqual([
        [
          'user.updated',
          { userId: me.user.id },
          { object: 'user', id: me.user.id, displayName: 'Ada Lovelace', photoURL: 'https://images.example.com/ada.png', changes: ['displayName', 'photoURL'] },
        ],
      ]);
    }
    // The same values again: nothing to change, nothing recorded.
    const before = await lastEventSeq(server);
    await expectCurrent('updateUserById', api.users.updateUserById(me.user.id, { displayName: 'Ada Lovelace' }));
    expect(await lastEventSeq(server)).toBe(before);
  });

  it('records the change of a user of no organization with no organization', async () => {
    const loner = await newUser(server);
    const seq = await lastEventSeq(server);
    await expectCurrent('updateUserById', clientFor(loner).users.updateUserById(loner.user.id, { displayName: 'Loner' }));
    const events = await server
      .em()
      .fork()
      .find(DomainEvent, { seq: { $gt: seq }, type: 'user.updated' });
    expect(events.map((event) => [event.organizationId, event.target])).toEqual([[null, { userId: loner.user.id }]]);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const me = await newUser(server, { displayName: 'Grace' });
    const api = clientFor(me);
    for (const body of [
      {},
      { displayName: '' },
      { displayName: 'x'.repeat(65) },
      { photoURL: 'not a url' },
      { photoURL: 'ftp://files.example.com/me.png' },
      { photoURL: `https://example.com/${'x'.repeat(2048)}` },
      { photoURL: null },
      { displayName: 42 },
    ]) {
      await expectRefused(api.users.updateUserById(me.user.id, body as never), 400);
    }
    expectError(await me.rest('PATCH', `/v1/users/${me.user.id}`, {}), 400, 'displayName or photoURL is required');
    expectError(await me.rest('PATCH', `/v1/users/${me.user.id}`, { displayName: '' }), 400, 'displayName: must be at least 1 character');
    expect(await server.em().fork().findOne(User, { id: me.user.id })).toMatchObject({ displayName: 'Grace', photoURL: null });
  });

  it("refuses another user's profile: 403 for a user the caller sees, 404 for one they do not and for an unknown id", async () => {
    const team = await newOrganizationWithRoles(server);
    const api = clientFor(team.read);
    await expectRefused(api.users.updateUserById(team.admin.user.id, { displayName: 'Hijacked' }), 403);
    await expectRefused(api.users.updateUserById(team.outsider.user.id, { displayName: 'Hijacked' }), 404);
    await expectRefused(api.users.updateUserById('no-such-user', { displayName: 'Nobody' }), 404);
    const names = await server
      .em()
      .fork()
      .find(User, { id: { $in: [team.admin.user.id, team.outsider.user.id] } });
    expect(names.map((user) => user.displayName)).toEqual(['Test User', 'Test User']);
  });

  it("lets an instance administrator change anyone's profile, through either door", async () => {
    const administrator = await newUser(server);
    await server.em().nativeUpdate(User, { id: administrator.user.id }, { instanceAdmin: true });
    const someone = await newUser(server);
    const updated = await expectCurrent('updateUserById', clientFor(administrator).users.updateUserById(someone.user.id, { displayName: 'Renamed' }));
    expect(updated).toMatchObject({ id: someone.user.id, displayName: 'Renamed' });
    const res = await administrator.gql<{ updateUser: { displayName: string } }>(
      `mutation($id: ID!) { updateUser(id: $id, input: { displayName: "Again" }) { displayName } }`,
      {
        id: someone.user.id,
      },
    );
    expect(res.data.updateUser).toEqual({ displayName: 'Again' });
  });
});

describe('inviteUsersToOrganization', () => {
  const membership = (organizationId: string, userId: string) => server.em().fork().findOne(Member, { organization: organizationId, user: userId });

  it('makes existing users and new addresses members, with their roles; existing members stay as they are', async () => {
    const team = await newOrganizationWithRoles(server);
    const organizationId = team.organization.id;
    const fresh = newAddress('fresh');
    const editor = newAddress('editor');
    const seq = await lastEventSeq(server);
    const answer = await expectCurrent(
      'inviteUsersToOrganization',
      clientFor(team.admin).orgs.inviteUsersToOrganization(organizationId, {
        emails: [team.outsider.user.email.toUpperCase(), fresh, { email: editor, role: role('edit') }, team.create.user.email],
        role: role('comment'),
      }),
    );
    const users = await server
      .em()
      .fork()
      .find(User, { email: { $in: [fresh, editor] } });
    const idOf = (email: string) => users.find((user) => user.email === email)!.id;
    expect(answer).toEqual({ users: [team.outsider.user.id, idOf(fresh), idOf(editor), team.create.user.id], invited: 3 });
    expect(users.find((user) => user.email === fresh)).toMatchObject({ displayName: fresh.slice(0, fresh.indexOf('@')), instanceAdmin: false });
    expect(await membership(organizationId, team.outsider.user.id)).toMatchObject({ role: 'comment', sso: false, disabled: false });
    expect(await membership(organizationId, idOf(fresh))).toMatchObject({ role: 'comment' });
    expect(await membership(organizationId, idOf(editor))).toMatchObject({ role: 'edit' });
    expect(await membership(organizationId, team.create.user.id)).toMatchObject({ role: 'create' });

    const events = await eventsOf(server, organizationId, seq);
    expect(events.map((event) => [event.type, event.target.userId, event.payload.role])).toEqual([
      ['member.joined', team.outsider.user.id, 'comment'],
      ['member.joined', idOf(fresh), 'comment'],
      ['member.joined', idOf(editor), 'edit'],
    ]);

    // Again: the same users, none new.
    const again = await expectCurrent(
      'inviteUsersToOrganization',
      clientFor(team.admin).orgs.inviteUsersToOrganization(organizationId, { emails: [fresh, editor] }),
    );
    expect(again).toEqual({ users: [idOf(fresh), idOf(editor)], invited: 0 });
  });

  it("gives the organization's default role unless asked, guests with null, and marks SSO members", async () => {
    const team = await newOrganizationWithRoles(server);
    const organizationId = team.organization.id;
    const [plain, guest, sso] = [newAddress(), newAddress(), newAddress()];
    const api = clientFor(team.admin);
    const first = await expectCurrent(
      'inviteUsersToOrganization',
      api.orgs.inviteUsersToOrganization(organizationId, { emails: [plain, { email: guest, role: null }] }),
    );
    expect(await membership(organizationId, first.users[0])).toMatchObject({ role: 'read', sso: false });
    expect(await membership(organizationId, first.users[1])).toMatchObject({ role: null });
    const second = await expectCurrent(
      'inviteUsersToOrganization',
      api.orgs.inviteUsersToOrganization(organizationId, { emails: [sso], role: null, sso: true }),
    );
    expect(await membership(organizationId, second.users[0])).toMatchObject({ role: null, sso: true });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const team = await newOrganizationWithRoles(server);
    const api = clientFor(team.admin);
    const organizationId = team.organization.id;
    const good = newAddress();
    const before = await databaseDigest(server.em());
    for (const body of [
      { emails: [good, 'not-an-address'] },
      { emails: [good, { email: 'nobody@', role: 'read' }] },
      { emails: [good, { email: newAddress() }] },
      { emails: [] },
      { emails: Array.from({ length: 101 }, () => newAddress()) },
      { emails: [good, { email: good, role: 'admin' }], role: 'read' },
      { emails: [good], role: 'owner' },
      { emails: [good], sso: 'yes' },
      { role: 'read' },
    ]) {
      await expectRefused(api.orgs.inviteUsersToOrganization(organizationId, body as never), 400);
    }
    expectError(
      await team.admin.rest('POST', `/v1/orgs/${organizationId}/invites`, { emails: [good, 'not-an-address'] }),
      400,
      /^emails\.1: must be an e-mail address/,
    );
    expectError(
      await team.admin.rest('POST', `/v1/orgs/${organizationId}/invites`, { emails: [good, { email: good, role: 'admin' }], role: 'read' }),
      400,
      `emails.1: ${good} is listed twice with different roles`,
    );
    expect(await databaseDigest(server.em())).toEqual(before);
  });

  it('is for the organization admins: members 403, outsiders and unknown organizations 404, creating nothing', async () => {
    const team = await newOrganizationWithRoles(server);
    const address = newAddress();
    const before = await databaseDigest(server.em());
    for (const member of [team.create, team.read, team.guest]) {
      await expectRefused(clientFor(member).orgs.inviteUsersToOrganization(team.organization.id, { emails: [address] }), 403);
    }
    await expectRefused(clientFor(team.outsider).orgs.inviteUsersToOrganization(team.organization.id, { emails: [address] }), 404);
    await expectRefused(clientFor(team.admin).orgs.inviteUsersToOrganization('no-such-organization', { emails: [address] }), 404);
    expect(await databaseDigest(server.em())).toEqual(before);
  });

  it('makes one user and one membership per address when identical invitations arrive at once', async () => {
    const team = await newOrganizationWithRoles(server);
    const organizationId = team.organization.id;
    const addresses = [newAddress(), newAddress(), newAddress()];
    const existing = await newUser(server);
    const seq = await lastEventSeq(server);
    const api = clientFor(team.admin);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        expectCurrent('inviteUsersToOrganization', api.orgs.inviteUsersToOrganization(organizationId, { emails: [...addresses, existing.user.email] })),
      ),
    );
    const users = await server
      .em()
      .fork()
      .find(User, { email: { $in: addresses } });
    expect(users).toHaveLength(3);
    for (const answer of answers) expect(answer.users).toEqual([...addresses.map((email) => users.find((user) => user.email === email)!.id), existing.user.id]);
    expect(answers.reduce((sum, answer) => sum + answer.invited, 0)).toBe(4);
    expect(
      await server
        .em()
        .fork()
        .count(Member, { organization: organizationId, user: { $in: answers[0].users } }),
    ).toBe(4);
    expect((await eventsOf(server, organizationId, seq)).filter((event) => event.type === 'member.joined')).toHaveLength(4);
  });

  it('answers the same through GraphQL', async () => {
    const team = await newOrganizationWithRoles(server);
    const address = newAddress();
    const res = await team.admin.gql<{ inviteUsersToOrganization: { users: string[]; invited: number } }>(
      `mutation($o: ID!, $input: InviteUsersToOrganizationInput!) { inviteUsersToOrganization(organizationId: $o, input: $input) { users invited } }`,
      { o: team.organization.id, input: { emails: [address, { email: team.read.user.email, role: 'admin' }] } },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.inviteUsersToOrganization).toEqual({ users: [expect.any(String), team.read.user.id], invited: 1 });
    // An existing member keeps their role.
    expect(await membership(team.organization.id, team.read.user.id)).toMatchObject({ role: 'read' });
    expectGqlError(
      await team.edit.gql(`mutation($o: ID!) { inviteUsersToOrganization(organizationId: $o, input: { emails: ["a@example.com"] }) { invited } }`, {
        o: team.organization.id,
      }),
      'FORBIDDEN',
    );
  });
});
