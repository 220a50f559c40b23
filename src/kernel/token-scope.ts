import { forbidden } from './errors.js';
import { rank, type Role } from './roles.js';
import type { TokenScope, Viewer } from './viewer.js';

export type { TokenScope } from './viewer.js';

export const UNLIMITED_SCOPE: TokenScope = { organization: null, role: null, expiresAt: null };

/** A role held through a token capped at `cap`: the weaker of the two (no cap, or `admin`: the role itself). */
export function capRole<R extends Role | null | undefined>(role: R, cap: Role | null | undefined): R | Role {
  if (!role || !cap || rank(role) <= rank(cap)) return role;
  return cap;
}

/** True when a token acts with less than its user's full rights: limited to one organization or capped below admin. */
export function isLimited(scope: TokenScope | undefined): boolean {
  return !!scope && (scope.organization !== null || (scope.role !== null && scope.role !== 'admin'));
}

/**
 * Whether the viewer holds instance-administrator power: only through a token that is not limited
 * (a token limited to an organization or capped below admin acts inside organizations only).
 */
export function isInstanceAdmin(viewer: Viewer | null | undefined): boolean {
  return !!viewer && viewer.user.instanceAdmin && !isLimited(viewer.scope);
}

/**
 * True when `inner` gives no more than `outer`: the same organization when `outer` has one, a cap no
 * higher, an expiry no later. A limited token may only make or revoke tokens within its own scope.
 */
export function scopeWithin(inner: TokenScope, outer: TokenScope): boolean {
  if (outer.organization !== null && inner.organization !== outer.organization) return false;
  const outerCap = outer.role ?? 'admin';
  if (rank(inner.role ?? 'admin') > rank(outerCap)) return false;
  if (outer.expiresAt !== null && (inner.expiresAt === null || inner.expiresAt > outer.expiresAt)) return false;
  return true;
}

/** How a 403 describes the calling token's limits. */
export function describeScope(scope: TokenScope): string {
  const parts = [
    scope.organization !== null ? `limited to organization ${scope.organization}` : null,
    scope.role !== null && scope.role !== 'admin' ? `capped at the ${scope.role} role` : null,
  ].filter((part) => part !== null);
  return parts.length ? parts.join(' and ') : 'unlimited';
}

/**
 * Refuses a mutation the viewer's token may not run, whatever its user may do: any mutation for a
 * token capped at `read` (it never writes); a mutation on the user's account or memberships (guard
 * `@authenticated` without `scopedTokens: true`) for any limited token. Content mutations are left to
 * the policy, which judges roles through the cap.
 */
export function refuseScopedMutation(viewer: Viewer | null, field: string, accountMutationAllowsScopedTokens: boolean | null): void {
  const scope = viewer?.scope;
  if (!scope || !isLimited(scope)) return;
  if (scope.role === 'read') throw forbidden(`${field}: this API token is ${describeScope(scope)}: it cannot change anything`);
  if (accountMutationAllowsScopedTokens === false)
    throw forbidden(`${field}: this API token is ${describeScope(scope)}: changing the account or its memberships needs an unlimited token`);
}
