/**
 * Six operations of the current official client (`@gitbook/api@0.202.0`) about the people of content
 * and the layout of sites, called through that client and validated against its reference: the
 * commenters of a space's and a change request's discussions, a change request's contributors, every
 * member's role on a collection (ranked in SQL, compared with the policy's), duplicating a site space,
 * and sorting a site's structure. For each: the happy path, denials, bad input and unknown ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Collection } from '../src/domain/collections/index.js';
import { Member } from '../src/domain/organizations/index.js';
import { Space } from '../src/domain/spaces/index.js';
import { SiteSection, SiteSectionGroup, SiteSpace } from '../src/domain/sites/index.js';
import { postComment, postReply, commentsPath } from './support/comments.js';
import { createCollection, createPage, createSpace, openChangeRequest, updatePage } from './support/content.js';
import { currentClientFor, expectCurrent, expectRefused, role } from './support/current-client.js';
import { eventsOf, lastEventSeq } from './support/events.js';
import { newMember, newOrganization, newUser, type Caller } from './support/factories.js';
import { createTeam, grant } from './support/people.js';
import { useTestServer } from './support/server.js';
import type { Role } from '../src/kernel/roles.js';

const server = useTestServer();
const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

/** The organization's admin, members of each kind, and a user of no organization. */
let admin: Caller, editor: Caller, commenter: Caller, reader: Caller, guest: Caller, outsider: Caller;
let organizationId: string;

/** A new member of the organization, a second after the last: lists by membership have one order. */
async function joining(org: string, orgRole: Role | null) {
  server.clock.advance(1000);
  return newMember(server, org, orgRole);
}

beforeAll(async () => {
  admin = await newUser(server);
  organizationId = (await newOrganization(server, admin)).id;
  [editor, commenter, reader, guest] = [
    await joining(organizationId, 'edit'),
    await joining(organizationId, 'comment'),
    await joining(organizationId, 'read'),
    await joining(organizationId, null),
  ];
  outsider = await newUser(server);
});

type MemberItem = { id: string; user: { id: string }; disabled: boolean; sites: number; role?: string | null };
const ids = (list: { items: { id: string }[] }) => list.items.map((item) => item.id);

