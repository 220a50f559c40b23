import sql, { empty, join, type Sql } from 'sql-template-tag';
import { z } from 'zod';
import { visibleContent } from '../../auth/visibility.js';
import { readPage, type SortKey } from '../../db/pages.js';
import type { Context } from '../../kernel/context.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput } from '../../kernel/validation.js';
import { ChangeRequest, type ChangeRequestRow } from './entities.js';
import { STATUSES } from './service.js';

const OrganizationFilter = z.object({
  status: z.array(oneOf(STATUSES)).min(1).max(STATUSES.length).optional().nullable(),
  creator: z.string().min(1).optional().nullable(),
  contributor: z.string().min(1).optional().nullable(),
  space: z.string().min(1).optional().nullable(),
  site: z.string().min(1).optional().nullable(),
  requestedReviewer: z.string().min(1).optional().nullable(),
  topic: z.string().min(1).optional().nullable(),
  styleguideRun: z.string().min(1).optional().nullable(),
  orderBy: oneOf(['updatedAt', 'createdAt']).optional().nullable(),
});

/** Newest first by the chosen time, then by id (the index on the organization, that time and id). */
const newestBy = (column: 'updated_at' | 'created_at'): SortKey<ChangeRequestRow>[] => [
  { sql: `c.${column}`, desc: true, time: true, of: (c) => (column === 'updated_at' ? c.updatedAt : c.createdAt) },
  { sql: 'c.id', desc: true, of: (c) => c.id },
];

/**
 * The change requests of the organization's spaces that the viewer can read (live spaces only), in the
 * statuses asked (open by default), newest first by `orderBy` (updatedAt by default); one page read in
 * SQL. Reviewers, topics and style guide runs are not kept here, so asking for one finds none.
 */
export async function listOrganizationChangeRequests(ctx: Context, organizationId: string, filter: Record<string, unknown>, args: PageArgs) {
  const f = parseInput(OrganizationFilter, filter);
  const reach = await ctx.policy.contentReach([organizationId]);
  const readable = reach.everything.includes(organizationId) ? sql`true` : visibleContent(reach, 'space', 'sp');
  const conditions: Sql[] = [
    sql`c.organization_id = ${organizationId}`,
    sql`c.status = any(${f.status ?? ['open']}::text[])`,
    sql`exists(select 1 from space sp where sp.id = c.space_id and sp.deleted_at is null and ${readable})`,
    f.creator ? sql`c.created_by = ${f.creator}` : empty,
    f.contributor ? sql`c.contributors @> jsonb_build_array(${f.contributor}::text)` : empty,
    f.space ? sql`c.space_id = ${f.space}` : empty,
    f.site ? sql`c.space_id in (select ss.space_id from site_space ss where ss.site_id = ${f.site})` : empty,
    f.requestedReviewer || f.topic || f.styleguideRun ? sql`false` : empty,
  ].filter((condition) => condition !== empty);
  const order = newestBy(f.orderBy === 'createdAt' ? 'created_at' : 'updated_at');
  return readPage(ctx.em, { entity: ChangeRequest, alias: 'c', where: join(conditions, ' and '), order }, args);
}
