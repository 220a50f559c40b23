import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw } from 'sql-template-tag';
import { jsonTupleOf, plainColumns, readCurrentRows, rowsOf, tableOf } from '../db/statements.js';
import { noteReadPosition, readPositionColumn } from '../db/read-routing.js';
import { unauthenticated } from '../kernel/errors.js';
import type { Rows } from '../kernel/rows.js';
import type { Viewer } from '../kernel/viewer.js';
import { bearerSecret, hashTokenSecret } from './tokens.js';

/**
 * How many of the user's memberships the token's statement brings along: most requests judge the
 * viewer's role in an organization, and most users belong to a few; a membership not among them is
 * read when asked, as without them.
 */
const MEMBERSHIPS_WITH_TOKEN = 20;

// The users area's entities, by name: the token lookup runs below the areas.
const [USER, MEMBER, API_TOKEN] = ['User', 'Member', 'ApiToken'];

/**
 * Resolves the Authorization header to a viewer. No header → null (public fields only);
 * a malformed, unknown or revoked token → 401.
 */
export async function authenticate(em: EntityManager, authorization: string | undefined): Promise<Viewer | null> {
  const secret = bearerSecret(authorization);
  if (secret === null) return null;
  if (secret === undefined) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
  // One statement: every request pays for this one.
  const memberships = sql`(select coalesce(json_agg(${jsonTupleOf(em, MEMBER, 'm')}), '[]') from (select * from ${tableOf(em, MEMBER)} m
    where m.user_id = u.id limit ${raw(String(MEMBERSHIPS_WITH_TOKEN))}) m) as "memberships"`;
  // With replicas, the user's last write position comes along (read-routing.ts). Always on the
  // primary: a revoked token is refused on the very next request.
  const statement = sql`select t.id as "tokenId", ${plainColumns(em, USER, 'u')}, ${memberships}${readPositionColumn(em)}
    from ${tableOf(em, API_TOKEN)} t join ${tableOf(em, USER)} u on u.id = t.user_id where t.secret_hash = ${hashTokenSecret(secret)} and t.revoked_at is null`;
  const [row] = await readCurrentRows<Rows['User'] & { tokenId: string; memberships: unknown[][]; readPosition?: string | null }>(em, statement);
  if (!row) throw unauthenticated('Invalid or revoked API token');
  const { tokenId, memberships: tuples, readPosition, ...user } = row;
  noteReadPosition(em, readPosition);
  return { user, tokenId, memberships: rowsOf<Rows['Member']>(em, MEMBER, tuples) };
}
