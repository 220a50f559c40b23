/**
 * Lists read one page in SQL (keyset condition, LIMIT, a count of their own): with thousands of rows
 * inserted in bulk, paging with `limit` and `next` through both doors yields exactly the whole list in
 * its order, each page's `count` is the exact total, and a cursor this list did not hand out is a 400.
 * The expected lists are computed here, in JavaScript, from the rows as stored.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../src/kernel/ids.js';
import { newOrganizationWithSpace, openChangeRequest } from './support/content.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createTeam } from './support/people.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const BASE = Date.parse('2026-01-15T12:00:00.000Z');
const BAD_PAGE = 'page: not a page identifier returned by this list';
const cursorOf = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** Inserts rows in one statement (a JSON recordset), columns named with their SQL types. */
async function insertRows(table: string, columns: Record<string, string>, rows: Record<string, unknown>[]) {
  const names = Object.keys(columns).map((name) => `"${name}"`);
  const types = Object.entries(columns).map(([name, type]) => `"${name}" ${type}`);
  await server
    .em()
    .getConnection()
    .execute(`insert into "${table}" (${names.join(', ')}) select ${names.join(', ')} from jsonb_to_recordset(?::jsonb) as r(${types.join(', ')})`, [
      JSON.stringify(rows),
    ]);
}

async function selectRows<T>(text: string, params: unknown[]): Promise<T[]> {
  return server.em().getConnection().execute<T[]>(text, params);
}

/** JavaScript's order of keys (numbers, then ids as strings): the order the lists had before SQL. */
function compareKeys(a: (string | number)[], b: (string | number)[]) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}
const sortedBy = <T>(rows: T[], key: (row: T) => (string | number)[], desc = false) => [...rows].sort((x, y) => (desc ? -1 : 1) * compareKeys(key(x), key(y)));

type PageOf = { items: unknown[]; count: number; next: { page: string } | null };

/** Follows `next` from the first page; every page's ids in order, and every count seen. */
async function pageThrough(read: (page: string | null) => Promise<PageOf>, idOf: (item: any) => string) {
  const ids: string[] = [];
  const counts = new Set<number>();
  let page: string | null = null;
  let pages = 0;
  do {
    const answer = await read(page);
    ids.push(...answer.items.map(idOf));
    counts.add(answer.count);
    page = answer.next?.page ?? null;
    pages += 1;
    expect(pages).toBeLessThan(100);
  } while (page);
  return { ids, counts: [...counts], pages };
}

/** Reads pages of a GraphQL list field, failing on errors. */
function graphPages(caller: Caller, query: string, field: string, variables: Record<string, unknown>) {
  return async (page: string | null) => {
    const res = await caller.gql(query, { ...variables, page });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data[field] as PageOf;
  };
}

