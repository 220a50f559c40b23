import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context } from '../../kernel/context.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { assertAnotherAdmin } from '../members/index.js';
import { addMember, createOrganization } from '../organizations/index.js';
import { recordEvent } from '../../events/record.js';
import { Member, Organization, type MemberRow } from '../organizations/index.js';
import { memberPayload, memberTarget } from '../organizations/index.js';
import { User, type UserRow } from '../users/index.js';
import { createApiToken, createdToken, createUser, findUserByEmail, requestedScope, revokeApiToken } from '../users/index.js';
import { AdminCreateApiTokenInput, AdminSetMemberInput } from './inputs.js';

/**
 * What instance administrators do to the whole server: users, their tokens, organizations and
 * memberships, whichever organizations the administrator belongs to. The admin CLI runs these same
 * operations, in its own process on a data directory it holds or through the server that holds it.
 */

/** A user named by id or e-mail address (anything with an `@`), or 404. */
export async function userByReference(em: EntityManager, reference: string): Promise<UserRow> {
  if (reference.includes('@')) return findUserByEmail(em, reference);
  const user = await em.findOne(User, { id: reference });
  if (!user) throw notFound(`User ${reference}`);
  return user;
}

export async function adminCreateUser(ctx: Context, input: { email: string; displayName: string; instanceAdmin?: boolean | null }) {
  return createUser(ctx.em, ctx.clock, { email: input.email, displayName: input.displayName, instanceAdmin: input.instanceAdmin ?? false });
}

/** Makes a user an instance administrator or no longer one; the last one cannot step down (409). */
export async function setInstanceAdmin(ctx: Context, reference: string, instanceAdmin: boolean): Promise<UserRow> {
  const user = await userByReference(ctx.em, reference);
  if (user.instanceAdmin === instanceAdmin) return user;
  await ctx.em.transactional(async (tx) => {
    if (!instanceAdmin) {
      // Locking every administrator's row: two of them stepping down at once cannot both succeed.
      const admins = await tx.find(User, { instanceAdmin: true }, { fields: ['id'], lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!admins.some((admin) => admin.id !== user.id)) throw conflict('The last instance administrator cannot step down: make another user one first');
    }
    await tx.nativeUpdate(User, { id: user.id }, { instanceAdmin });
  });
  await ctx.em.refresh(user);
  return user;
}

export async function adminCreateApiToken(ctx: Context, input: unknown) {
  const { user: reference, label, scope: scopeInput } = parseInput(AdminCreateApiTokenInput, input);
  const user = await userByReference(ctx.em, reference);
  const scope = await requestedScope(ctx.em, ctx.clock, user.id, scopeInput);
  return createdToken(await createApiToken(ctx.em, ctx.clock, user.id, label, undefined, scope));
}

export async function adminRevokeApiToken(ctx: Context, reference: string, tokenId: string): Promise<boolean> {
  const user = await userByReference(ctx.em, reference);
  await revokeApiToken(ctx.em, ctx.clock, user.id, tokenId);
  return true;
}

export async function adminCreateOrganization(ctx: Context, input: { title: string; owner: string }) {
  const owner = await userByReference(ctx.em, input.owner);
  return createOrganization(ctx.em, ctx.clock, owner.id, { title: input.title }, ctx);
}

/** Adds a user to an organization with a role (null: guest), or changes a member's; the last admin stays one (409). */
export async function setMembership(ctx: Context, organizationId: string, input: unknown): Promise<MemberRow> {
  const { user: reference, role } = parseInput(AdminSetMemberInput, input);
  const user = await userByReference(ctx.em, reference);
  if (!(await ctx.em.findOne(Organization, { id: organizationId }))) throw notFound('Organization');
  await ctx.em.transactional(async (tx) => {
    const current = await tx.findOne(Member, { organization: organizationId, user: user.id });
    if (current?.role === 'admin' && role !== 'admin') await assertAnotherAdmin(tx, organizationId, user.id, 'demoted');
    await addMember(tx, ctx.clock, organizationId, user.id, role);
    const target = memberTarget(organizationId, user.id);
    if (!current) {
      const joined = { user: user.id, role, disabled: false, joinedAt: ctx.clock.now(), sso: false };
      recordEvent(ctx, tx, { type: 'member.joined', organizationId, target, payload: memberPayload(joined) });
    } else if (current.role !== role) {
      recordEvent(ctx, tx, { type: 'member.updated', organizationId, target, payload: { ...memberPayload({ ...current, role }), changes: ['role'] } });
    }
  });
  return ctx.em.findOneOrFail(Member, { organization: organizationId, user: user.id }, { refresh: true });
}
