/**
 * Change requests (contract §2.10, §3, §4.4) through both doors on the real database: creation from
 * the space's revision, numbering, listing and filters, status moves, edits making revisions, merges
 * (combining, conflicts, concurrency), updates and `outdated`, locked spaces, counts, permissions.
 */
import { describe, expect, it } from 'vitest';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newMember } from './support/factories.js';
import { createPage, createSpace, deletePage, mainPages, merge, movePage, newOrganizationWithSpace, openChangeRequest, updatePage } from './support/content.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const crPath = (spaceId: string, cr: string | number = '') => `/v1/spaces/${spaceId}/change-requests${cr === '' ? '' : `/${cr}`}`;

describe('creating, reading and listing change requests', () => {
  it('starts from the space revision, numbers per space, and answers by id or number', async () => {
    const { organization, admin, space } = await newOrganizationWithSpace(server);
    const res = await admin.rest('POST', crPath(space.id), { subject: 'First' });
    expect(res.status).toBe(201);
    expectContract('createChangeRequest', res);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'First',
      revision: space.revision,
      revisionInitial: space.revision,
      outdated: false,
      comments: 0,
      createdBy: { id: admin.user.id },
    });
    const second = await openChangeRequest(admin, space.id);
    expect(second.number).toBe(2);
    const byNumber = await admin.rest('GET', crPath(space.id, 2));
    expect(byNumber.body.id).toBe(second.id);
    const byId = await admin.rest('GET', crPath(space.id, res.body.id));
    expect(byId.status).toBe(200);
    expectContract('getChangeRequestById', byId);
    // A change request of another space is not found through this one.
    const other = await createSpace(admin, organization.id);
    expectError(await admin.rest('GET', crPath(other.id, res.body.id)), 404, 'Change request not found');
    expectError(await admin.rest('GET', crPath(other.id, 1)), 404, 'Change request not found');
  });

  it('refuses a subject over 100 characters naming the field, creating nothing', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    expectError(await admin.rest('POST', crPath(space.id), { subject: 'x'.repeat(101) }), 400, 'subject: must be at most 100 characters');
    expect((await admin.rest('GET', crPath(space.id))).body.count).toBe(0);
  });

  it('lists open ones by default, filters by status and contributor, and counts on the space', async () => {
    const { admin, edit, space } = await newOrganizationWithSpace(server);
    const a = await openChangeRequest(admin, space.id, 'A');
    const b = await openChangeRequest(edit, space.id, 'B');
    const c = await openChangeRequest(admin, space.id, 'C');
    expect((await admin.rest('PATCH', crPath(space.id, c.id), { status: 'draft' })).status).toBe(200);
    const open = await admin.rest('GET', crPath(space.id));
    expectContract('listChangeRequestsForSpace', open);
    expect(open.body.items.map((x: { subject: string }) => x.subject)).toEqual(['B', 'A']);
    expect((await admin.rest('GET', `${crPath(space.id)}?status=draft`)).body.items.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect((await admin.rest('GET', `${crPath(space.id)}?contributor=${edit.user.id}`)).body.items.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expectError(await admin.rest('GET', `${crPath(space.id)}?status=closed`), 400, /status/);
    const page1 = await admin.rest('GET', `${crPath(space.id)}?limit=1`);
    expect(page1.body.items[0].id).toBe(b.id);
    const page2 = await admin.rest('GET', `${crPath(space.id)}?limit=1&page=${page1.body.next.page}`);
    expect(page2.body.items[0].id).toBe(a.id);
    const got = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(got.body).toMatchObject({ changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1 });
  });

  it('moves status as documented and refuses other moves', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const archived = await admin.rest('PATCH', crPath(space.id, cr.id), { status: 'archived', subject: 'Old' });
    expectContract('updateChangeRequestById', archived);
    expect(archived.body).toMatchObject({ status: 'archived', subject: 'Old' });
    expectError(await admin.rest('PATCH', crPath(space.id, cr.id), { status: 'merged' }), 400, /status/);
    expect((await admin.rest('PATCH', crPath(space.id, cr.id), { status: 'open' })).body.status).toBe('open');
    expect((await merge(admin, space.id, cr.id)).status).toBe(200);
    expectError(await admin.rest('PATCH', crPath(space.id, cr.id), { status: 'open' }), 409, /merged/);
  });
});