/** Reads pages of a REST list, failing on anything but 200. */
function restPages(caller: Caller, path: string) {
  return async (page: string | null) => {
    const res = await caller.rest('GET', page ? `${path}&page=${encodeURIComponent(page)}` : path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as PageOf;
  };
}

async function expectPagesOf(read: (page: string | null) => Promise<PageOf>, idOf: (item: any) => string, expected: string[], minPages = 2) {
  const { ids, counts, pages } = await pageThrough(read, idOf);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(expected);
  expect(counts).toEqual([expected.length]);
  if (expected.length) expect(pages).toBeGreaterThanOrEqual(minPages);
}

describe('change requests of a space', () => {
  const CHANGE_REQUESTS = `query($space: ID!, $status: ChangeRequestStatus, $contributor: ID, $page: String, $limit: Int) {
    changeRequests(spaceId: $space, status: $status, contributor: $contributor, page: $page, limit: $limit) { items { id number } count next { page } }
  }`;

  it('pages through thousands by status and contributor, newest first, with exact counts; refuses foreign cursors', async () => {
    const { organization, admin, edit, space } = await newOrganizationWithSpace(server);
    const statuses = ['open', 'open', 'draft', 'merged', 'archived'];
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      id: newId(),
      organization_id: organization.id,
      space_id: space.id,
      number: i + 1,
      status: statuses[i % statuses.length],
      subject: `Bulk ${i + 1}`,
      created_by: admin.user.id,
      contributors: i % 3 === 0 ? [admin.user.id, edit.user.id] : [admin.user.id],
      revision: space.revision,
      revision_initial: space.revision,
      created_at: new Date(BASE + i).toISOString(),
      updated_at: new Date(BASE + i).toISOString(),
    }));
    await insertRows(
      'change_request',
      {
        id: 'text',
        organization_id: 'text',
        space_id: 'text',
        number: 'int',
        status: 'text',
        subject: 'text',
        created_by: 'text',
        contributors: 'jsonb',
        revision: 'text',
        revision_initial: 'text',
        created_at: 'timestamptz',
        updated_at: 'timestamptz',
      },
      rows,
    );
    const stored = await selectRows<{ id: string; number: number; status: string; contributors: string[] | string }>(
      'select id, number, status, contributors from change_request where space_id = ?',
      [space.id],
    );
    const contributorsOf = (row: (typeof stored)[number]) =>
      typeof row.contributors === 'string' ? (JSON.parse(row.contributors) as string[]) : row.contributors;
    const expected = (status: string, contributor?: string) =>
      sortedBy(
        stored.filter((c) => c.status === status && (!contributor || contributorsOf(c).includes(contributor))),
        (c) => [c.number],
        true,
      ).map((c) => c.id);

    const idOf = (item: { id: string }) => item.id;
    await expectPagesOf(graphPages(admin, CHANGE_REQUESTS, 'changeRequests', { space: space.id, limit: 170 }), idOf, expected('open'));
    await expectPagesOf(
      graphPages(admin, CHANGE_REQUESTS, 'changeRequests', { space: space.id, status: 'draft', contributor: edit.user.id, limit: 50 }),
      idOf,
      expected('draft', edit.user.id),
    );
    await expectPagesOf(restPages(admin, `/v1/spaces/${space.id}/change-requests?status=merged&limit=300`), idOf, expected('merged'));

    // A page stays put when rows are added before it: the cursor is the last row's key, not an offset.
    const first = await graphPages(admin, CHANGE_REQUESTS, 'changeRequests', { space: space.id, limit: 100 })(null);
    await openChangeRequest(admin, space.id, 'Newest');
    const second = await graphPages(admin, CHANGE_REQUESTS, 'changeRequests', { space: space.id, limit: 100 })(first.next!.page);
    expect((second.items as { id: string }[]).map(idOf)).toEqual(expected('open').slice(100, 200));
    expect(second.count).toBe(expected('open').length + 1);

    const path = `/v1/spaces/${space.id}/change-requests`;
    expectError(await admin.rest('GET', `${path}?page=not-a-cursor`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf(['twelve'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([1.5])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([1e12])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([BASE, 'id'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?limit=0`), 400, 'limit: must be an integer from 1 to 1000');
    expectGqlError(await admin.gql(CHANGE_REQUESTS, { space: space.id, page: cursorOf(['x']) }), 'BAD_REQUEST', BAD_PAGE);
  });
});

describe('comments of a space and of a change request', () => {
  const COMMENTS = `query($space: ID!, $changeRequest: ID, $order: String, $status: String, $authors: [ID!], $page: String, $limit: Int) {
    comments(spaceId: $space, changeRequestId: $changeRequest, order: $order, status: $status, authors: $authors, page: $page, limit: $limit) {
      items { id } count next { page }
    }
  }`;

  it('pages through thousands in both orders and with filters, each discussion apart, with exact counts', async () => {
    const { organization, admin, edit, space } = await newOrganizationWithSpace(server);
    const changeRequest = await openChangeRequest(admin, space.id);
    // Three comments per millisecond: the id breaks the ties.
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: newId(),
      organization_id: organization.id,
      space_id: space.id,
      change_request_id: i % 2 ? changeRequest.id : null,
      posted_by: i % 5 ? admin.user.id : edit.user.id,
      posted_at: new Date(BASE + Math.floor(i / 3)).toISOString(),
      markdown: `Comment ${i}`,
      status: i % 7 ? 'open' : 'resolved',
      revision: i % 2 ? changeRequest.revision : space.revision,
    }));
    await insertRows(
      'comment',
      {
        id: 'text',
        organization_id: 'text',
        space_id: 'text',
        change_request_id: 'text',
        posted_by: 'text',
        posted_at: 'timestamptz',
        markdown: 'text',
        status: 'text',
        revision: 'text',
      },
      rows,
    );
    type Stored = { id: string; change_request_id: string | null; posted_by: string; posted_at: Date | string; status: string };
    const stored = await selectRows<Stored>('select id, change_request_id, posted_by, posted_at, status from comment where space_id = ?', [space.id]);
    const expected = (thread: string | null, { desc = true, status, author }: { desc?: boolean; status?: string; author?: string } = {}) =>
      sortedBy(
        stored.filter((c) => c.change_request_id === thread && (!status || c.status === status) && (!author || c.posted_by === author)),
        (c) => [new Date(c.posted_at).getTime(), c.id],
        desc,
      ).map((c) => c.id);

    const idOf = (item: { id: string }) => item.id;
    const read = (variables: Record<string, unknown>) => graphPages(admin, COMMENTS, 'comments', { space: space.id, ...variables });
    await expectPagesOf(read({ limit: 200 }), idOf, expected(null));
    await expectPagesOf(read({ order: 'asc', limit: 333 }), idOf, expected(null, { desc: false }));
    await expectPagesOf(read({ changeRequest: changeRequest.id, limit: 250 }), idOf, expected(changeRequest.id));
    await expectPagesOf(
      read({ changeRequest: changeRequest.id, status: 'resolved', order: 'asc', limit: 40 }),
      idOf,
      expected(changeRequest.id, { desc: false, status: 'resolved' }),
    );
    await expectPagesOf(read({ status: 'open', authors: [edit.user.id], limit: 60 }), idOf, expected(null, { status: 'open', author: edit.user.id }));
    await expectPagesOf(
      restPages(admin, `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/comments?order=asc&limit=500`),
      idOf,
      expected(changeRequest.id, { desc: false }),
    );

    const path = `/v1/spaces/${space.id}/comments`;
    expectError(await admin.rest('GET', `${path}?page=${encodeURIComponent('%%%')}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf(['yesterday', 'id'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([1e300, 'id'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([BASE, 'a\u0000b'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([5])}`), 400, BAD_PAGE);
    expectGqlError(await admin.gql(COMMENTS, { space: space.id, page: 'x' }), 'BAD_REQUEST', BAD_PAGE);
  });
});

describe('members of an organization and of a team', () => {
  const MEMBERS = `query($org: ID!, $role: String, $search: String, $sort: String, $order: String, $page: String, $limit: Int) {
    members(organizationId: $org, role: $role, search: $search, sort: $sort, order: $order, page: $page, limit: $limit) { items { id } count next { page } }
  }`;
  const TEAM_MEMBERS = `query($org: ID!, $team: ID!, $page: String, $limit: Int) {
    teamMembers(organizationId: $org, teamId: $team, page: $page, limit: $limit) { items { organization { id } } count next { page } }
  }`;

  it('pages through thousands by joinedAt and lastSeenAt, both orders, role and search filters, with exact counts', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    // Members of another organization share the users table and the indexes: they never show.
    const other = await newOrganizationWithRoles(server);
    const roles = [null, 'read', 'edit', 'create', 'review', 'comment'];
    const users = Array.from({ length: 2400 }, (_, i) => ({
      id: newId(),
      email: i % 7 ? `bulk-${newId().toLowerCase()}@example.com` : `needle-${newId().toLowerCase()}@example.com`,
      display_name: i % 10 === 0 ? `ÉMILE Needle ${i}` : i % 10 === 1 ? `émile ${i}` : `Person ${i}`,
      created_at: new Date(BASE).toISOString(),
    }));
    await insertRows('app_user', { id: 'text', email: 'text', display_name: 'text', created_at: 'timestamptz' }, users);
    const memberRows = users.map((user, i) => ({
      organization_id: i % 12 === 11 ? other.organization.id : organization.id,
      user_id: user.id,
      role: roles[i % roles.length],
      // Two members per millisecond, and last seen in a shuffled order with ties; some never seen.
      joined_at: new Date(BASE - 10_000 + Math.floor(i / 2)).toISOString(),
      last_seen_at: i % 5 === 0 ? null : new Date(BASE + ((i * 7919) % 900)).toISOString(),
      disabled: false,
      sso: false,
    }));
    await insertRows(
      'member',
      { organization_id: 'text', user_id: 'text', role: 'text', joined_at: 'timestamptz', last_seen_at: 'timestamptz', disabled: 'boolean', sso: 'boolean' },
      memberRows,
    );
    type Stored = { user_id: string; role: string | null; joined_at: Date | string; last_seen_at: Date | string | null; display_name: string; email: string };
    const stored = await selectRows<Stored>(
      'select m.user_id, m.role, m.joined_at, m.last_seen_at, u.display_name, u.email from member m join app_user u on u.id = m.user_id where m.organization_id = ?',
      [organization.id],
    );
    const time = (value: Date | string | null) => new Date(value!).getTime();
    const expected = ({ sort = 'joinedAt', order = 'desc', role, search }: { sort?: string; order?: string; role?: string; search?: string } = {}) => {
      const needle = search?.toLowerCase();
      const matching = stored.filter(
        (m) =>
          (!role || m.role === (role === 'guest' ? null : role)) &&
          (sort !== 'lastSeenAt' || m.last_seen_at !== null) &&
          (!needle || m.display_name.toLowerCase().includes(needle) || m.email.includes(needle)),
      );
      return sortedBy(matching, (m) => [time(sort === 'lastSeenAt' ? m.last_seen_at : m.joined_at), m.user_id], order === 'desc').map((m) => m.user_id);
    };

    const idOf = (item: { id: string }) => item.id;
    const read = (variables: Record<string, unknown>) => graphPages(admin, MEMBERS, 'members', { org: organization.id, ...variables });
    await expectPagesOf(read({ limit: 300 }), idOf, expected());
    await expectPagesOf(read({ order: 'asc', limit: 1000 }), idOf, expected({ order: 'asc' }));
    await expectPagesOf(read({ sort: 'lastSeenAt', limit: 250 }), idOf, expected({ sort: 'lastSeenAt' }));
    await expectPagesOf(
      read({ sort: 'lastSeenAt', order: 'asc', role: 'edit', limit: 70 }),
      idOf,
      expected({ sort: 'lastSeenAt', order: 'asc', role: 'edit' }),
    );
    await expectPagesOf(read({ role: 'guest', limit: 90 }), idOf, expected({ role: 'guest' }));
    await expectPagesOf(read({ search: 'NEEDLE', limit: 100 }), idOf, expected({ search: 'NEEDLE' }));
    await expectPagesOf(
      read({ search: 'émile', sort: 'lastSeenAt', order: 'asc', limit: 80 }),
      idOf,
      expected({ search: 'émile', sort: 'lastSeenAt', order: 'asc' }),
    );
    await expectPagesOf(restPages(admin, `/v1/orgs/${organization.id}/members?sort=joinedAt&order=asc&limit=400`), idOf, expected({ order: 'asc' }));
    expect(expected({ search: 'émile' }).length).toBe(stored.filter((m) => /émile/i.test(m.display_name)).length);

    const path = `/v1/orgs/${organization.id}/members`;
    expectError(await admin.rest('GET', `${path}?page=bm90IGpzb24`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([null, 'id'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?sort=lastSeenAt&page=${cursorOf([-1e20, 'id'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?page=${cursorOf([BASE])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `${path}?limit=1001`), 400, 'limit: must be an integer from 1 to 1000');
  });

  it('pages through a team of thousands in the order they were added, with exact counts', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Everyone', [read.user.id]);
    const users = Array.from({ length: 1600 }, () => ({
      id: newId(),
      email: `team-${newId().toLowerCase()}@example.com`,
      display_name: 'Teammate',
      created_at: new Date(BASE).toISOString(),
    }));
    await insertRows('app_user', { id: 'text', email: 'text', display_name: 'text', created_at: 'timestamptz' }, users);
    await insertRows(
      'member',
      { organization_id: 'text', user_id: 'text', role: 'text', joined_at: 'timestamptz', disabled: 'boolean', sso: 'boolean' },
      users.map((user) => ({
        organization_id: organization.id,
        user_id: user.id,
        role: 'read',
        joined_at: new Date(BASE).toISOString(),
        disabled: false,
        sso: false,
      })),
    );
    await insertRows(
      'team_member',
      { team_id: 'text', user_id: 'text', organization_id: 'text', role: 'text', added_at: 'timestamptz' },
      users.map((user, i) => ({
        team_id: team.id,
        user_id: user.id,
        organization_id: organization.id,
        role: i % 9 ? 'member' : 'owner',
        added_at: new Date(BASE - 5_000 + Math.floor(i / 4)).toISOString(),
      })),
    );
    // Another team of the organization, with some of the same people.
    const otherTeam = await createTeam(
      admin,
      organization.id,
      'Some',
      users.slice(0, 10).map((u) => u.id),
    );
    const stored = await selectRows<{ user_id: string; added_at: Date | string }>('select user_id, added_at from team_member where team_id = ?', [team.id]);
    const expected = sortedBy(stored, (m) => [new Date(m.added_at).getTime(), m.user_id]).map((m) => m.user_id);
    expect(expected).toHaveLength(1601);

    const idOf = (item: { organization: { id: string } }) => item.organization.id;
    await expectPagesOf(graphPages(admin, TEAM_MEMBERS, 'teamMembers', { org: organization.id, team: team.id, limit: 150 }), idOf, expected);
    await expectPagesOf(restPages(admin, `/v1/orgs/${organization.id}/teams/${team.id}/members?limit=1000`), idOf, expected);
    const few = await graphPages(admin, TEAM_MEMBERS, 'teamMembers', { org: organization.id, team: otherTeam.id, limit: 1000 })(null);
    expect(few.count).toBe(10);

    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/teams/${team.id}/members?page=${cursorOf([BASE, 5, 'x'])}`), 400, BAD_PAGE);
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/teams/${team.id}/members?page=${cursorOf([BASE])}`), 400, BAD_PAGE);
  });
});
