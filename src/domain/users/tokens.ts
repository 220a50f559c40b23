import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { z } from 'zod';
import { generateTokenSecret, hashTokenSecret } from '../../auth/tokens.js';
import { readRows } from '../../db/statements.js';
import type { Clock } from '../../kernel/clock.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, forbidden, notFound } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { inputType, shownAs } from '../../kernel/input-types.js';
import { isRole, ROLES } from '../../kernel/roles.js';
import { describeScope, scopeWithin, UNLIMITED_SCOPE, type TokenScope } from '../../kernel/token-scope.js';
import { oneOf, parseInput, text } from '../../kernel/validation.js';
import { ApiToken, type ApiTokenRow } from './entities.js';

/** The longest `expiresIn`: ten years, in seconds. */
const MAX_EXPIRES_IN = 10 * 366 * 24 * 3600;

/** The fields that limit a new token, as both the viewer's and an instance administrator's creation take them. */
const apiTokenScopeFields = {
  organization: shownAs('ID', z.string().min(1, { error: 'must not be empty' }))
    .nullish()
    .describe('The one organization the token may act in (the user must be a member). Absent: every organization of the user.'),
  role: shownAs('Role', oneOf(ROLES))
    .nullish()
    .describe('The highest role the token acts with: the user role on anything, capped at this (`read` never writes; `admin`: no cap).'),
  expiresAt: shownAs('DateTime', z.date({ error: 'must be an ISO 8601 date-time' }))
    .nullish()
    .describe('When the token stops working (in the future). Absent, with no expiresIn: never.'),
  expiresIn: z
    .number()
    .int({ error: 'must be an integer' })
    .min(1, { error: 'must be at least 1 (seconds)' })
    .max(MAX_EXPIRES_IN, { error: `must be at most ${MAX_EXPIRES_IN} (ten years, in seconds)` })
    .nullish()
    .describe('Seconds from now until the token stops working (instead of expiresAt).'),
};

const onlyOneExpiry = (scope: { expiresAt?: Date | null; expiresIn?: number | null }) => scope.expiresAt == null || scope.expiresIn == null;
const ONE_EXPIRY = { error: 'give expiresAt or expiresIn, not both' };

/** What a new token is limited to. */
export const ApiTokenScopeInput = inputType('ApiTokenScopeInput', z.object(apiTokenScopeFields).refine(onlyOneExpiry, ONE_EXPIRY));

/** The scope a request for a token asks for, checked: a future expiry, an organization the user is an enabled member of. */
export async function requestedScope(em: EntityManager, clock: Clock, userId: string, input: unknown): Promise<TokenScope> {
  const parsed = parseInput(ApiTokenScopeInput, input ?? {});
  const now = clock.now();
  const expiresAt = parsed.expiresAt ?? (parsed.expiresIn != null ? new Date(now.getTime() + parsed.expiresIn * 1000) : null);
  if (expiresAt && expiresAt <= now) throw badRequest('expiresAt: must be in the future');
  const organization = parsed.organization ?? null;
  if (organization !== null) {
    const [member] = await readRows<{ member: boolean }>(
      em,
      sql`select exists(select 1 from member where organization_id = ${organization} and user_id = ${userId} and not disabled) as "member"`,
    );
    if (!member.member) throw badRequest(`organization: the user is not a member of organization ${organization}`);
  }
  return { organization, role: parsed.role ?? null, expiresAt };
}

/** The scope a token row keeps. */
export const scopeOfToken = (token: ApiTokenRow): TokenScope => ({
  organization: token.organization ?? null,
  role: isRole(token.roleCap) ? token.roleCap : null,
  expiresAt: token.expiresAt ?? null,
});

/**
 * Issues an API token for a user and returns its secret, which is not stored and cannot be shown again.
 * `secret` lets provisioning choose the value (OWNER_TOKEN); otherwise 256 random bits are drawn.
 */
export async function createApiToken(
  em: EntityManager,
  clock: Clock,
  userId: string,
  label: string,
  secret: string = generateTokenSecret(),
  scope: TokenScope = UNLIMITED_SCOPE,
) {
  const token = em.create(ApiToken, {
    id: newId(),
    user: userId,
    secretHash: hashTokenSecret(secret),
    label: parseInput(text({ min: 1, max: 100 }), label),
    createdAt: clock.now(),
    revokedAt: null,
    organization: scope.organization,
    roleCap: scope.role,
    expiresAt: scope.expiresAt,
    lastUsedAt: null,
  });
  await em.flush();
  return { token, secret };
}

/** A token as the creating mutations answer it: its fields and, this once, its secret. */
export const createdToken = ({ token, secret }: { token: ApiTokenRow; secret: string }) => ({ ...token, token: secret });

/**
 * The viewer makes a token for themselves. A limited token makes only tokens within its own scope (same
 * organization, no higher cap, no later expiry): it cannot mint itself more power (403).
 */
export async function createViewerApiToken(ctx: Context, label: string, scopeInput: unknown) {
  return issueViewerApiToken(ctx, 'createApiToken', label, await requestedScope(ctx.em, ctx.clock, ctx.viewer!.user.id, scopeInput));
}

/** A token of the viewer's with a scope already checked, within the calling token's own (403 otherwise). */
export async function issueViewerApiToken(ctx: Context, operation: string, label: string, scope: TokenScope) {
  const viewer = ctx.viewer!;
  if (viewer.scope && !scopeWithin(scope, viewer.scope))
    throw forbidden(`${operation}: this API token is ${describeScope(viewer.scope)}: it can only make tokens within its own scope`);
  return createdToken(await createApiToken(ctx.em, ctx.clock, viewer.user.id, label, generateTokenSecret(), scope));
}

/** Revokes a token of the user; from the next request on it authenticates nobody. A limited caller revokes only tokens within its scope. */
export async function revokeApiToken(em: EntityManager, clock: Clock, userId: string, tokenId: string, callerScope?: TokenScope): Promise<void> {
  const token = await em.findOne(ApiToken, { id: tokenId, user: userId, revokedAt: null });
  if (!token) throw notFound('API token');
  if (callerScope && !scopeWithin(scopeOfToken(token), callerScope))
    throw forbidden(`revokeApiToken: this API token is ${describeScope(callerScope)}: it can only revoke tokens within its own scope`);
  token.revokedAt = clock.now();
  await em.flush();
}

/** The user's active tokens, expired ones included (they list as such until revoked). */
export function listApiTokens(em: EntityManager, userId: string) {
  return em.find(ApiToken, { user: userId, revokedAt: null }, { orderBy: { createdAt: 'asc' } });
}
