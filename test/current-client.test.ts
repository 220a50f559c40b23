/**
 * The operations of the current official client (`@gitbook/api@0.202.0`, installed as
 * `gitbook-api-0.202`) beyond the contract's 129: each is called through that client and its answer
 * validated against that version's reference, with permission denials and bad input; the route table
 * keeps their paths, methods and statuses equal to shared/contract/operations-current-client.tsv.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChangeRequestOrderBy, ChangeRequestStatus } from '../node_modules/gitbook-api-0.202/dist/client.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../rest-facade/routes/index.js';
import { createPage, merge, openChangeRequest } from './support/content.js';
import { CURRENT_OPERATIONS_FIXTURE, currentClientFor, currentOperations as operations, expectCurrent, expectRefused, role } from './support/current-client.js';
import { newMember, newOrganization, newUser, type Caller } from './support/factories.js';
import { newId } from '../src/kernel/ids.js';
import { createTeam } from './support/people.js';
import { currentReference } from './support/openapi.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

let admin: Caller;
let reader: Caller;
let outsider: Caller;
let organizationId: string;
let spaceId: string;
/** The space's main revision after the merge, and the change request's revision before it. */
let mainRevision: string;
let draftRevision: string;
let changeRequestId: string;
let guideId: string;
let installId: string;

beforeAll(async () => {
  admin = await newUser(server);
  organizationId = (await newOrganization(server, admin)).id;
  reader = await newMember(server, organizationId, 'read');
  outsider = await newUser(server);
  const space = await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
  spaceId = (space.body as { id: string }).id;
  const cr = await openChangeRequest(admin, spaceId);
  changeRequestId = cr.id;
  const guide = await createPage(admin, spaceId, cr.id, { title: 'Guide', markdown: '# Guide\n\nRead me.' });
  guideId = guide.page!.id;
  const install = await createPage(admin, spaceId, cr.id, { title: 'Install', parent: guideId, markdown: 'Run it.' });
  installId = install.page!.id;
  draftRevision = install.revision.id;
  expect((await merge(admin, spaceId, cr.id)).status).toBe(200);
  mainRevision = ((await admin.rest('GET', `/v1/spaces/${spaceId}`)).body as { revision: string }).revision;
});

