import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiToken, User, type UserRow } from '../domain/users/index.js';
import { Member, type MemberRow } from '../domain/organizations/index.js';
import { jsonTupleOf, plainColumns, readRows, rowsOf, tableOf, type Plain } from '../db/statements.js';
import { unauthenticated } from '../kernel/errors.js';
import { bearerSecret, hashTokenSecret } from './tokens.js';

/**
 * Who is calling: the user behind the API token of the request, and the memberships read with the
 * token (some of them when the user belongs to many organizations), which the request's loaders start with.
 */
export type Viewer = { user: UserRow; tokenId: string; memberships?: readonly Plain<MemberRow>[] };

/**
 * How many of the user's memberships the token's statement brings along: most requests judge the
 * viewer's role in an organization, and most users belong to a few; a membership not among them is
 * read when asked, as without them.
 */
const MEMBERSHIPS_WITH_TOKEN = 20;

/**
 * Resolves the Authorization header to a viewer. No header → null (public fields only);
 * a malformed, unknown or revoked token → 401.
 */
export async function authenticate(em: EntityManager, authorization: string | undefined): Promise<Viewer | null> {
  const secret = bearerSecret(authorization);
  if (secret === null) return null;
  if (secret === undefined) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
  // One statement: every request pays for this one.
  const memberships = `(select coalesce(json_agg(${jsonTupleOf(em, Member, 'm')}), '[]') from (select * from ${tableOf(em, Member)} m
    where m.user_id = u.id limit ${MEMBERSHIPS_WITH_TOKEN}) m) as "memberships"`;
  const sql = `select t.id as "tokenId", ${plainColumns(em, User, 'u')}, ${memberships}
    from ${tableOf(em, ApiToken)} t join ${tableOf(em, User)} u on u.id = t.user_id where t.secret_hash = $1 and t.revoked_at is null`;
  const [row] = await readRows<Plain<UserRow> & { tokenId: string; memberships: unknown[][] }>(em, sql, [hashTokenSecret(secret)]);
  if (!row) throw unauthenticated('Invalid or revoked API token');
  const { tokenId, memberships: tuples, ...user } = row;
  return { user, tokenId, memberships: rowsOf<Plain<MemberRow>>(em, Member, tuples) };
}
