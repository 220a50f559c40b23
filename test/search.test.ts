/**
 * Organization search (contract §4.10) through both doors on the real database: ranking, grouping
 * into spaces → pages → sections, the index following merges, pagination, permission filtering, and
 * the errors (401, 404 across organizations, 400 naming `query`). At scale: a word common to
 * thousands of sections (inserted in SQL) is ranked within a bounded candidate set whose first page
 * is the best-ranked of all, and a search whose index is current reads no space to check it.
 */
import { describe, expect, it } from 'vitest';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createPage, createSpace, merge, openChangeRequest } from './support/content.js';
import { useTestServer } from './support/server.js';
import { rest } from './support/factories.js';
import { countStatements } from './support/sql.js';
import { readRows } from '../src/db/statements.js';
import sql from 'sql-template-tag';
import { MAX_SEARCH_SECTIONS, rankingStatementOf, SEARCH_CANDIDATES } from '../src/domain/search/index.js';

const server = useTestServer();

/** A space whose main content holds the pages, each `{title, markdown}`. */
async function spaceWith(
  caller: Caller,
  organizationId: string,
  title: string,
  pages: { title: string; markdown: string }[],
  body: Record<string, unknown> = {},
) {
  const space = await createSpace(caller, organizationId, { title, ...body });
  const cr = await openChangeRequest(caller, space.id);
  for (const page of pages) await createPage(caller, space.id, cr.id, page);
  expect((await merge(caller, space.id, cr.id)).status).toBe(200);
  return space;
}

const search = (caller: Caller, organizationId: string, query: string, extra = '') =>
  caller.rest('GET', `/v1/orgs/${organizationId}/search?query=${encodeURIComponent(query)}${extra}`);