describe('the current client: a space content', () => {
  it('reads the main content: revision, pages, a page by id and by path, in both formats', async () => {
    const api = clientFor(reader);
    const revision = await expectCurrent('getCurrentRevision', api.spaces.getCurrentRevision(spaceId));
    expect(revision.id).toBe(mainRevision);
    expect(revision.pages.map((page: { title: string }) => page.title)).toEqual(['Guide']);

    const { pages } = await expectCurrent('listPages', api.spaces.listPages(spaceId));
    expect(pages[0]).toMatchObject({ id: guideId, pages: [{ id: installId }] });

    const byId = await expectCurrent('getPageById', api.spaces.getPageById(spaceId, installId, { format: 'markdown' }));
    expect(byId).toMatchObject({ id: installId, title: 'Install', path: 'guide/install', tags: [] });
    expect(JSON.stringify(byId)).toContain('Run it.');
    const asDocument = await expectCurrent('getPageById', api.spaces.getPageById(spaceId, guideId, { format: 'document' }));
    expect(asDocument).toMatchObject({ id: guideId, document: { object: 'document' } });

    const byPath = await expectCurrent('getPageByPath', api.spaces.getPageByPath(spaceId, 'guide/install'));
    expect(byPath.id).toBe(installId);
  });

  it('reads any revision of the space by id, and not another space by that id', async () => {
    const api = clientFor(reader);
    const draft = await expectCurrent('getRevisionById', api.spaces.getRevisionById(spaceId, draftRevision));
    expect(draft.id).toBe(draftRevision);
    const { pages } = await expectCurrent('listPagesInRevisionById', api.spaces.listPagesInRevisionById(spaceId, draftRevision));
    expect(pages.map((page: { title: string }) => page.title)).toEqual(['Guide']);
    const page = await expectCurrent('getPageInRevisionById', api.spaces.getPageInRevisionById(spaceId, draftRevision, guideId));
    expect(page.title).toBe('Guide');
    const byPath = await expectCurrent('getPageInRevisionByPath', api.spaces.getPageInRevisionByPath(spaceId, draftRevision, 'guide'));
    expect(byPath.id).toBe(guideId);
    const files = await expectCurrent('listFilesInRevisionById', api.spaces.listFilesInRevisionById(spaceId, draftRevision));
    expect(files.items).toEqual([]);

    // A revision of another space is not found through this one.
    const other = await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Other' });
    await expectRefused(api.spaces.getRevisionById((other.body as { id: string }).id, draftRevision), 404);
    await expectRefused(api.spaces.getRevisionById(spaceId, 'no-such-revision'), 404);
  });

  it('reads a page body as a JSON document, by page in a revision and by document id', async () => {
    const api = clientFor(reader);
    const byPage = await expectCurrent('getPageDocumentInRevisionById', api.spaces.getPageDocumentInRevisionById(spaceId, mainRevision, guideId));
    expect(byPage).toMatchObject({ object: 'document' });
    expect(JSON.stringify(byPage)).toContain('Read me.');
    const page = await api.spaces.getPageById(spaceId, guideId);
    const documentId = (page.data as { documentId?: string }).documentId!;
    expect(await expectCurrent('getDocumentById', api.spaces.getDocumentById(spaceId, documentId))).toEqual(byPage);

    // Another space's document is not found through this one.
    const other = (await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Elsewhere' })).body as { id: string };
    await expectRefused(api.spaces.getDocumentById(other.id, documentId), 404);
    await expectRefused(api.spaces.getDocumentById(spaceId, 'no-such-document'), 404);
    await expectRefused(api.spaces.getPageDocumentInRevisionById(spaceId, mainRevision, 'no-such-page'), 404);
    await expectRefused(clientFor(outsider).spaces.getDocumentById(spaceId, documentId), 404);
  });

  it('reads the change request content by path, and the files of the main content', async () => {
    const api = clientFor(admin);
    const page = await expectCurrent('getPageInChangeRequestByPath', api.spaces.getPageInChangeRequestByPath(spaceId, changeRequestId, '/guide/install/'));
    expect(page.id).toBe(installId);
    const files = await expectCurrent('listFiles', api.spaces.listFiles(spaceId));
    expect(files).toMatchObject({ items: [], count: 0 });
    await expectRefused(api.spaces.getFileById(spaceId, 'no-such-file'), 404);
  });

  it('answers a signed PDF URL of the space or of one page', async () => {
    const api = clientFor(reader);
    const whole = await expectCurrent('getSpacePDF', api.spaces.getSpacePdf(spaceId));
    const signed = new URL(whole.url);
    expect(signed.pathname).toBe(`/pdf/${spaceId}`);
    const one = await expectCurrent('getSpacePDF', api.spaces.getSpacePdf(spaceId, { page: guideId, only: true }));
    expect(new URL(one.url).searchParams.get('page')).toBe(guideId);
    const pdf = await fetch(`${server.url}${signed.pathname}${signed.search}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    await expectRefused(api.spaces.getSpacePdf(spaceId, { only: true }), 400);
  });

  it('refuses unknown pages and paths, outsiders and callers without a token', async () => {
    const api = clientFor(reader);
    await expectRefused(api.spaces.getPageById(spaceId, 'no-such-page'), 404);
    await expectRefused(api.spaces.getPageByPath(spaceId, 'guide/nowhere'), 404);
    await expectRefused(api.spaces.getPageById(spaceId, guideId, { format: 'pdf' as never }), 400);
    await expectRefused(clientFor(outsider).spaces.getCurrentRevision(spaceId), 404);
    await expectRefused(clientFor(outsider).spaces.getRevisionById(spaceId, mainRevision), 404);
    const anonymous = await fetch(`${server.url}/v1/spaces/${spaceId}/content`);
    expect(anonymous.status).toBe(401);
  });
});

describe('the current client: users', () => {
  it('reads oneself, members of a shared organization, and not strangers', async () => {
    const api = clientFor(reader);
    const self = await expectCurrent('getUserById', api.users.getUserById(reader.user.id));
    expect(self).toMatchObject({ object: 'user', id: reader.user.id });
    expect(new URL(self.urls.location).pathname).toBe(`/v1/users/${reader.user.id}`);
    const colleague = await expectCurrent('getUserById', api.users.getUserById(admin.user.id));
    expect(colleague.id).toBe(admin.user.id);
    // Every user's urls.location is this operation.
    const located = await fetch(`${server.url}${new URL(colleague.urls.location).pathname}`, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(located.status).toBe(200);

    await expectRefused(api.users.getUserById(outsider.user.id), 404);
    await expectRefused(clientFor(outsider).users.getUserById(admin.user.id), 404);
    await expectRefused(api.users.getUserById('no-such-user'), 404);
  });
});

describe('the current client: roles on spaces and collections', () => {
  it("gives, lists, changes and takes back roles of users and teams on a space, and lists every member's role", async () => {
    const api = clientFor(admin);
    const space = (await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Roles' })).body as { id: string };
    const writer = await newMember(server, organizationId, null);
    const team = await createTeam(admin, organizationId, 'Writers');

    await expectCurrent('inviteToSpace', api.spaces.inviteToSpace(space.id, { role: role('edit'), users: [writer.user.id], teams: [team.id] }));
    const users = await expectCurrent('listUserPermissionsInSpace', api.spaces.listUserPermissionsInSpace(space.id));
    expect(users.items.map((item) => [item.permission, item.user.id])).toEqual([['edit', writer.user.id]]);
    const teams = await expectCurrent('listTeamPermissionsInSpace', api.spaces.listTeamPermissionsInSpace(space.id));
    expect(teams.items.map((item) => [item.permission, item.team.id])).toEqual([['edit', team.id]]);

    // The guest can now read and edit the space; raised to admin, then taken back with a null role.
    expect((await writer.rest('GET', `/v1/spaces/${space.id}`)).status).toBe(200);
    await expectCurrent('updateUserPermissionInSpace', api.spaces.updateUserPermissionInSpace(space.id, writer.user.id, { role: role('admin') }));
    const aggregate = await expectCurrent('listPermissionsAggregateInSpace', api.spaces.listPermissionsAggregateInSpace(space.id));
    const roles = Object.fromEntries(aggregate.items.map((item: { permission: string; user: { id: string } }) => [item.user.id, item.permission]));
    expect(roles).toMatchObject({ [admin.user.id]: 'admin', [reader.user.id]: 'read', [writer.user.id]: 'admin' });
    const admins = await expectCurrent('listPermissionsAggregateInSpace', api.spaces.listPermissionsAggregateInSpace(space.id, { role: role('admin') }));
    expect(admins.items.map((item: { user: { id: string } }) => item.user.id).sort()).toEqual([admin.user.id, writer.user.id].sort());

    await expectCurrent('updateUserPermissionInSpace', api.spaces.updateUserPermissionInSpace(space.id, writer.user.id, { role: null }));
    expect((await writer.rest('GET', `/v1/spaces/${space.id}`)).status).toBe(404);
    await expectCurrent('updateTeamPermissionInSpace', api.spaces.updateTeamPermissionInSpace(space.id, team.id, { role: role('read') }));
    await expectCurrent('removeTeamFromSpace', api.spaces.removeTeamFromSpace(space.id, team.id));
    await expectCurrent('removeUserFromSpace', api.spaces.removeUserFromSpace(space.id, writer.user.id));
    expect((await expectCurrent('listTeamPermissionsInSpace', api.spaces.listTeamPermissionsInSpace(space.id))).items).toEqual([]);
  });

  it('does the same on a collection, for what it holds', async () => {
    const api = clientFor(admin);
    const collection = (await admin.rest('POST', `/v1/orgs/${organizationId}/collections`, { title: 'Shelf' })).body as { id: string };
    const inside = (await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Inside', parent: collection.id })).body as { id: string };
    const guest = await newMember(server, organizationId, null);
    const team = await createTeam(admin, organizationId, 'Shelvers');

    await expectCurrent('inviteToCollection', api.collections.inviteToCollection(collection.id, { role: role('read'), users: [guest.user.id] }));
    expect((await guest.rest('GET', `/v1/spaces/${inside.id}`)).status).toBe(200);
    const users = await expectCurrent('listUserPermissionsInCollection', api.collections.listUserPermissionsInCollection(collection.id));
    expect(users.items.map((item) => [item.permission, item.user.id])).toEqual([['read', guest.user.id]]);
    await expectCurrent(
      'updateUserPermissionInCollection',
      api.collections.updateUserPermissionInCollection(collection.id, guest.user.id, { role: role('comment') }),
    );
    await expectCurrent('updateTeamPermissionInCollection', api.collections.updateTeamPermissionInCollection(collection.id, team.id, { role: role('edit') }));
    const teams = await expectCurrent('listTeamPermissionsInCollection', api.collections.listTeamPermissionsInCollection(collection.id));
    expect(teams.items.map((item) => [item.permission, item.team.id])).toEqual([['edit', team.id]]);
    await expectCurrent('removeTeamFromCollection', api.collections.removeTeamFromCollection(collection.id, team.id));
    await expectCurrent('removeUserFromCollection', api.collections.removeUserFromCollection(collection.id, guest.user.id));
    expect((await guest.rest('GET', `/v1/spaces/${inside.id}`)).status).toBe(404);
  });

  it('refuses bad input, strangers and callers below admin, changing nothing', async () => {
    const space = (await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Guarded' })).body as { id: string };
    const api = clientFor(admin);
    await expectRefused(api.spaces.inviteToSpace(space.id, { role: role('edit') } as never), 400);
    await expectRefused(api.spaces.inviteToSpace(space.id, { role: role('edit'), users: [outsider.user.id] }), 400);
    await expectRefused(api.spaces.inviteToSpace(space.id, { role: role('owner'), users: [reader.user.id] }), 400);
    await expectRefused(api.spaces.updateUserPermissionInSpace(space.id, reader.user.id, {}), 400);
    await expectRefused(api.spaces.listPermissionsAggregateInSpace(space.id, { role: role('owner') }), 400);
    await expectRefused(clientFor(reader).spaces.listUserPermissionsInSpace(space.id), 403);
    await expectRefused(clientFor(reader).spaces.inviteToSpace(space.id, { role: role('admin'), users: [reader.user.id] }), 403);
    await expectRefused(clientFor(outsider).spaces.listPermissionsAggregateInSpace(space.id), 404);
    const users = await expectCurrent('listUserPermissionsInSpace', api.spaces.listUserPermissionsInSpace(space.id));
    expect(users.items).toEqual([]);
  });
});

describe("the current client: an organization's change requests", () => {
  it('lists those of the spaces the caller can read, by status, creator, space and site, newest first', async () => {
    const org = (await newOrganization(server, admin, { title: 'Reviews' })).id;
    const guest = await newMember(server, org, null);
    const api = clientFor(admin);
    const newSpace = async (title: string) => ((await admin.rest('POST', `/v1/orgs/${org}/spaces`, { title })).body as { id: string }).id;
    const [shared, hidden] = [await newSpace('Shared'), await newSpace('Hidden')];
    const open = async (space: string, subject: string) => (await openChangeRequest(admin, space, subject)).id;
    const first = await open(shared, 'First');
    server.clock.advance(1000);
    const second = await open(hidden, 'Second');
    server.clock.advance(1000);
    const drafted = await open(shared, 'Drafted');
    expect((await admin.rest('PATCH', `/v1/spaces/${shared}/change-requests/${drafted}`, { status: 'draft' })).status).toBe(200);
    await expectCurrent('inviteToSpace', api.spaces.inviteToSpace(shared, { role: role('read'), users: [guest.user.id] }));

    const ids = (list: { items: { id: string }[] }) => list.items.map((item) => item.id);
    const statuses = (names: string[]) => names as ChangeRequestStatus[];
    expect(ids(await expectCurrent('listChangeRequestsForOrganization', api.orgs.listChangeRequestsForOrganization(org)))).toEqual([second, first]);
    const both = await expectCurrent(
      'listChangeRequestsForOrganization',
      api.orgs.listChangeRequestsForOrganization(org, { status: statuses(['open', 'draft']), orderBy: 'createdAt' as ChangeRequestOrderBy }),
    );
    expect(ids(both)).toEqual([drafted, second, first]);
    expect(both.items[0].space).toBe(shared);
    const paged = await expectCurrent(
      'listChangeRequestsForOrganization',
      api.orgs.listChangeRequestsForOrganization(org, { status: statuses(['open', 'draft']), limit: 2 }),
    );
    expect(paged.items).toHaveLength(2);
    const rest = await api.orgs.listChangeRequestsForOrganization(org, { status: statuses(['open', 'draft']), limit: 2, page: paged.next!.page });
    expect([...ids(paged), ...ids(rest.data)].sort()).toEqual([first, second, drafted].sort());
    expect(ids((await api.orgs.listChangeRequestsForOrganization(org, { space: hidden })).data)).toEqual([second]);
    expect(ids((await api.orgs.listChangeRequestsForOrganization(org, { creator: guest.user.id })).data)).toEqual([]);
    expect(ids((await api.orgs.listChangeRequestsForOrganization(org, { requestedReviewer: admin.user.id })).data)).toEqual([]);

    // The guest reads the shared space only; strangers and bad input are refused.
    const seen = await expectCurrent(
      'listChangeRequestsForOrganization',
      clientFor(guest).orgs.listChangeRequestsForOrganization(org, { status: statuses(['open', 'draft']) }),
    );
    expect(ids(seen)).toEqual([drafted, first]);
    await expectRefused(clientFor(outsider).orgs.listChangeRequestsForOrganization(org), 404);
    await expectRefused(api.orgs.listChangeRequestsForOrganization(org, { status: statuses(['closed']) }), 400);
    await expectRefused(api.orgs.listChangeRequestsForOrganization(org, { orderBy: 'title' as never }), 400);
  });
});

describe('the current client: invite links', () => {
  it('creates links to the organization and to a space, lists those to the organization, and joins with one', async () => {
    const org = (await newOrganization(server, admin, { title: 'Invites' })).id;
    const api = clientFor(admin);
    const toOrganization = await expectCurrent('createOrganizationInvite', api.orgs.createOrganizationInvite(org, { role: role('edit') }));
    expect(toOrganization).toMatchObject({ object: 'invite', role: 'edit', redundant: true });
    const space = ((await admin.rest('POST', `/v1/orgs/${org}/spaces`, { title: 'Invited' })).body as { id: string }).id;
    const toSpace = await expectCurrent('createOrganizationInvite', api.orgs.createOrganizationInvite(org, { space, level: role('read') }));
    expect(toSpace).toMatchObject({ level: 'read', space: { id: space, mergeRules: { type: 'inherit' }, permissions: { installIntegration: true } } });

    const listed = await expectCurrent('listOrganizationInviteLinks', api.orgs.listOrganizationInviteLinks(org));
    expect(listed.items.map((link) => link.id)).toEqual([toOrganization.id]);

    const joiner = await newUser(server);
    await expectCurrent('joinOrganizationWithInvite', clientFor(joiner).orgs.joinOrganizationWithInvite(org, toOrganization.id));
    const member = await admin.rest('GET', `/v1/orgs/${org}/members/${joiner.user.id}`);
    expect(member.body).toMatchObject({ role: 'edit' });

    await expectRefused(clientFor(joiner).orgs.listOrganizationInviteLinks(org), 403);
    await expectRefused(clientFor(joiner).orgs.createOrganizationInvite(org, { role: role('admin') }), 403);
    await expectRefused(api.orgs.createOrganizationInvite(org, { role: role('owner') }), 400);
    await expectRefused(clientFor(outsider).orgs.joinOrganizationWithInvite(org, 'no-such-invite'), 404);
  });
});

describe('the current client: organizations', () => {
  it('creates an organization, whose creator administers it', async () => {
    const founder = await newUser(server);
    const api = clientFor(founder);
    const created = await expectCurrent('createOrganization', api.orgs.createOrganization({ title: 'Founded', emailDomains: ['founded.example.com'] }));
    expect(created).toMatchObject({ object: 'organization', title: 'Founded', emailDomains: ['founded.example.com'], mergeRules: { type: 'none' } });
    const member = await founder.rest('GET', `/v1/orgs/${created.id}/members/${founder.user.id}`);
    expect(member.body).toMatchObject({ role: 'admin' });
    await expectRefused(api.orgs.createOrganization({ title: '' }), 400);
  });

  it('joins an organization that accepts the email domain, once, and no other', async () => {
    const domain = `join-${newId().toLowerCase()}.example.com`;
    const org = (await newOrganization(server, admin, { title: 'Open doors', emailDomains: [domain] })).id;
    const colleague = await newUser(server, { email: `colleague@${domain.toUpperCase()}` });
    const api = clientFor(colleague);
    await expectCurrent('joinOrganization', api.orgs.joinOrganization(org));
    const member = await admin.rest('GET', `/v1/orgs/${org}/members/${colleague.user.id}`);
    expect(member.body).toMatchObject({ role: 'read', disabled: false });
    const events = async () => {
      const res = await admin.gql(`query($o: ID!) { auditLog(organizationId: $o, type: "member.joined") { items { id } } }`, { o: org });
      expect(res.errors, JSON.stringify(res)).toBeUndefined();
      return (res.data as { auditLog: { items: unknown[] } }).auditLog.items.length;
    };
    const joinedOnce = await events();
    expect(joinedOnce).toBe(1);
    await expectCurrent('joinOrganization', api.orgs.joinOrganization(org));
    expect(await events()).toBe(joinedOnce);

    await expectRefused(clientFor(outsider).orgs.joinOrganization(org), 404);
    await expectRefused(api.orgs.joinOrganization('no-such-organization'), 404);
  });
});

describe("the current client: a site's structure", () => {
  it('answers the sections and groups, or the root site spaces, of a site the caller can read', async () => {
    const api = clientFor(admin);
    const created = (await admin.rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Structured', spaces: [spaceId] })).body as { id: string };
    const flat = await expectCurrent('getSiteStructure', api.orgs.getSiteStructure(organizationId, created.id));
    expect(flat).toMatchObject({ type: 'siteSpaces', structure: [{ object: 'site-space', draft: false, space: { id: spaceId } }] });

    const sectionSpace = (await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Sectioned' })).body as { id: string };
    const section = await admin.rest('POST', `/v1/orgs/${organizationId}/sites/${created.id}/sections`, { spaceId: sectionSpace.id });
    expect(section.status).toBe(201);
    const group = await admin.rest('POST', `/v1/orgs/${organizationId}/sites/${created.id}/section-groups`, { title: 'Group', sections: [] });
    expect(group.status).toBe(201);
    const sectioned = await expectCurrent('getSiteStructure', api.orgs.getSiteStructure(organizationId, created.id));
    expect(sectioned.type).toBe('sections');
    expect(sectioned.structure.map((item) => [item.object, item.draft])).toEqual(
      expect.arrayContaining([
        ['site-section', false],
        ['site-section-group', false],
      ]),
    );

    await expectRefused(clientFor(outsider).orgs.getSiteStructure(organizationId, created.id), 404);
    await expectRefused(api.orgs.getSiteStructure(organizationId, 'no-such-site'), 404);
  });
});

describe('the route table of the current client', () => {
  const shared = fileURLToPath(new URL('../../shared/contract/operations-current-client.tsv', import.meta.url));
  it.runIf(existsSync(shared))('uses a copy of operations-current-client.tsv equal to the shared one', () => {
    expect(readFileSync(CURRENT_OPERATIONS_FIXTURE, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });

  it('serves every operation of the list that docs/behaviour/client-compatibility.md does not name as not served yet', () => {
    const doc = readFileSync(new URL('../docs/behaviour/client-compatibility.md', import.meta.url), 'utf8');
    const notServed = new Set([...doc.slice(doc.indexOf('## Not served yet')).matchAll(/`(\w+)`/g)].map((match) => match[1]));
    const routed = new Set(routes.map((route) => route.operationId));
    for (const { operationId } of operations) expect(routed.has(operationId), operationId).toBe(!notServed.has(operationId));
  });

  it("declares the list's path, method and status for every routed operation of it, each in 0.202.0's reference", () => {
    for (const route of routes) {
      const operation = operations.find((candidate) => candidate.operationId === route.operationId);
      if (!operation) continue;
      expect([route.method, route.path, route.status], route.operationId).toEqual([operation.method, operation.path, operation.status]);
      expect(currentReference.inReference(route.operationId), route.operationId).toBe(true);
    }
  });
});