describe('the current client: commenters', () => {
  it("lists the members who commented in a space's discussion, not those who only replied, oldest membership first, paged", async () => {
    const space = await createSpace(admin, organizationId, 'Discussed');
    const base = commentsPath(space.id);
    const first = await postComment(commenter, base, 'First');
    await postComment(editor, base, 'Second');
    await postComment(editor, base, 'Third');
    await postReply(admin, base, first.id, 'Only a reply');
    // A change request's comments are another discussion.
    const cr = await openChangeRequest(admin, space.id);
    await postComment(admin, commentsPath(space.id, cr.id), 'On the draft');
    await createSite(admin, 'Commenters', [space.id]);

    const api = clientFor(reader);
    const all = await expectCurrent('listCommentersInSpace', api.spaces.listCommentersInSpace(space.id));
    expect(all.count).toBe(2);
    expect(ids(all)).toEqual([editor.user.id, commenter.user.id]);
    expect((all.items[0] as MemberItem).sites).toBeGreaterThan(0);
    const page = await expectCurrent('listCommentersInSpace', api.spaces.listCommentersInSpace(space.id, { limit: 1 }));
    expect(ids(page)).toEqual([editor.user.id]);
    expect(page.count).toBe(2);
    const next = await expectCurrent('listCommentersInSpace', api.spaces.listCommentersInSpace(space.id, { limit: 1, page: page.next!.page }));
    expect(ids(next)).toEqual([commenter.user.id]);
    expect(next.next).toBeUndefined();

    const inChangeRequest = await expectCurrent('listCommentersInChangeRequest', api.spaces.listCommentersInChangeRequest(space.id, cr.id));
    expect(ids(inChangeRequest)).toEqual([admin.user.id]);
    // By its number too, as every change request operation.
    const byNumber = await expectCurrent('listCommentersInChangeRequest', api.spaces.listCommentersInChangeRequest(space.id, String(cr.number)));
    expect(ids(byNumber)).toEqual([admin.user.id]);
  });

  it('lists a disabled member, but not one who left the organization; guests answer no sites', async () => {
    const org = (await newOrganization(server, admin, { title: 'Leavers' })).id;
    const [leaver, sleeper, visitor] = [await joining(org, 'comment'), await joining(org, 'comment'), await joining(org, null)];
    const space = await createSpace(admin, org, 'Shared');
    await grant(admin, { space: space.id }, { user: visitor.user.id }, 'comment');
    await createSite(admin, 'Visible', [space.id], org);
    for (const who of [leaver, sleeper, visitor]) await postComment(who, commentsPath(space.id), 'Hello');
    expect((await admin.rest('DELETE', `/v1/orgs/${org}/members/${leaver.user.id}`)).status).toBe(204);
    await server.em().nativeUpdate(Member, { organization: org, user: sleeper.user.id }, { disabled: true });

    const list = await expectCurrent('listCommentersInSpace', clientFor(admin).spaces.listCommentersInSpace(space.id));
    const items = list.items as MemberItem[];
    expect(items.map((item) => [item.id, item.disabled, item.sites])).toEqual([
      [sleeper.user.id, true, 0],
      [visitor.user.id, false, 0],
    ]);
    // A guest reading the space sees no site of the organization: nobody's sites count for them.
    const asGuest = await expectCurrent('listCommentersInSpace', clientFor(visitor).spaces.listCommentersInSpace(space.id));
    expect((asGuest.items as MemberItem[]).map((item) => item.sites)).toEqual([0, 0]);
  });

  it('refuses strangers, guests without a role, bad pages and unknown or foreign ids', async () => {
    const space = await createSpace(admin, organizationId, 'Guarded discussion');
    const other = await createSpace(admin, organizationId, 'Other');
    const foreign = await openChangeRequest(admin, other.id);
    const cr = await openChangeRequest(admin, space.id);
    const api = clientFor(reader);
    await expectRefused(clientFor(outsider).spaces.listCommentersInSpace(space.id), 404);
    await expectRefused(clientFor(guest).spaces.listCommentersInSpace(space.id), 404);
    await expectRefused(clientFor(outsider).spaces.listCommentersInChangeRequest(space.id, cr.id), 404);
    await expectRefused(clientFor(guest).spaces.listCommentersInChangeRequest(space.id, cr.id), 404);
    await expectRefused(api.spaces.listCommentersInSpace(space.id, { limit: 0 }), 400);
    await expectRefused(api.spaces.listCommentersInSpace(space.id, { page: 'not-a-cursor' }), 400);
    await expectRefused(api.spaces.listCommentersInChangeRequest(space.id, cr.id, { limit: 100_000 }), 400);
    await expectRefused(api.spaces.listCommentersInSpace('no-such-space'), 404);
    await expectRefused(api.spaces.listCommentersInChangeRequest(space.id, 'no-such-change-request'), 404);
    await expectRefused(api.spaces.listCommentersInChangeRequest(space.id, foreign.id), 404);
    const empty = await expectCurrent('listCommentersInChangeRequest', api.spaces.listCommentersInChangeRequest(space.id, cr.id));
    expect(empty).toMatchObject({ items: [], count: 0 });
  });
});

