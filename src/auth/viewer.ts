import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiToken, User, type UserRow } from '../domain/users/entities.js';
import { unauthenticated } from '../graphql/errors.js';
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
  const token = await em.findOne(ApiToken, { secretHash: hashTokenSecret(secret), revokedAt: null });
  if (!token) throw unauthenticated('Invalid or revoked API token');
  const user = await em.findOneOrFail(User, { id: token.user });
  return { user, tokenId: token.id };
}
