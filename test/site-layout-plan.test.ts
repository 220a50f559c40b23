import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { seedSiteTree, SITE_TREE_QUERY } from '../scripts/site-tree.js';
import { commentsPath, postComment } from './support/comments.js';
import { openChangeRequest } from './support/content.js';
import { newOrganization, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { statementsWithValuesDuring } from './support/sql.js';

/*
 * The site structure statement (top-level sections and groups, their site spaces, spaces and counts) must reach only
 * the site's own rows through indexes, so that a site's tree costs the same whatever other tenants
 * hold. Other organizations are filled in bulk with SQL; the plan of the exact statement the server
 * sent is then read with EXPLAIN, as planned for these values and as a generic plan (what a server
 * connection may settle on for its named statement).
 */

const server = useTestServer();

/** Tables of other tenants that the statement must never scan whole. */
const GUARDED = ['space', 'change_request', 'comment', 'site_space', 'site_section', 'site_section_group'];

/**
 * Fills the organizations with spaces, change requests, comments and sites of sections, groups and
 * site spaces, in bulk. Every id starts with `bulk-` so that nothing collides with the API's ids.
 */
async function fillOtherTenants(em: EntityManager, organizationIds: string[], spaces: number) {
  const org = (n: string) => `(array['${organizationIds.join("','")}'])[1 + ${n} % ${organizationIds.length}]`;
  const sites = Math.max(1, Math.floor(spaces / 100));
  const statements = [
    `insert into space (id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level, position, revision, created_at, updated_at, deleted_at)
      select 'bulk-space-' || g, ${org('g')}, null, 'Bulk ' || g, null, 'private', 'live', 'inherit', 'a' || lpad(g::text, 7, '0'), 'bulk', now(), now(), null
      from generate_series(1, ${spaces}) g`,
    // Two change requests per space, in every status.
    `insert into change_request (id, organization_id, space_id, number, status, subject, created_by, contributors, revision, revision_initial, created_at, updated_at)
      select 'bulk-cr-' || g, ${org('(g % ' + spaces + ' + 1)')}, 'bulk-space-' || (g % ${spaces} + 1), g, (array['open', 'draft', 'merged', 'archived'])[1 + g % 4],
        'Bulk', 'bulk', '[]', 'bulk', 'bulk', now(), now()
      from generate_series(1, ${spaces * 2}) g`,
    // Two comments per space, open and resolved, some on change requests.
    `insert into comment (id, organization_id, space_id, change_request_id, posted_by, posted_at, markdown, status, revision)
      select 'bulk-comment-' || g, ${org('(g % ' + spaces + ' + 1)')}, 'bulk-space-' || (g % ${spaces} + 1),
        case when g % 3 = 0 then 'bulk-cr-' || g else null end, 'bulk', now(), 'Bulk', (array['open', 'resolved'])[1 + g % 2], 'bulk'
      from generate_series(1, ${spaces * 2}) g`,
    `insert into site (id, organization_id, type, title, visibility, published, adaptive_content_enabled, agents_context, created_at, updated_at)
      select 'bulk-site-' || g, ${org('g')}, 'basic', 'Bulk', 'public', true, false, 'included', now(), now()
      from generate_series(1, ${sites}) g`,
    `insert into site_section_group (id, organization_id, site_id, title, position, created_at)
      select 'bulk-group-' || g, ${org('(g % ' + sites + ' + 1)')}, 'bulk-site-' || (g % ${sites} + 1), 'Bulk', 'a' || lpad(g::text, 7, '0'), now()
      from generate_series(1, ${sites * 2}) g`,
    `insert into site_section (id, organization_id, site_id, section_group_id, title, path, position, created_at)
      select 'bulk-section-' || g, ${org('(g % ' + sites + ' + 1)')}, 'bulk-site-' || (g % ${sites} + 1), null, 'Bulk', 'p' || g, 'a' || lpad(g::text, 7, '0'), now()
      from generate_series(1, ${sites * 10}) g`,
    // Each space published once, in a section of its site.
    `insert into site_space (id, organization_id, site_id, section_id, space_id, path, position, created_at)
      select 'bulk-ss-' || g, ${org('((g % ' + sites * 10 + ' + 1) % ' + sites + ' + 1)')}, 'bulk-site-' || ((g % ${sites * 10} + 1) % ${sites} + 1),
        'bulk-section-' || (g % ${sites * 10} + 1), 'bulk-space-' || g, 'p' || g, 'a' || lpad(g::text, 7, '0'), now()
      from generate_series(1, ${spaces}) g`,
  ];
  for (const statement of statements) await em.execute(statement);
  // The planner must see the sizes, as autovacuum's analyze would soon tell it.
  await em.execute(`analyze ${GUARDED.join(', ')}`);
}

/** Runs `work` and returns the statements the server sent meanwhile that read a site's layout, with their parameters. */
async function layoutStatementsOf(work: () => Promise<unknown>): Promise<{ text: string; values: readonly unknown[] }[]> {
  // The structure statement (sites/published/structure.ts), with everything the tree nests under its items.
  return (await statementsWithValuesDuring(work)).filter((statement) => statement.text.includes('as "topLevel"'));
}

/** A parameter as an SQL literal (the statement's are texts, nulls and arrays of ids). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `'{${value.map((item) => String(item as string)).join(',')}}'`;
  return `'${(value as string).replaceAll("'", "''")}'`;
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

/** The relations a plan reads with a sequential scan. */
function sequentialScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(sequentialScans)];
}