describe("the current client: a change request's contributors", () => {
  it('lists its creator first, then each editor, with how many edits they made and when the last', async () => {
    const space = await createSpace(admin, organizationId, 'Contributed');
    const opened = server.clock.now();
    const cr = await openChangeRequest(admin, space.id);
    server.clock.advance(60_000);
    const page = await createPage(editor, space.id, cr.id, { title: 'Guide', markdown: 'One' });
    server.clock.advance(60_000);
    const lastEdit = server.clock.now();
    await updatePage(editor, space.id, cr.id, page.page!.id, { markdown: 'Two' });

    const api = clientFor(reader);
    const list = await expectCurrent('getContributorsByChangeRequestId', api.spaces.getContributorsByChangeRequestId(space.id, cr.id));
    expect(list.items.map((item) => [item.user.id, item.count, item.updatedAt, item.actionType])).toEqual([
      [admin.user.id, 0, opened.toISOString(), 'edit'],
      [editor.user.id, 2, lastEdit.toISOString(), 'edit'],
    ]);
    expect(list.count).toBe(2);
    const byNumber = await expectCurrent('getContributorsByChangeRequestId', api.spaces.getContributorsByChangeRequestId(space.id, String(cr.number)));
    expect(byNumber.items.map((item) => item.user.id)).toEqual([admin.user.id, editor.user.id]);
  });

  it('refuses strangers and guests, and answers 404 for an unknown change request or one of another space', async () => {
    const space = await createSpace(admin, organizationId, 'Guarded contributions');
    const other = await createSpace(admin, organizationId, 'Elsewhere');
    const cr = await openChangeRequest(admin, space.id);
    const foreign = await openChangeRequest(admin, other.id);
    await expectRefused(clientFor(outsider).spaces.getContributorsByChangeRequestId(space.id, cr.id), 404);
    await expectRefused(clientFor(guest).spaces.getContributorsByChangeRequestId(space.id, cr.id), 404);
    const api = clientFor(reader);
    await expectRefused(api.spaces.getContributorsByChangeRequestId(space.id, foreign.id), 404);
    await expectRefused(api.spaces.getContributorsByChangeRequestId(space.id, 'no-such-change-request'), 404);
    // A number that is no change request's (the path takes an id or a number).
    await expectRefused(api.spaces.getContributorsByChangeRequestId(space.id, '0'), 404);
    await expectRefused(api.spaces.getContributorsByChangeRequestId('no-such-space', cr.id), 404);
  });
});