describe('organization search', () => {
  it('ranks spaces, pages and sections, with app URLs, in the reference shape', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const guides = await spaceWith(admin, organization.id, 'Guides', [
      {
        title: 'Installing',
        markdown:
          'How to install the server.\n\n## Upgrading\n\nUpgrade the servers one by one; install the new server version.\n\n## Backups\n\nNothing about it here.',
      },
      { title: 'Unrelated', markdown: 'Bananas and apples.' },
    ]);
    const other = await spaceWith(admin, organization.id, 'Notes', [{ title: 'Misc', markdown: 'Once we mentioned a server.' }]);
    const res = await search(admin, organization.id, 'install server');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('searchOrganizationContent', res);
    expect(res.body.count).toBe(1);
    const [space] = res.body.items;
    expect(space).toMatchObject({ id: guides.id, title: 'Guides' });
    expect(space.pages).toHaveLength(1);
    expect(space.pages[0]).toMatchObject({
      title: 'Installing',
      path: 'installing',
      urls: { app: expect.stringMatching(new RegExp(`/s/${guides.id}/installing$`)) },
    });
    expect(space.pages[0].sections.map((s: { title: string }) => s.title).sort()).toEqual(['Installing', 'Upgrading']);
    const upgrading = space.pages[0].sections.find((s: { title: string }) => s.title === 'Upgrading');
    expect(upgrading).toMatchObject({
      path: 'installing#upgrading',
      body: expect.stringContaining('Upgrade the servers'),
      urls: { app: expect.stringMatching(/\/installing#upgrading$/) },
    });

    // A word in both spaces: the space whose page names it in its title ranks first.
    const both = await search(admin, organization.id, 'server');
    expect(both.body.items.map((s: { id: string }) => s.id)).toEqual([guides.id, other.id]);
    const paged = await search(admin, organization.id, 'server', '&limit=1');
    expect(paged.body).toMatchObject({ count: 2, items: [{ id: guides.id }], next: { page: expect.any(String) } });
    const second = await search(admin, organization.id, 'server', `&limit=1&page=${paged.body.next.page}`);
    expect(second.body).toMatchObject({ items: [{ id: other.id }] });
    expect(second.body.next).toBeUndefined();

    const gql = await admin.gql(
      `query($o: ID!) { searchOrganizationContent(organizationId: $o, query: "bananas") { count items { space { id } pages { title } } } }`,
      { o: organization.id },
    );
    expect(gql.data.searchOrganizationContent).toEqual({ count: 1, items: [{ space: { id: guides.id }, pages: [{ title: 'Unrelated' }] }] });
  });

  it('follows the main content as change requests merge', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await spaceWith(admin, organization.id, 'Moving', [{ title: 'First', markdown: 'zeppelin' }]);
    expect((await search(admin, organization.id, 'zeppelin')).body.count).toBe(1);
    const cr = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, cr.id, { title: 'Second', markdown: 'A quokka appears.' });
    // Not merged yet: change requests are not searched.
    expect((await search(admin, organization.id, 'quokka')).body.count).toBe(0);
    await merge(admin, space.id, cr.id);
    const found = await search(admin, organization.id, 'quokka');
    expect(found.body.items[0].pages.map((p: { title: string }) => p.title)).toEqual(['Second']);
  });

  it('never shows a page of a space the caller cannot read', async () => {
    const { organization, admin, read, guest } = await newOrganizationWithRoles(server);
    const open = await spaceWith(admin, organization.id, 'Open', [{ title: 'Public plan', markdown: 'The secret word is platypus.' }]);
    const hidden = await spaceWith(admin, organization.id, 'Hidden', [{ title: 'Private plan', markdown: 'Platypus strategy for admins.' }]);
    expect((await admin.rest('PATCH', `/v1/spaces/${hidden.id}`, { defaultLevel: null })).status).toBe(200);
    const forAdmin = await search(admin, organization.id, 'platypus');
    expect(forAdmin.body.items.map((s: { id: string }) => s.id).sort()).toEqual([open.id, hidden.id].sort());
    const forReader = await search(read, organization.id, 'platypus');
    expect(forReader.body).toMatchObject({ count: 1, items: [{ id: open.id }] });
    expect(JSON.stringify(forReader.body)).not.toContain('Private plan');
    // A guest reads nothing without grants.
    expect((await search(guest, organization.id, 'platypus')).body).toMatchObject({ count: 0, items: [] });
  });

  it('refuses bad input and callers outside the organization', async () => {
    const { organization, admin, outsider } = await newOrganizationWithRoles(server);
    expectError(await rest(server, null, 'GET', `/v1/orgs/${organization.id}/search?query=x`), 401, /Authentication required/);
    expectError(await search(outsider, organization.id, 'x'), 404, /not found/);
    expectError(await search(admin, 'nope', 'x'), 404, /not found/);
    expectError(await search(admin, organization.id, 'x'.repeat(513)), 400, /^query: must be at most 512 characters/);
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/search`), 400, /query/);
    expectError(await search(admin, organization.id, 'x', '&limit=0'), 400, /^limit/);
    expectGqlError(
      await admin.gql(`query($o: ID!) { searchOrganizationContent(organizationId: $o, query: "") { count } }`, { o: organization.id }),
      'BAD_REQUEST',
      /^query: /,
    );
    expectError(await search(admin, organization.id, 'x', '&page=bm90IGEgY3Vyc29y'), 400, /^page: /);
  });
});

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
};

/** Rows of `search_section` a plan read from the table (index entries of a bitmap not counted: it lists matches, compressed). */
function sectionRowsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'search_section' && ['Seq Scan', 'Bitmap Heap Scan', 'Index Scan'].includes(node['Node Type'])
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + sectionRowsRead(child), 0);
}

describe('organization search at scale', () => {
  it('ranks a word common to thousands of sections within a bounded candidate set, the first page as a full ranking gives it', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const spaces: string[] = [];
    for (let i = 0; i < 12; i++) spaces.push((await createSpace(admin, organization.id, { title: `Space ${i}` })).id);
    // 20,000 sections: most name "falcon" one to four times in their body, one in 211 in its heading.
    const SECTIONS = 20_000;
    await server
      .em()
      .getConnection()
      .execute(
        `insert into search_section (id, organization_id, space_id, page, position, anchor, page_title, page_path, page_description, page_ancestors, title, body)
       select 'bulk-' || g, ?, (?::jsonb ->> (g % 12)), 'p' || g, 0, 'a' || g, 'Page ' || g, 'page-' || g, '', '[]',
         case when g % 211 = 0 then 'Falcon care ' || g else 'Section ' || g end,
         case when g % 7 = 0 then 'Quiet text ' || g else repeat('The falcon flies high. ', 1 + g % 4) || g end
       from generate_series(1, ${SECTIONS}) g`,
        [organization.id, JSON.stringify(spaces)],
      );
    // The answer as ranking every match gives it: the best 1000 sections, spaces by their best section.
    const [reference] = await readRows<{ matches: number; spaces: { space: string; best: string }[] }>(
      server.em(),
      sql`with q as (select websearch_to_tsquery('english', 'falcon') as query),
         ranked as (select s.id, s.space_id, s.page, s.anchor, ts_rank(s.document, q.query) as rank from search_section s, q
                    where s.organization_id = ${organization.id} and s.document @@ q.query order by rank desc, s.id limit ${MAX_SEARCH_SECTIONS}),
         best as (select distinct on (space_id) space_id, page || '#' || anchor as section, rank from ranked order by space_id, rank desc, id)
       select (select count(*) from search_section s, q where s.organization_id = ${organization.id} and s.document @@ q.query)::int as matches,
         (select json_agg(json_build_object('space', space_id, 'best', section) order by rank desc, space_id collate "C" desc) from best) as spaces`,
    );
    expect(reference.matches).toBeGreaterThan(8 * SEARCH_CANDIDATES);
    for (const caller of [admin, read]) {
      const first = await search(caller, organization.id, 'falcon', '&limit=5');
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.count).toBe(12);
      const answered = first.body.items.map((item: { id: string; pages: { sections: { id: string }[] }[] }) => ({
        space: item.id,
        best: item.pages[0].sections[0].id,
      }));
      expect(answered).toEqual(reference.spaces.slice(0, 5));
      const second = await search(caller, organization.id, 'falcon', `&limit=5&page=${first.body.next.page}`);
      expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(reference.spaces.slice(5, 10).map((s) => s.space));
    }
    // The statement reads the candidates, not every match.
    const statement = rankingStatementOf({ organizationId: organization.id, query: 'falcon', readable: null }, null, 6);
    const [{ 'QUERY PLAN': plan }] = (await readRows<{ 'QUERY PLAN': unknown }>(server.em(), sql`explain (analyze, format json) ${statement}`)) as [
      { 'QUERY PLAN': unknown },
    ];
    const [{ Plan: root }] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: PlanNode }];
    const rowsRead = sectionRowsRead(root);
    expect(rowsRead).toBeGreaterThan(0);
    expect(rowsRead).toBeLessThan(2.5 * SEARCH_CANDIDATES);
    expect(rowsRead).toBeLessThan(reference.matches / 3);
  });

  it('checks the index is current without reading the spaces, and rebuilds only a space whose content moved', async () => {
    const statementsOf = async (caller: Caller, organizationId: string, query: string) => {
      let res: Awaited<ReturnType<typeof search>> | undefined;
      const count = await countStatements(async () => void (res = await search(caller, organizationId, query)));
      expect(res!.status).toBe(200);
      return { count, body: res!.body };
    };
    const counts: number[] = [];
    let last: { organization: { id: string }; admin: Caller; space: { id: string } } | undefined;
    for (const size of [2, 8]) {
      const { organization, admin } = await newOrganizationWithRoles(server);
      let space: { id: string } | undefined;
      for (let i = 0; i < size; i++) space = await spaceWith(admin, organization.id, `Space ${i}`, [{ title: `Page ${i}`, markdown: 'A heron stands still.' }]);
      // The first search rebuilds what the merges marked stale (the jobs have not run).
      expect((await statementsOf(admin, organization.id, 'heron')).body.count).toBe(size);
      const again = await statementsOf(admin, organization.id, 'heron');
      expect(again.body.count).toBe(size);
      counts.push(again.count);
      last = { organization, admin, space: space! };
    }
    expect(counts[1]).toBe(counts[0]);

    // A merge marks its space stale: the next search rebuilds that space alone, then nothing again.
    const { organization, admin, space } = last!;
    const cr = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, cr.id, { title: 'Egrets', markdown: 'An egret takes off.' });
    await merge(admin, space.id, cr.id);
    const rebuilt = await statementsOf(admin, organization.id, 'egret');
    expect(rebuilt.body.items.map((s: { id: string }) => s.id)).toEqual([space.id]);
    expect(rebuilt.count).toBeGreaterThan(counts[0]);
    expect((await statementsOf(admin, organization.id, 'egret')).count).toBe(counts[0]);

    // With the change, a job rebuilds the space before any search does.
    const next = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, next.id, { title: 'Storks', markdown: 'A stork nests.' });
    await merge(admin, space.id, next.id);
    expect(await server.runDueJobs()).toBeGreaterThanOrEqual(1);
    const found = await statementsOf(admin, organization.id, 'stork');
    expect(found.count).toBe(counts[0]);
    expect(found.body.items.map((s: { id: string }) => s.id)).toEqual([space.id]);
  });
});
