/**
 * The sizes of the long lists are kept by the database (row_count, maintained by triggers) so that a
 * list's exact `count` costs an index lookup. Whatever happens to the rows — creation, soft delete and
 * restore, moves and transfers, access levels passed down a tree, status changes, cascades, concurrent
 * writes — every kept size must equal a recount of the rows, and each list's `count` the rows it pages.
 */
import sql, { join, raw } from 'sql-template-tag';
import { describe, expect, it } from 'vitest';
import { COUNTERS } from '../src/db/migrations/Migration20261216090000.js';
import { readRows } from '../src/db/statements.js';
import { commentsPath, postComment } from './support/comments.js';
import { createSpace, newOrganizationWithSpace, openChangeRequest } from './support/content.js';
import { newMember, newOrganization, newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

/** Kept sizes that differ from a recount of the rows (nothing when all agree), for parents of these organizations. */
async function disagreements(organizationIds: string[]) {
  const recount = join(
    COUNTERS.map(
      (c) => sql`select ${raw(`'${c.name}'`)} as counter, ${raw(c.parent)} as parent_id, ${raw(c.bucket)} as bucket, count(*) as n
      from ${raw(`"${c.table}"`)} r where ${raw(c.live)} and ${raw(c.parent)} is not null and r.organization_id = any(${organizationIds}) group by 2, 3`,
    ),
    ' union all ',
  );
  return readRows(
    server.em(),
    sql`with actual as (${recount}),
      kept as (select k.* from row_count k where k.n <> 0 and exists (select 1 from actual a where a.counter = k.counter and a.parent_id = k.parent_id)
        or k.parent_id = any(${organizationIds}) or k.parent_id in (select 'top:' || o from unnest(${organizationIds}::text[]) o))
    select coalesce(a.counter, k.counter) as counter, coalesce(a.parent_id, k.parent_id) as parent_id, coalesce(a.bucket, k.bucket) as bucket,
      a.n::int as actual, k.n::int as kept
    from actual a full join kept k on k.counter = a.counter and k.parent_id = a.parent_id and k.bucket = a.bucket
    where coalesce(a.n, 0) <> coalesce(k.n, 0)`,
  );
}

/** Every item of a REST list, following `next`, with the `count` each page gave. */
async function wholeList(caller: Caller, path: string) {
  const items: { id: string }[] = [];
  const counts = new Set<number>();
  let page: string | undefined;
  do {
    const res = await caller.rest('GET', `${path}${path.includes('?') ? '&' : '?'}limit=7${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    counts.add(res.body.count);
    page = res.body.next?.page;
  } while (page);
  return { ids: items.map((i) => i.id), counts: [...counts] };
}

describe('kept list sizes', () => {
  it('follow spaces and collections through creation, moves, soft deletes, restores, transfers and access levels', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin, { title: 'Other' });
    const collection = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Docs' })).body;
    const nested = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Nested', parent: collection.id })).body;
    // Concurrent creations at the top level and in a collection.
    const spaces = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createSpace(admin, organization.id, i % 2 ? { title: `S${i}`, parent: collection.id } : { title: `S${i}` })),
    );
    expect(await disagreements([organization.id, other.id])).toEqual([]);

    await admin.rest('DELETE', `/v1/spaces/${spaces[0].id}`);
    await admin.rest('DELETE', `/v1/spaces/${spaces[1].id}`);
    await admin.rest('POST', `/v1/spaces/${spaces[1].id}/restore`);
    await admin.rest('POST', `/v1/spaces/${spaces[2].id}/move`, { parent: nested.id });
    await admin.rest('POST', `/v1/spaces/${spaces[3].id}/transfer`, { organization: other.id });
    // Closing the collection to members passes `none` down to what it holds.
    expect((await admin.rest('PATCH', `/v1/collections/${collection.id}`, { defaultLevel: null })).status).toBe(200);
    await admin.rest('POST', `/v1/collections/${nested.id}/move`, { parent: null });
    expect(await disagreements([organization.id, other.id])).toEqual([]);

    // The member sees the top level only: the collection is closed to them now.
    for (const caller of [admin, read]) {
      const list = await wholeList(caller, `/v1/orgs/${organization.id}/spaces`);
      expect(list.counts).toEqual([list.ids.length]);
    }
    expect((await wholeList(admin, `/v1/orgs/${organization.id}/spaces`)).ids).toHaveLength(10);
    expect((await wholeList(read, `/v1/orgs/${organization.id}/spaces`)).ids).toHaveLength(5);
    const inCollection = await wholeList(admin, `/v1/collections/${collection.id}/spaces`);
    expect(inCollection.counts).toEqual([inCollection.ids.length]);

    await admin.rest('DELETE', `/v1/collections/${collection.id}`);
    expect(await disagreements([organization.id, other.id])).toEqual([]);
    const collections = await wholeList(admin, `/v1/orgs/${organization.id}/collections`);
    expect(collections.counts).toEqual([collections.ids.length]);
  });

  it('follow change requests and comments through statuses, and members through roles', async () => {
    const { organization, admin, edit, space } = await newOrganizationWithSpace(server);
    const changeRequests = await Promise.all(Array.from({ length: 6 }, (_, i) => openChangeRequest(admin, space.id, `Change ${i}`)));
    await admin.rest('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequests[0].id}`, { status: 'archived' });
    await admin.rest('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequests[1].id}`, { status: 'draft' });
    const comments = await Promise.all(Array.from({ length: 5 }, (_, i) => postComment(admin, commentsPath(space.id), `Comment ${i}`)));
    await Promise.all(Array.from({ length: 3 }, (_, i) => postComment(edit, commentsPath(space.id, changeRequests[2].id), `On a change ${i}`)));
    await admin.rest('PUT', `/v1/spaces/${space.id}/comments/${comments[0].id}`, { status: 'resolved' });
    await admin.rest('DELETE', `/v1/spaces/${space.id}/comments/${comments[1].id}`);
    await admin.rest('PATCH', `/v1/orgs/${organization.id}/members/${edit.user.id}`, { role: 'admin' });
    const late = await newMember(server, organization.id, 'read');
    await admin.rest('DELETE', `/v1/orgs/${organization.id}/members/${late.user.id}`);
    expect(await disagreements([organization.id])).toEqual([]);

    for (const status of ['open', 'draft', 'archived', 'merged']) {
      const list = await wholeList(admin, `/v1/spaces/${space.id}/change-requests?status=${status}`);
      expect(list.counts).toEqual([list.ids.length]);
    }
    expect((await wholeList(admin, `/v1/spaces/${space.id}/change-requests?status=open`)).ids).toHaveLength(4);
    for (const status of ['open', 'resolved', 'all']) {
      const list = await wholeList(admin, `/v1/spaces/${space.id}/comments?status=${status}`);
      expect(list.counts).toEqual([list.ids.length]);
    }
    for (const query of ['', '?role=admin', '?role=read', '?role=guest', '?sort=lastSeenAt']) {
      const list = await wholeList(admin, `/v1/orgs/${organization.id}/members${query}`);
      expect(list.counts).toEqual([list.ids.length]);
    }
  });

  it('follow sections and site spaces, their cascades included', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const spaces = await Promise.all([1, 2, 3].map((i) => createSpace(admin, organization.id, { title: `S${i}` })));
    const site = (await admin.rest('POST', `/v1/orgs/${organization.id}/sites`, { title: 'Site' })).body;
    const base = `/v1/orgs/${organization.id}/sites/${site.id}`;
    const sections = await Promise.all(spaces.map((s, i) => admin.rest('POST', `${base}/sections`, { spaceId: s.id, title: `Section ${i}` })));
    expect(sections.map((s) => s.status)).toEqual([201, 201, 201]);
    expect(await disagreements([organization.id])).toEqual([]);
    expect((await admin.rest('DELETE', `${base}/sections/${sections[0].body.id}`)).status).toBe(204);
    expect(await disagreements([organization.id])).toEqual([]);
    const siteSpaces = await wholeList(admin, `${base}/site-spaces`);
    expect(siteSpaces.counts).toEqual([2]);
    expect((await wholeList(admin, `${base}/sections`)).counts).toEqual([2]);
    expect((await admin.gql(`query($id: ID!) { site(id: $id) { siteSpaces } }`, { id: site.id })).data.site.siteSpaces).toBe(2);
    expect((await admin.rest('DELETE', base)).status).toBe(204);
    expect(await disagreements([organization.id])).toEqual([]);
  });
});