describe("the current client: every member's role on a collection", () => {
  it('lists each member with a role on the collection, as the policy gives it, with a role filter and pages', async () => {
    const shelf = await createCollection(admin, organizationId, { title: 'Shelf' });
    const team = await createTeam(admin, organizationId, 'Shelvers', [commenter.user.id]);
    await grant(admin, { collection: shelf.id }, { user: guest.user.id }, 'edit');
    await grant(admin, { collection: shelf.id }, { team: team.id }, 'review');
    const api = clientFor(admin);
    const all = await expectCurrent('listPermissionsAggregateInCollection', api.collections.listPermissionsAggregateInCollection(shelf.id));
    const roles = Object.fromEntries(all.items.map((item) => [item.user.id, item.permission]));
    expect(roles).toEqual({
      [admin.user.id]: 'admin',
      [editor.user.id]: 'edit',
      [commenter.user.id]: 'review',
      [reader.user.id]: 'read',
      [guest.user.id]: 'edit',
    });
    expect(all.items.map((item) => item.user.id)).toEqual([admin, editor, commenter, reader, guest].map((who) => who.user.id));
    const edits = await expectCurrent(
      'listPermissionsAggregateInCollection',
      api.collections.listPermissionsAggregateInCollection(shelf.id, { role: role('edit'), limit: 1 }),
    );
    expect([edits.count, edits.items.map((item) => item.user.id)]).toEqual([2, [editor.user.id]]);
    const rest = await expectCurrent(
      'listPermissionsAggregateInCollection',
      api.collections.listPermissionsAggregateInCollection(shelf.id, { role: role('edit'), limit: 1, page: edits.next!.page }),
    );
    expect(rest.items.map((item) => item.user.id)).toEqual([guest.user.id]);
  });

  it('refuses bad roles and pages, members below admin, strangers and unknown collections', async () => {
    const shelf = await createCollection(admin, organizationId, { title: 'Guarded shelf' });
    const api = clientFor(admin);
    await expectRefused(api.collections.listPermissionsAggregateInCollection(shelf.id, { role: role('owner') }), 400);
    await expectRefused(api.collections.listPermissionsAggregateInCollection(shelf.id, { limit: 0 }), 400);
    await expectRefused(clientFor(editor).collections.listPermissionsAggregateInCollection(shelf.id), 403);
    await expectRefused(clientFor(outsider).collections.listPermissionsAggregateInCollection(shelf.id), 404);
    await expectRefused(clientFor(guest).collections.listPermissionsAggregateInCollection(shelf.id), 404);
    await expectRefused(api.collections.listPermissionsAggregateInCollection('no-such-collection'), 404);
  });

  it('ranks in SQL the role the policy gives, member by member, on collections and spaces with default levels, grants and teams', async () => {
    const org = (await newOrganization(server, admin, { title: 'Ranks' })).id;
    const people: Caller[] = [];
    for (const orgRole of ['create', 'edit', 'review', 'comment', 'read', null, null, 'read'] as const) people.push(await joining(org, orgRole));
    // The last is disabled: no role anywhere, whatever its grants.
    await server.em().nativeUpdate(Member, { organization: org, user: people[7].user.id }, { disabled: true });
    const top = await createCollection(admin, org, { title: 'Top' });
    const middle = await createCollection(admin, org, { title: 'Middle', parent: top.id });
    const bottom = await createCollection(admin, org, { title: 'Bottom', parent: middle.id });
    const closed = await createCollection(admin, org, { title: 'Closed' });
    for (const [collection, defaultLevel] of [
      [middle, 'comment'],
      [bottom, 'inherit'],
      [closed, null],
    ] as const) {
      expect((await admin.rest('PATCH', `/v1/collections/${collection.id}`, { defaultLevel })).status).toBe(200);
    }
    const space = await createSpace(admin, org, { title: 'Inside', parent: bottom.id });
    const writers = await createTeam(admin, org, 'Writers', [people[3].user.id, people[5].user.id, people[7].user.id]);
    await grant(admin, { collection: top.id }, { team: writers.id }, 'edit');
    await grant(admin, { collection: middle.id }, { user: people[4].user.id }, 'review');
    await grant(admin, { collection: bottom.id }, { user: people[6].user.id }, 'read');
    await grant(admin, { collection: closed.id }, { user: people[1].user.id }, 'admin');
    await grant(admin, { space: space.id }, { user: people[0].user.id }, 'admin');

    const policy = server.context({ user: admin.user, tokenId: 'oracle' }).policy;
    const em = server.em();
    const everyone = [admin, ...people];
    const api = clientFor(admin);
    for (const collection of [top, middle, bottom, closed]) {
      const row = await em.findOneOrFail(Collection, { id: collection.id });
      const expected = new Map<string, string | null>();
      for (const who of everyone) expected.set(who.user.id, await policy.forUser(who.user.id).collectionRole(row));
      const listed = await expectCurrent('listPermissionsAggregateInCollection', api.collections.listPermissionsAggregateInCollection(collection.id));
      const byUser = Object.fromEntries(listed.items.map((item) => [item.user.id, item.permission]));
      expect(byUser, collection.title).toEqual(Object.fromEntries([...expected].filter(([, value]) => value !== null)));
    }
    const spaceRow = await em.findOneOrFail(Space, { id: space.id });
    const spaceRoles = new Map<string, string | null>();
    for (const who of everyone) spaceRoles.set(who.user.id, await policy.forUser(who.user.id).spaceRole(spaceRow));
    const listed = await expectCurrent('listPermissionsAggregateInSpace', api.spaces.listPermissionsAggregateInSpace(space.id));
    expect(Object.fromEntries(listed.items.map((item: { user: { id: string }; permission: string }) => [item.user.id, item.permission]))).toEqual(
      Object.fromEntries([...spaceRoles].filter(([, value]) => value !== null)),
    );
    // The shape of the organization covers what the rules distinguish.
    const middleRoles = (await expectCurrent('listPermissionsAggregateInCollection', api.collections.listPermissionsAggregateInCollection(middle.id))).items;
    expect(new Set(middleRoles.map((item) => item.permission)).size).toBeGreaterThanOrEqual(4);
  });
});

// ─── sites ──────────────────────────────────────────────────────────────────────────────────────────

