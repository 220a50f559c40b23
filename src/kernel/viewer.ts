import type { Rows } from './rows.js';
import type { Role } from './roles.js';

/**
 * What an API token is limited to, besides its user's own rights: one organization (null: all of the
 * user's), a highest role (null or `admin`: none), an expiry (null: never). The policy applies it
 * (kernel/policy.ts); kernel/token-scope.ts says what it means.
 */
export type TokenScope = { organization: string | null; role: Role | null; expiresAt: Date | null };

/**
 * Who is calling: the user behind the API token of the request, and the memberships read with the
 * token (some of them when the user belongs to many organizations), which the request's loaders start
 * with. `scope` is what the token is limited to (kernel/token-scope.ts; absent: unlimited, as for the
 * command line's local operator); memberships outside its organization are never read.
 */
export type Viewer = { user: Rows['User']; tokenId: string; memberships?: readonly Rows['Member'][]; scope?: TokenScope };
