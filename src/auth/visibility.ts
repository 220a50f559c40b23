import sql, { raw, type Sql } from 'sql-template-tag';
import type { ContentReach } from './policy.js';

/**
 * The condition that selects the collections or spaces (table alias `alias`) a user may see: the
 * policy's rules (Policy.contentReach) over the columns the database keeps for them (`access_level`,
 * `ancestors`, Migration20261124120000). An item is visible in an organization the user administers;
 * when the default-level chain opens it to a non-guest member (`access_level` other than `none`); or
 * when a grant to the user or one of their teams names it or a collection above it.
 */
export function visibleContent(reach: ContentReach, kind: 'space' | 'collection', alias: string): Sql {
  const row = raw(alias);
  const named = kind === 'space' ? reach.spaces : reach.collections;
  return sql`(${row}.organization_id = any(${reach.everything}::text[])
    or (${row}.organization_id = any(${reach.byDefault}::text[]) and ${row}.access_level <> 'none')
    or ${row}.id = any(${named}::text[]) or ${row}.ancestors && ${reach.collections}::text[])`;
}
