import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw } from 'sql-template-tag';
import { jsonTupleOf, plainColumns, readCurrentRows, rowsOf, tableOf } from '../db/statements.js';
import { noteReadPosition, readPositionColumn } from '../db/read-routing.js';
import type { Clock } from '../kernel/clock.js';
import { unauthenticated } from '../kernel/errors.js';
import { isRole } from '../kernel/roles.js';
import type { Rows } from '../kernel/rows.js';
import type { TokenScope } from '../kernel/token-scope.js';
import type { Viewer } from '../kernel/viewer.js';
import { bearerSecret, hashTokenSecret } from './tokens.js';

/**
 * How many of the user's memberships the token's statement brings along: most requests judge the
 * viewer's role in an organization, and most users belong to a few; a membership not among them is
 * read when asked, as without them.
 */
const MEMBERSHIPS_WITH_TOKEN = 20;

/**
 * How stale a token's `lastUsedAt` may be: the token's statement writes it only when it is older than
 * this, so a token in use costs one write a minute, not one per request, and no statement more.
 */
export const LAST_USE_PRECISION_MS = 60_000;

// The users area's entities, by name: the token lookup runs below the areas.
const [USER, MEMBER, API_TOKEN] = ['User', 'Member', 'ApiToken'];

type TokenRow = Rows['User'] & {
  tokenId: string;
  scopeOrganization: string | null;
  scopeRole: string | null;
  expiresAt: Date | string | null;
  memberships: unknown[][];
  readPosition?: string | null;
};

/**
 * Resolves the Authorization header to a viewer. No header → null (public fields only);
 * a malformed, unknown, revoked or expired token → 401.
 */
export async function authenticate(em: EntityManager, authorization: string | undefined, clock: Clock): Promise<Viewer | null> {
  const secret = bearerSecret(authorization);
  if (secret === null) return null;
  if (secret === undefined) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
  const now = clock.now();
  const staleBefore = new Date(now.getTime() - LAST_USE_PRECISION_MS);
  const table = tableOf(em, API_TOKEN);
  // One statement: every request pays for this one. Its writable part records the use when the last
  // one recorded is over a minute old (PostgreSQL runs it whether or not the select reads it).
  const memberships = sql`(select coalesce(json_agg(${jsonTupleOf(em, MEMBER, 'm')}), '[]') from (select * from ${tableOf(em, MEMBER)} m
    where m.user_id = u.id and (t.organization_id is null or m.organization_id = t.organization_id)
    limit ${raw(String(MEMBERSHIPS_WITH_TOKEN))}) m) as "memberships"`;
  const statement = sql`with t as (select * from ${table} where secret_hash = ${hashTokenSecret(secret)} and revoked_at is null),
    used as (update ${table} set last_used_at = ${now} where id in (select id from t)
      and (expires_at is null or expires_at > ${now}) and (last_used_at is null or last_used_at <= ${staleBefore}))
    select t.id as "tokenId", t.organization_id as "scopeOrganization", t.role_cap as "scopeRole", t.expires_at as "expiresAt",
      ${plainColumns(em, USER, 'u')}, ${memberships}${readPositionColumn(em)}
    from t join ${tableOf(em, USER)} u on u.id = t.user_id`;
  // Always on the primary (it may note the token's use, and a revoked token is refused on the very
  // next request); with replicas, the user's last write position comes along (read-routing.ts).
  const [row] = await readCurrentRows<TokenRow>(em, statement, { keepPlan: true });
  if (!row) throw unauthenticated('Invalid or revoked API token');
  const { tokenId, scopeOrganization, scopeRole, expiresAt, memberships: tuples, readPosition, ...user } = row;
  noteReadPosition(em, readPosition);
  const scope: TokenScope = {
    organization: scopeOrganization,
    role: isRole(scopeRole) ? scopeRole : null,
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
  };
  if (scope.expiresAt && scope.expiresAt <= now) throw unauthenticated(`API token expired at ${scope.expiresAt.toISOString()}`);
  return { user, tokenId, memberships: rowsOf<Rows['Member']>(em, MEMBER, tuples), scope };
}
