import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiToken, User, type UserRow } from '../domain/users/entities.js';
import { plainColumns, readRows, tableOf, type Plain } from '../db/statements.js';
import { unauthenticated } from '../domain/common/errors.js';
import { bearerSecret, hashTokenSecret } from './tokens.js';

/** Who is calling: the user behind the API token of the request. */
export type Viewer = { user: UserRow; tokenId: string };

/**
 * Resolves the Authorization header to a viewer. No header → null (public fields only);
 * a malformed, unknown or revoked token → 401.
 */
export async function authenticate(em: EntityManager, authorization: string | undefined): Promise<Viewer | null> {
  const secret = bearerSecret(authorization);
  if (secret === null) return null;
  if (secret === undefined) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
  // One statement: every request pays for this one.
  const sql = `select t.id as "tokenId", ${plainColumns(em, User, 'u')} from ${tableOf(em, ApiToken)} t join ${tableOf(em, User)} u on u.id = t.user_id where t.secret_hash = $1 and t.revoked_at is null`;
  const [row] = await readRows<Plain<UserRow> & { tokenId: string }>(em, sql, [hashTokenSecret(secret)]);
  if (!row) throw unauthenticated('Invalid or revoked API token');
  const { tokenId, ...user } = row;
  return { user, tokenId };
}