describe('editing content in a change request', () => {
  it('makes a new revision per edit whose parent is the previous one, and shares nothing with main until merged', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const first = await createPage(admin, space.id, cr.id, { title: 'Getting Started', markdown: '# Hello' });
    expect(first.revision.parents).toEqual([space.revision]);
    expect(first.page).toMatchObject({ title: 'Getting Started', slug: 'getting-started', path: 'getting-started' });
    const child = await createPage(admin, space.id, cr.id, { title: 'Install', parent: first.page!.id });
    expect(child.revision.parents).toEqual([first.revision.id]);
    expect(child.page!.path).toBe('getting-started/install');
    const twin = await createPage(admin, space.id, cr.id, { title: 'Install', parent: first.page!.id });
    expect(twin.page!.slug).toBe('install-2');
    const renamed = await updatePage(admin, space.id, cr.id, first.page!.id, { title: 'Start here' });
    const got = await admin.rest('GET', `${crPath(space.id, cr.id)}/content/page/${child.page!.id}`);
    expect(got.body.path).toBe('start-here/install');
    expect((await admin.rest('GET', crPath(space.id, cr.id))).body.revision).toBe(renamed.revision.id);
    expect(await mainPages(admin, space.id)).toEqual([]);
    expect((await merge(admin, space.id, cr.id)).body.result).toBe('merge');
    expect(await mainPages(admin, space.id)).toEqual([['Start here', ['Install', 'Install']]]);
  });

  it('moves pages, refuses moving under a descendant, and deletes a page with its descendants', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const a = (await createPage(admin, space.id, cr.id, { title: 'A' })).page!;
    const b = (await createPage(admin, space.id, cr.id, { title: 'B' })).page!;
    const a1 = (await createPage(admin, space.id, cr.id, { title: 'A1', parent: a.id })).page!;
    await movePage(admin, space.id, cr.id, b.id, { position: { before: a.id } });
    await movePage(admin, space.id, cr.id, a1.id, { parent: null, position: { after: b.id } });
    const res = await admin.gql(
      `mutation($s: ID!, $c: ID!, $p: ID!) { movePage(spaceId: $s, changeRequestId: $c, pageId: $p, input: { parent: $c2 }) { revision { id } } }`.replace(
        '$c2',
        JSON.stringify(a1.id),
      ),
      { s: space.id, c: cr.id, p: a.id },
    );
    expect(res.errors).toBeUndefined();
    const pages = await admin.rest('GET', `${crPath(space.id, cr.id)}/content/pages`);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['B', 'A1']);
    expect(pages.body.pages[1].pages.map((p: { title: string }) => p.title)).toEqual(['A']);
    const cycle = await admin.gql(
      `mutation($s: ID!, $c: ID!, $p: ID!, $to: ID) { movePage(spaceId: $s, changeRequestId: $c, pageId: $p, input: { parent: $to }) { revision { id } } }`,
      { s: space.id, c: cr.id, p: a1.id, to: a.id },
    );
    expectGqlError(cycle, 'BAD_REQUEST', 'parent: a page cannot move under itself or its descendants');
    await deletePage(admin, space.id, cr.id, a1.id);
    const after = await admin.rest('GET', `${crPath(space.id, cr.id)}/content/pages`);
    expect(after.body.pages.map((p: { title: string }) => p.title)).toEqual(['B']);
    expectError(await admin.rest('GET', `${crPath(space.id, cr.id)}/content/page/${a.id}`), 404, 'Page not found');
  });

  it('refuses bad input with 400 naming the field and changes nothing', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const create = (input: Record<string, unknown>) =>
      admin.gql(`mutation($s: ID!, $c: ID!, $i: CreatePageInput!) { createPage(spaceId: $s, changeRequestId: $c, input: $i) { revision { id } } }`, {
        s: space.id,
        c: cr.id,
        i: input,
      });
    expectGqlError(await create({ title: '' }), 'BAD_REQUEST', 'title: must be at least 1 character');
    expectGqlError(await create({ title: 'x'.repeat(101) }), 'BAD_REQUEST', 'title: must be at most 100 characters');
    expectGqlError(await create({ title: 'T', parent: 'nope' }), 'BAD_REQUEST', 'parent: no page "nope" in this revision');
    expectGqlError(await create({ title: 'T', layout: { width: 'huge' } }), 'BAD_REQUEST', /^layout.width: must be one of/);
    expectGqlError(await create({ title: 'T', cover: { file: 'nofile' } }), 'BAD_REQUEST', 'cover.file: no file "nofile" in this change request');
    expect((await admin.rest('GET', crPath(space.id, cr.id))).body.revision).toBe(space.revision);
  });

  it('refuses edits, updates and merges in a locked space with 409, and takes them again once live', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, cr.id, { title: 'Before lock' });
    expect((await admin.rest('PATCH', `/v1/spaces/${space.id}`, { editMode: 'locked' })).status).toBe(200);
    const edit = await admin.gql(`mutation($s: ID!, $c: ID!) { createPage(spaceId: $s, changeRequestId: $c, input: { title: "X" }) { revision { id } } }`, {
      s: space.id,
      c: cr.id,
    });
    expectGqlError(edit, 'CONFLICT', /locked/);
    expectError(await merge(admin, space.id, cr.id), 409, /locked/);
    expectError(await admin.rest('POST', `${crPath(space.id, cr.id)}/update`), 409, /locked/);
    expectError(await admin.rest('POST', crPath(space.id), {}), 409, /locked/);
    expect((await admin.rest('PATCH', `/v1/spaces/${space.id}`, { editMode: 'live' })).status).toBe(200);
    expect((await merge(admin, space.id, cr.id)).status).toBe(200);
    expect(await mainPages(admin, space.id)).toEqual(['Before lock']);
  });
});