/** EXPLAIN of the statement for its parameters: the plan made for the values, and the generic plan. */
async function plansOf(statement: { text: string; values: readonly unknown[] }): Promise<{ custom: PlanNode; generic: PlanNode }> {
  return server.em().transactional(async (tx) => {
    await tx.execute(`prepare site_layout_plan as ${statement.text}`);
    try {
      const explain = async (mode: string) => {
        await tx.execute(`set local plan_cache_mode = ${mode}`);
        const [row] = await tx.execute(`explain (format json) execute site_layout_plan(${statement.values.map(literal).join(', ')})`);
        const value = Object.values(row as Record<string, unknown>)[0];
        const [plan] = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[];
        return plan.Plan;
      };
      return { custom: await explain('force_custom_plan'), generic: await explain('force_generic_plan') };
    } finally {
      await tx.execute('deallocate site_layout_plan');
    }
  });
}

describe('the site structure statement', () => {
  // Filling the other tenants in bulk takes 7-25 s on the embedded database of a busy 2-core machine.
  it("reads only the site's own rows through indexes, whatever other organizations hold", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const siteId = await seedSiteTree(server.em(), organization.id, 10, 3, 2, server.clock.now());
    // Counts the tree shows: open change requests and open comments of a few of the site's spaces.
    const tree = (await admin.gql(SITE_TREE_QUERY, { id: siteId })).data;
    const published: string[] = tree.site.structure.structure.flatMap((item: any) =>
      (item.sections ?? [item]).flatMap((section: any) => section.siteSpaces.map((ss: any) => ss.space.id)),
    );
    await openChangeRequest(admin, published[0]);
    await openChangeRequest(admin, published[1]);
    await postComment(admin, commentsPath(published[0]), 'Open');
    await postComment(admin, commentsPath(published[2]), 'Also open');

    const reads = async (caller: Caller) => ({
      tree: (await caller.gql(SITE_TREE_QUERY, { id: siteId })).data,
      sections: (await caller.rest('GET', `/v1/orgs/${organization.id}/sites/${siteId}/sections?limit=5`)).body,
      siteSpaces: (await caller.rest('GET', `/v1/orgs/${organization.id}/sites/${siteId}/site-spaces?limit=7`)).body,
    });
    const before = await reads(admin);
    expect(before.tree.site.structure.structure.length).toBeGreaterThan(0);
    expect(before.sections.items).toHaveLength(5);
    expect(before.siteSpaces.items).toHaveLength(7);

    const stranger = await newUser(server);
    const others = await Promise.all([1, 2, 3].map((n) => newOrganization(server, stranger, { title: `Other ${n}` })));
    await fillOtherTenants(
      server.em(),
      others.map((o) => o.id),
      20_000,
    );

    let after: Awaited<ReturnType<typeof reads>> | undefined;
    const statements = await layoutStatementsOf(async () => void (after = await reads(admin)));
    expect(after).toEqual(before);
    // The tree reads its structure with the one statement; pages of the lists read only their own rows.
    expect(statements).toHaveLength(1);

    const { custom, generic } = await plansOf(statements[0]);
    const guarded = (plan: PlanNode) => sequentialScans(plan).filter((relation) => GUARDED.includes(relation));
    expect(guarded(custom), JSON.stringify(custom)).toEqual([]);
    expect(guarded(generic), JSON.stringify(generic)).toEqual([]);
  }, 90_000);
});