/** A site of the organization publishing these spaces at its root level. */
async function createSite(caller: Caller, title: string, spaces: string[], org = organizationId) {
  const res = await caller.rest('POST', `/v1/orgs/${org}/sites`, { title, spaces });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

const sitePath = (siteId: string, org = organizationId) => `/v1/orgs/${org}/sites/${siteId}`;

async function addSection(siteId: string, title: string) {
  const space = await createSpace(admin, organizationId, title);
  const res = await admin.rest('POST', `${sitePath(siteId)}/sections`, { spaceId: space.id, title });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; siteSpaces: { id: string }[] };
}

async function addSiteSpace(siteId: string, sectionId: string, title: string) {
  const space = await createSpace(admin, organizationId, title);
  const res = await admin.rest('POST', `${sitePath(siteId)}/site-spaces`, { spaceId: space.id, sectionId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; path: string };
}

/** A site's structure as ids: top-level items, each with its children (a group's sections, a section's site spaces). */
async function layoutOf(siteId: string) {
  const structure = await expectCurrent('getSiteStructure', clientFor(admin).orgs.getSiteStructure(organizationId, siteId));
  type Item = { id: string; object: string; children?: Item[]; siteSpaces?: { id: string }[] };
  const shape = (item: Item): unknown =>
    item.object === 'site-section-group'
      ? { [item.id]: (item.children ?? []).map(shape) }
      : item.object === 'site-section'
        ? { [item.id]: (item.siteSpaces ?? []).map((s) => s.id) }
        : item.id;
  return (structure.structure as Item[]).map(shape);
}

describe('the current client: duplicating a site space', () => {
  it("copies a section's only site space into a new section right after it, with a copy of its space", async () => {
    const site = await createSite(admin, 'Duplicates', []);
    const first = await addSection(site.id, 'Guides');
    const second = await addSection(site.id, 'Reference');
    const original = first.siteSpaces[0];
    const seq = await lastEventSeq(server);
    const api = clientFor(admin);
    const copy = await expectCurrent('duplicateSiteSpace', api.orgs.duplicateSiteSpace(organizationId, site.id, original.id, {}));
    expect(copy).toMatchObject({ object: 'site-space', default: true, draft: false, space: { title: 'Guides (copy)' } });
    expect(copy.space.id).not.toBe((await server.em().findOneOrFail(SiteSpace, { id: original.id })).space);
    const added = await server.em().findOneOrFail(SiteSection, { id: copy.section! });
    expect([added.title, added.path]).toEqual(['Guides (copy)', 'guides-copy']);
    expect(await layoutOf(site.id)).toEqual([{ [first.id]: [original.id] }, { [added.id]: [copy.id] }, { [second.id]: [second.siteSpaces[0].id] }]);
    const events = (await eventsOf(server, organizationId, seq)).map((event) => [
      event.type,
      (event.payload as { object?: string; change?: string }).change ?? null,
    ]);
    expect(events).toEqual([
      ['space.created', null],
      ['site.structure_changed', 'added'],
      ['site.structure_changed', 'added'],
    ]);
  });

  it('adds any other copy as a variant right after the original, in its section or at the root level', async () => {
    const site = await createSite(admin, 'Variants', []);
    const section = await addSection(site.id, 'Handbook');
    const original = section.siteSpaces[0];
    const after = await addSiteSpace(site.id, section.id, 'Handbook v2');
    const api = clientFor(admin);
    const copy = await expectCurrent('duplicateSiteSpace', api.orgs.duplicateSiteSpace(organizationId, site.id, original.id, { draft: false }));
    expect(copy).toMatchObject({ section: section.id, default: false, path: 'handbook-copy', space: { title: 'Handbook (copy)' } });
    expect(await layoutOf(site.id)).toEqual([{ [section.id]: [original.id, copy.id, after.id] }]);
    // Again: another path, right after the original still.
    const again = await expectCurrent('duplicateSiteSpace', api.orgs.duplicateSiteSpace(organizationId, site.id, original.id, {}));
    expect(again.path).toBe('handbook-copy-2');
    expect(await layoutOf(site.id)).toEqual([{ [section.id]: [original.id, again.id, copy.id, after.id] }]);

    const one = await createSpace(admin, organizationId, 'Alpha');
    const two = await createSpace(admin, organizationId, 'Beta');
    const flat = await createSite(admin, 'Flat', [one.id, two.id]);
    const [alpha, beta] = (await layoutOf(flat.id)) as string[];
    const call = api.orgs.duplicateSiteSpace(organizationId, flat.id, alpha, {});
    const rootCopy = await expectCurrent('duplicateSiteSpace', call);
    expect(rootCopy.section).toBeUndefined();
    expect(await layoutOf(flat.id)).toEqual([alpha, rootCopy.id, beta]);
    expect((await call).headers.get('location')).toMatch(new RegExp(`^https?://[^/]+${sitePath(flat.id)}/site-spaces/${rootCopy.id}$`));
  });

  it('refuses drafts, members below admin, strangers and unknown or foreign site spaces, changing nothing', async () => {
    const site = await createSite(admin, 'Guarded duplicates', [(await createSpace(admin, organizationId, 'Kept')).id]);
    const other = await createSite(admin, 'Other site', [(await createSpace(admin, organizationId, 'Theirs')).id]);
    const [siteSpace] = (await layoutOf(site.id)) as string[];
    const [foreign] = (await layoutOf(other.id)) as string[];
    const spaces = await server.em().count(Space, { organization: organizationId });
    const seq = await lastEventSeq(server);
    const api = clientFor(admin);
    await expectRefused(api.orgs.duplicateSiteSpace(organizationId, site.id, siteSpace, { draft: true }), 400);
    await expectRefused(api.orgs.duplicateSiteSpace(organizationId, site.id, siteSpace, { draft: 'yes' as never }), 400);
    await expectRefused(clientFor(editor).orgs.duplicateSiteSpace(organizationId, site.id, siteSpace, {}), 403);
    await expectRefused(clientFor(outsider).orgs.duplicateSiteSpace(organizationId, site.id, siteSpace, {}), 404);
    await expectRefused(api.orgs.duplicateSiteSpace(organizationId, site.id, 'no-such-site-space', {}), 404);
    await expectRefused(api.orgs.duplicateSiteSpace(organizationId, site.id, foreign, {}), 404);
    await expectRefused(api.orgs.duplicateSiteSpace(organizationId, 'no-such-site', siteSpace, {}), 404);
    expect(await server.em().count(Space, { organization: organizationId })).toBe(spaces);
    expect(await eventsOf(server, organizationId, seq)).toEqual([]);
    expect(await layoutOf(site.id)).toEqual([siteSpace]);
  });
});

describe("the current client: sorting a site's structure", () => {
  /** A site of sections A, B, C, a group G of sections D and E, and site spaces v1, v2, v3 in A. */
  async function structuredSite() {
    const site = await createSite(admin, 'Sorted', []);
    const sections: Record<string, { id: string; siteSpaces: { id: string }[] }> = {};
    for (const title of ['A', 'B', 'C', 'D', 'E']) sections[title] = await addSection(site.id, `Section ${title}`);
    const group = await admin.rest('POST', `${sitePath(site.id)}/section-groups`, { title: 'G', sections: [sections.D.id, sections.E.id] });
    expect(group.status).toBe(201);
    const v1 = sections.A.siteSpaces[0].id;
    const v2 = (await addSiteSpace(site.id, sections.A.id, 'Variant 2')).id;
    const v3 = (await addSiteSpace(site.id, sections.A.id, 'Variant 3')).id;
    const ids = { A: sections.A.id, B: sections.B.id, C: sections.C.id, D: sections.D.id, E: sections.E.id, G: (group.body as { id: string }).id };
    return { site, ids, v1, v2, v3 };
  }
  const section = (id: string) => ({ type: 'site-section' as const, id });
  const groupPointer = (id: string) => ({ type: 'site-section-group' as const, id });
  const siteSpace = (id: string) => ({ type: 'site-space' as const, id });

  it('moves sections, groups and site spaces among the siblings of their level, answering the item', async () => {
    const { site, ids, v1, v2, v3 } = await structuredSite();
    const api = clientFor(admin);
    const sort = (body: Parameters<typeof api.orgs.sortSiteStructure>[2]) =>
      expectCurrent('sortSiteStructure', api.orgs.sortSiteStructure(organizationId, site.id, body));
    expect(await layoutOf(site.id)).toEqual([
      { [ids.A]: [v1, v2, v3] },
      { [ids.B]: [expect.any(String)] },
      { [ids.C]: [expect.any(String)] },
      { [ids.G]: [{ [ids.D]: [expect.any(String)] }, { [ids.E]: [expect.any(String)] }] },
    ]);
    const tops = async () => ((await layoutOf(site.id)) as Record<string, unknown>[]).map((item) => Object.keys(item)[0]);

    const moved = await sort({ item: section(ids.C), position: { before: section(ids.A) } });
    expect(moved).toMatchObject({ object: 'site-section', id: ids.C });
    expect(await tops()).toEqual([ids.C, ids.A, ids.B, ids.G]);

    // A group among top-level items, next to a section; a section next to a group.
    expect(await sort({ item: groupPointer(ids.G), position: { after: section(ids.C) } })).toMatchObject({ object: 'site-section-group', id: ids.G });
    expect(await tops()).toEqual([ids.C, ids.G, ids.A, ids.B]);
    await sort({ item: section(ids.B), position: { after: section(ids.C), before: groupPointer(ids.G) } });
    expect(await tops()).toEqual([ids.C, ids.B, ids.G, ids.A]);

    // A section inside its group; to the end of its level without a sibling.
    await sort({ item: section(ids.D), position: {} });
    const grouped = ((await layoutOf(site.id)) as Record<string, Record<string, unknown>[]>[])[2][ids.G].map((item) => Object.keys(item)[0]);
    expect(grouped).toEqual([ids.E, ids.D]);

    // A site space among its section's.
    expect(await sort({ item: siteSpace(v3), position: { after: siteSpace(v1) } })).toMatchObject({ object: 'site-space', id: v3, section: ids.A });
    expect(((await layoutOf(site.id)) as Record<string, unknown>[])[3]).toEqual({ [ids.A]: [v1, v3, v2] });
  });

  it('leaves an item that is already in place as it is: nothing written, nothing announced', async () => {
    const { site, ids, v1, v2 } = await structuredSite();
    const api = clientFor(admin);
    const body = { item: section(ids.B), position: { after: section(ids.A) } };
    const before = await layoutOf(site.id);
    const positions = async () => (await server.em().find(SiteSection, { site: site.id }, { orderBy: { id: 'asc' } })).map((s) => s.position);
    const kept = await positions();
    const seq = await lastEventSeq(server);
    await expectCurrent('sortSiteStructure', api.orgs.sortSiteStructure(organizationId, site.id, body));
    await expectCurrent('sortSiteStructure', api.orgs.sortSiteStructure(organizationId, site.id, { item: groupPointer(ids.G), position: {} }));
    await expectCurrent('sortSiteStructure', api.orgs.sortSiteStructure(organizationId, site.id, { item: siteSpace(v2), position: { after: siteSpace(v1) } }));
    expect(await eventsOf(server, organizationId, seq)).toEqual([]);
    expect(await positions()).toEqual(kept);
    expect(await layoutOf(site.id)).toEqual(before);

    await expectCurrent(
      'sortSiteStructure',
      api.orgs.sortSiteStructure(organizationId, site.id, { item: section(ids.A), position: { after: section(ids.B) } }),
    );
    const events = await eventsOf(server, organizationId, seq);
    expect(events.map((event) => [event.type, event.payload])).toEqual([
      ['site.structure_changed', { site: site.id, object: 'site-section', id: ids.A, change: 'moved' }],
    ]);
  });

  it('refuses unknown and foreign items, pointers outside the level, members below admin and strangers, changing nothing', async () => {
    const { site, ids, v1, v3 } = await structuredSite();
    const other = await createSite(admin, 'Foreign', []);
    const foreign = await addSection(other.id, 'Foreign');
    const api = clientFor(admin);
    const sort = (body: unknown) => api.orgs.sortSiteStructure(organizationId, site.id, body as never);
    const before = await layoutOf(site.id);
    const seq = await lastEventSeq(server);

    await expectRefused(sort({ item: section('no-such-section'), position: {} }), 404);
    await expectRefused(sort({ item: section(foreign.id), position: {} }), 404);
    await expectRefused(sort({ item: siteSpace(foreign.siteSpaces[0].id), position: {} }), 404);
    await expectRefused(sort({ item: groupPointer(ids.A), position: {} }), 404);
    await expectRefused(sort({ item: { type: 'site-external-link', id: ids.A }, position: {} }), 404);
    // Pointers: of another level, of the wrong kind, the item itself, not adjacent, of another site.
    await expectRefused(sort({ item: section(ids.D), position: { before: section(ids.A) } }), 400);
    await expectRefused(sort({ item: section(ids.A), position: { before: groupPointer(ids.B) } }), 400);
    await expectRefused(sort({ item: section(ids.A), position: { after: section(ids.A) } }), 400);
    await expectRefused(sort({ item: section(ids.A), position: { after: section(ids.B), before: groupPointer(ids.G) } }), 400);
    await expectRefused(sort({ item: section(ids.A), position: { after: section(foreign.id) } }), 400);
    await expectRefused(sort({ item: siteSpace(v1), position: { before: section(ids.B) } }), 400);
    // Bodies that are not one: no item, an unknown type, an id that is not a string.
    await expectRefused(sort({ position: {} }), 400);
    await expectRefused(sort({ item: { type: 'page', id: ids.A }, position: {} }), 400);
    await expectRefused(sort({ item: { type: 'site-section', id: true }, position: {} }), 400);

    await expectRefused(clientFor(editor).orgs.sortSiteStructure(organizationId, site.id, { item: siteSpace(v3), position: { before: siteSpace(v1) } }), 403);
    await expectRefused(clientFor(outsider).orgs.sortSiteStructure(organizationId, site.id, { item: siteSpace(v3), position: {} }), 404);
    await expectRefused(api.orgs.sortSiteStructure(organizationId, 'no-such-site', { item: siteSpace(v3), position: {} }), 404);
    expect(await eventsOf(server, organizationId, seq)).toEqual([]);
    expect(await layoutOf(site.id)).toEqual(before);
  });

  it('serializes concurrent moves of one site: each succeeds (or is a 409) and the order stays whole', async () => {
    const { site, ids } = await structuredSite();
    const api = clientFor(admin);
    const tops = [section(ids.A), section(ids.B), section(ids.C), groupPointer(ids.G)];
    const moves = Array.from({ length: 12 }, (_, i) => {
      const item = tops[i % tops.length];
      const next = tops[(i * 3 + 1) % tops.length];
      const position = next.id === item.id ? {} : i % 2 ? { before: next } : { after: next };
      return api.orgs.sortSiteStructure(organizationId, site.id, { item, position }).then(
        (res) => res.status,
        (error: { code?: number }) => error.code,
      );
    });
    const statuses = await Promise.all(moves);
    for (const status of statuses) expect([200, 409]).toContain(status);
    expect(statuses).toContain(200);
    const sections = await server.em().find(SiteSection, { site: site.id, sectionGroup: null });
    const groups = await server.em().find(SiteSectionGroup, { site: site.id });
    const positions = [...sections, ...groups].map((row) => row.position);
    expect(new Set(positions).size).toBe(positions.length);
    const order = ((await layoutOf(site.id)) as Record<string, unknown>[]).map((item) => Object.keys(item)[0]);
    expect([...order].sort()).toEqual([ids.A, ids.B, ids.C, ids.G].sort());
  });
});
