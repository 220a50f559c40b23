import sql, { raw, type Sql } from 'sql-template-tag';

/**
 * The lists whose sizes the database keeps in `row_count` (Migration20261216090000) per parent and
 * bucket, so that their exact counts cost an index lookup, not a scan of the parent's rows:
 * - `spaces_of_organization`, `spaces_of_collection`: live spaces, by access level;
 * - `collections_of_organization`, `collections_of_parent` (a collection's id, or `top:` and the
 *   organization's id for the top level): collections, by access level;
 * - `change_requests_of_space`, by status; `comments_of_thread` (a change request's id, or `space:` and
 *   the space's id for the space's own comments), by status;
 * - `sections_of_site`, `site_spaces_of_site`: one bucket (`''`);
 * - `members_of_organization`, by role (`''` for guests) with `:seen` appended once the member was seen.
 */
export type Counter =
  | 'spaces_of_organization'
  | 'spaces_of_collection'
  | 'collections_of_organization'
  | 'collections_of_parent'
  | 'change_requests_of_space'
  | 'comments_of_thread'
  | 'sections_of_site'
  | 'site_spaces_of_site'
  | 'members_of_organization';

/**
 * The kept size of one parent's list (an SQL expression): the sum over the buckets that `buckets`
 * selects, a condition on `kept.bucket`. `parent` is a value, or an SQL expression (`raw`) of the
 * enclosing statement.
 */
export function keptCount(counter: Counter, parent: string | Sql, buckets: Sql = sql`true`): Sql {
  return sql`(select coalesce(sum(kept.n), 0) from row_count kept where kept.counter = ${counter} and kept.parent_id = ${parent} and ${buckets})`;
}

/** The statement of `readPage`'s `count` from a kept size. */
export const countStatement = (counter: Counter, parent: string, buckets?: Sql): Sql => sql`select ${keptCount(counter, parent, buckets)} as count`;

/** The statement of `readPages`' `counts`: one kept size per key, the parent being the key itself. */
export const countsStatement = (counter: Counter, keys: readonly string[], buckets?: Sql): Sql =>
  sql`select k.key as "key", ${keptCount(counter, raw('k.key'), buckets)} as count from unnest(${keys}::text[]) as k(key)`;