describe('merging', () => {
  it('combines changes to different pages from two change requests', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const seed = await openChangeRequest(admin, space.id);
    const one = (await createPage(admin, space.id, seed.id, { title: 'One', markdown: 'one' })).page!;
    const two = (await createPage(admin, space.id, seed.id, { title: 'Two', markdown: 'two' })).page!;
    await merge(admin, space.id, seed.id);
    const first = await openChangeRequest(admin, space.id);
    const second = await openChangeRequest(admin, space.id);
    await updatePage(admin, space.id, first.id, one.id, { markdown: 'one, edited' });
    await updatePage(admin, space.id, second.id, two.id, { title: 'Two edited' });
    await createPage(admin, space.id, second.id, { title: 'Three' });
    const merged1 = await merge(admin, space.id, first.id);
    expectContract('mergeChangeRequest', merged1);
    expect(merged1.body).toEqual({ revision: expect.any(String), result: 'merge' });
    const stale = await admin.rest('GET', crPath(space.id, second.id));
    expect(stale.body.outdated).toBe(true);
    const merged2 = await merge(admin, space.id, second.id);
    expect(merged2.status).toBe(200);
    const spaceNow = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(spaceNow.body.revision).toBe(merged2.body.revision);
    expect(await mainPages(admin, space.id)).toEqual(['One', 'Two edited', 'Three']);
    const body = await admin.gql(`query($id: ID!) { space(id: $id) { content { parents type mergedFrom { id } page(path: "one") { markdown } } } }`, {
      id: space.id,
    });
    expect(body.data.space.content).toEqual({
      parents: [merged1.body.revision, expect.any(String)],
      type: 'merge',
      mergedFrom: { id: second.id },
      page: { markdown: 'one, edited' },
    });
    const done = await admin.rest('GET', crPath(space.id, second.id));
    expect(done.body).toMatchObject({ status: 'merged', revisionMerged: merged2.body.revision, outdated: false });
    expectError(await merge(admin, space.id, second.id), 409, /already merged|merged/);
  });

  it('refuses the same page changed on both sides with 409 naming it, until an update keeps one side', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const seed = await openChangeRequest(admin, space.id);
    const page = (await createPage(admin, space.id, seed.id, { title: 'Shared' })).page!;
    const other = (await createPage(admin, space.id, seed.id, { title: 'Other' })).page!;
    await merge(admin, space.id, seed.id);
    const first = await openChangeRequest(admin, space.id);
    const second = await openChangeRequest(admin, space.id);
    await updatePage(admin, space.id, first.id, page.id, { markdown: 'first' });
    await updatePage(admin, space.id, second.id, page.id, { markdown: 'second' });
    await updatePage(admin, space.id, second.id, other.id, { markdown: 'other' });
    await merge(admin, space.id, first.id);
    const refused = await merge(admin, space.id, second.id);
    expectError(refused, 409, `Cannot merge: conflicting changes on pages "Shared" (${page.id})`);
    expectError(await admin.rest('POST', `${crPath(space.id, second.id)}/update`), 409, /Cannot update: conflicting changes on pages "Shared"/);
    const kept = await admin.gql(
      `mutation($s: ID!, $c: ID!) { updateChangeRequestFromMain(spaceId: $s, changeRequestId: $c, conflicts: ours) { revision result } }`,
      { s: space.id, c: second.id },
    );
    expect(kept.data.updateChangeRequestFromMain.result).toBe('update');
    expect((await merge(admin, space.id, second.id)).status).toBe(200);
    const md = await admin.gql(`query($id: ID!) { space(id: $id) { content { pages { title markdown } } } }`, { id: space.id });
    expect(md.data.space.content.pages).toEqual([
      { title: 'Shared', markdown: 'second' },
      { title: 'Other', markdown: 'other' },
    ]);
  });

  it('of two merges at once, combines different pages and refuses the conflicting one; no page is lost', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const seed = await openChangeRequest(admin, space.id);
    const shared = (await createPage(admin, space.id, seed.id, { title: 'Shared' })).page!;
    await merge(admin, space.id, seed.id);
    const a = await openChangeRequest(admin, space.id);
    const b = await openChangeRequest(admin, space.id);
    const c = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, a.id, { title: 'From A' });
    await updatePage(admin, space.id, a.id, shared.id, { markdown: 'a' });
    await createPage(admin, space.id, b.id, { title: 'From B' });
    await updatePage(admin, space.id, c.id, shared.id, { markdown: 'c' });
    const results = await Promise.all([merge(admin, space.id, a.id), merge(admin, space.id, b.id), merge(admin, space.id, c.id), merge(admin, space.id, a.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 409, 409]);
    // B touched nothing the others did: it merges whatever the order. A and C both changed "Shared":
    // whichever came first merged, the other was refused (and A's second merge too).
    expect(results[1].status).toBe(200);
    const aMerged = results[0].status === 200 || results[3].status === 200;
    expect(aMerged).toBe(results[2].status === 409);
    const main = await admin.gql(`query($id: ID!) { space(id: $id) { content { pages { title markdown } } } }`, { id: space.id });
    const pages = main.data.space.content.pages as { title: string; markdown: string }[];
    expect(pages.map((p) => p.title).sort()).toEqual((aMerged ? ['From A', 'From B', 'Shared'] : ['From B', 'Shared']).sort());
    expect(pages.find((p) => p.title === 'Shared')!.markdown).toBe(aMerged ? 'a' : 'c');
  });

  it('updates an outdated change request with main content, clearing outdated', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const mine = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, mine.id, { title: 'Mine' });
    const theirs = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, theirs.id, { title: 'Theirs' });
    const merged = await merge(admin, space.id, theirs.id);
    expect((await admin.rest('GET', crPath(space.id, mine.id))).body.outdated).toBe(true);
    const res = await admin.rest('POST', `${crPath(space.id, mine.number)}/update`);
    expect(res.status).toBe(200);
    expectContract('updateChangeRequest', res);
    expect(res.body.result).toBe('update');
    const after = await admin.rest('GET', crPath(space.id, mine.id));
    expect(after.body).toMatchObject({ outdated: false, revision: res.body.revision, revisionMergedAncestor: merged.body.revision });
    const pages = await admin.rest('GET', `${crPath(space.id, mine.id)}/content/pages`);
    expect(pages.body.pages.map((p: { title: string }) => p.title).sort()).toEqual(['Mine', 'Theirs']);
    const revision = await admin.rest('GET', `${crPath(space.id, mine.id)}/content`);
    expect(revision.body).toMatchObject({ type: 'update', parents: [expect.any(String), merged.body.revision] });
  });
});

