import sql from 'sql-template-tag';
import { columnOf, readRows, tableOf } from '../../db/statements.js';
import type { Context } from '../../kernel/context.js';
import type { UserRow } from '../users/index.js';
import { Revision } from '../content/index.js';
import { changeRequestIn } from './service.js';

/** A user who edited a change request: how many of its revisions they made, and when the last. */
export type ChangeRequestContributor = { user: UserRow; count: number; updatedAt: Date; actionType: 'edit' };

/**
 * The change request's contributors as it keeps them (its creator first, then each user at their first
 * edit: what `changeRequests(contributor:)` filters on), each with the number of edits they made in it
 * (revisions of type `edits`; updates from the main content and the merge are not edits) and the time
 * of the last one, or the change request's creation for a creator who has not edited it yet. One
 * statement groups the change request's revisions by author, through the index on their change request.
 */
export async function listContributors(ctx: Context, spaceId: string, changeRequestId: string) {
  const changeRequest = await changeRequestIn(ctx, spaceId, changeRequestId);
  const column = (property: string) => columnOf(ctx.em, Revision, property);
  const rows = await readRows<{ user: string; count: string | number; last: Date | string }>(
    ctx.em,
    sql`select r.${column('createdBy')} as "user", count(*) as "count", max(r.${column('createdAt')}) as "last"
      from ${tableOf(ctx.em, Revision)} r
      where r.${column('changeRequest')} = ${changeRequest.id} and r.${column('type')} = 'edits' and r.${column('createdBy')} = any(${changeRequest.contributors}::text[])
      group by 1`,
  );
  const edits = new Map(rows.map((row) => [row.user, { count: Number(row.count), last: new Date(row.last) }]));
  const users = await ctx.loaders.user.loadMany(changeRequest.contributors);
  const items = changeRequest.contributors.flatMap((id, i): ChangeRequestContributor[] => {
    const user = users[i];
    if (!user || user instanceof Error) return [];
    const edited = edits.get(id);
    return [{ user, count: edited?.count ?? 0, updatedAt: edited?.last ?? changeRequest.createdAt, actionType: 'edit' }];
  });
  return { items, count: items.length };
}
