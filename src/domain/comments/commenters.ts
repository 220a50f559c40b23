import sql from 'sql-template-tag';
import { readPage, type SortKey } from '../../db/pages.js';
import type { Context } from '../../kernel/context.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { Member, type MemberRow } from '../organizations/index.js';
import { threadIn } from './threads.js';

/** Oldest membership first, as the lists of members' roles on content. */
const byMembership: SortKey<MemberRow>[] = [
  { sql: 'm.joined_at', time: true, of: (row) => row.joinedAt },
  { sql: 'm.user_id', of: (row) => row.user },
];

/**
 * The members of the space's organization who posted at least one comment in a discussion: the space's
 * own (no `changeRequestId`) or one of its change requests' (404 for another space's). Replies do not
 * count: these are the authors the comment list's `authors` filter selects by. Members who left the
 * organization are not listed (they have no membership to answer); disabled ones are. One page read in
 * SQL, through the discussion's comments and the organization's members by join time.
 */
export async function listCommenters(ctx: Context, spaceId: string, changeRequestId: string | null | undefined, args: PageArgs) {
  const { space, changeRequest } = await threadIn(ctx, spaceId, changeRequestId);
  const comments = changeRequest
    ? sql`select c.posted_by from comment c where c.change_request_id = ${changeRequest.id}`
    : sql`select c.posted_by from comment c where c.space_id = ${space.id} and c.change_request_id is null`;
  const where = sql`m.organization_id = ${space.organization} and m.user_id in (${comments})`;
  return readPage(ctx.em, { entity: Member, alias: 'm', where, order: byMembership }, args);
}