describe('permissions', () => {
  it('needs a token, read to see, edit to change, review to merge; other organizations get 404', async () => {
    const { organization, admin, edit, read, outsider, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const anonymous = await fetch(`${server.url}${crPath(space.id)}`);
    expect(anonymous.status).toBe(401);
    expect((await read.rest('GET', crPath(space.id, cr.id))).status).toBe(200);
    expectError(await read.rest('POST', crPath(space.id), {}), 403, 'Space: this operation needs the edit role');
    expectError(await outsider.rest('GET', crPath(space.id, cr.id)), 404, 'Space not found');
    expectError(await outsider.rest('GET', `${crPath(space.id, cr.id)}/content`), 404, 'Space not found');
    await createPage(edit, space.id, cr.id, { title: 'By editor' });
    expectError(await edit.rest('POST', `${crPath(space.id, cr.id)}/merge`), 403, 'Space: this operation needs the review role');
    const reviewer = await newMember(server, organization.id, 'review');
    expect((await merge(reviewer, space.id, cr.id)).status).toBe(200);
    const readEdit = await read.gql(`mutation($s: ID!, $c: ID!) { createPage(spaceId: $s, changeRequestId: $c, input: { title: "X" }) { revision { id } } }`, {
      s: space.id,
      c: cr.id,
    });
    expectGqlError(readEdit, 'FORBIDDEN');
  });
});
