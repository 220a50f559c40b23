import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import sql from 'sql-template-tag';
import { executeReturning, readCurrentRows } from '../../db/statements.js';
import type { Context } from '../../kernel/context.js';
import type { Clock } from '../../kernel/clock.js';
import { newId } from '../../kernel/ids.js';
import { alreadyTaken } from '../../db/database-errors.js';
import { forbidden, notFound } from '../../kernel/errors.js';
import { parseInput, text } from '../../kernel/validation.js';
import { isInstanceAdmin } from '../../kernel/token-scope.js';
import { recordEvent } from '../../events/record.js';
import { User, type UserRow } from './entities.js';
import { UpdateUserInput } from './inputs.js';

const CreateUserInput = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'must be an e-mail address' })),
  displayName: text({ min: 1, max: 255 }),
});

/** Creates a user; e-mail addresses are unique (case-insensitive). */
export async function createUser(em: EntityManager, clock: Clock, input: { email: string; displayName?: string; instanceAdmin?: boolean }): Promise<UserRow> {
  const { email, displayName } = parseInput(CreateUserInput, { ...input, displayName: input.displayName ?? input.email.split('@')[0] });
  if (await em.count(User, { email })) throw alreadyTaken('app_user_email_unique', email);
  const user = em.create(User, { id: newId(), email, displayName, photoURL: null, instanceAdmin: input.instanceAdmin ?? false, createdAt: clock.now() });
  await em.flush();
  return user;
}

/**
 * The user with that e-mail address, created when there is none. INSERT … ON CONFLICT DO NOTHING:
 * concurrent first sign-ins of one address make one user.
 */
export async function userWithEmail(em: EntityManager, clock: Clock, input: { email: string; displayName: string }): Promise<UserRow> {
  const existing = await em.findOne(User, { email: input.email.trim().toLowerCase() });
  if (existing) return existing;
  const { email, displayName } = parseInput(CreateUserInput, input);
  await em
    .createQueryBuilder(User)
    .insert({ id: newId(), email, displayName, photoURL: null, createdAt: clock.now() })
    .onConflict(['email'])
    .ignore()
    .execute();
  return em.findOneOrFail(User, { email }, { refresh: true });
}

/**
 * The users with these e-mail addresses (trimmed and lowercased already), each created when there is
 * none, named after the address's local part: one INSERT … ON CONFLICT DO NOTHING for them all, in the
 * addresses' order (concurrent calls make one user per address and wait on each other in one order),
 * then one read.
 */
export async function usersWithEmails(em: EntityManager, clock: Clock, emails: readonly string[]): Promise<UserRow[]> {
  const sorted = [...new Set(emails)].sort();
  if (!sorted.length) return [];
  const now = clock.now();
  await em
    .createQueryBuilder(User)
    .insert(sorted.map((email) => ({ id: newId(), email, displayName: email.slice(0, email.lastIndexOf('@')), photoURL: null, createdAt: now })))
    .onConflict(['email'])
    .ignore()
    .execute();
  return em.find(User, { email: { $in: sorted } });
}

export async function findUserByEmail(em: EntityManager, email: string): Promise<UserRow> {
  const user = await em.findOne(User, { email: email.trim().toLowerCase() });
  if (!user) throw notFound(`User ${email}`);
  return user;
}

/**
 * A user as the viewer may see them: themselves, anyone who is a member of an organization the viewer
 * is an enabled member of, or anyone for an instance administrator. Anyone else is a 404, as an unknown
 * id is: who has an account here is not for strangers to learn.
 */
export async function visibleUser(ctx: Context, id: string): Promise<UserRow> {
  const viewer = ctx.viewer!.user;
  if (id === viewer.id) return viewer;
  const user = await ctx.loaders.user.load(id);
  if (!user) throw notFound('User');
  if (isInstanceAdmin(ctx.viewer)) return user;
  // Memberships decide access: read on the primary, never a replica. A token limited to an
  // organization sees the members of that one only.
  const within = ctx.viewer!.scope?.organization ?? null;
  const [shared] = await readCurrentRows<{ shared: boolean }>(
    ctx.em,
    sql`select exists(select 1 from member v join member m on m.organization_id = v.organization_id
      where v.user_id = ${viewer.id} and not v.disabled and m.user_id = ${id} and (${within}::text is null or v.organization_id = ${within})) as "shared"`,
  );
  if (!shared.shared) throw notFound('User');
  return user;
}

/** A user's profile as events show it (no e-mail address: it does not change here, and receivers need not learn it). */
const userPayload = (user: UserRow) => ({ object: 'user', id: user.id, displayName: user.displayName, photoURL: user.photoURL });

/**
 * Changes a user's profile (display name, photo): a user changes their own, an instance administrator
 * anyone's. A user the caller may not see is a 404, as an unknown id is (visibleUser); one they see
 * but is someone else, a 403. The change is recorded as `user.updated` in each organization the user
 * is a member of (their admins' audit log, their webhooks), or with no organization when there is none;
 * a change to the values the user has already records nothing.
 */
export async function updateUser(ctx: Context, id: string, input: unknown): Promise<UserRow> {
  const user = await visibleUser(ctx, id);
  const viewer = ctx.viewer!.user;
  if (user.id !== viewer.id && !isInstanceAdmin(ctx.viewer)) throw forbidden('A user may update only their own profile');
  const fields = parseInput(UpdateUserInput, input);
  const changes = (['displayName', 'photoURL'] as const).filter((field) => fields[field] !== undefined && fields[field] !== user[field]);
  if (!changes.length) return user;
  const set = { displayName: fields.displayName ?? user.displayName, photoURL: fields.photoURL ?? user.photoURL };
  const updated: UserRow = { ...user, ...set };
  await ctx.em.transactional(async (tx) => {
    await tx.nativeUpdate(User, { id }, set);
    const memberships = await executeReturning<{ organizationId: string }>(
      tx,
      sql`select organization_id as "organizationId" from member where user_id = ${id} order by 1`,
    );
    const payload = { ...userPayload(updated), changes };
    for (const organizationId of memberships.length ? memberships.map((row) => row.organizationId) : [null]) {
      recordEvent(ctx, tx, { type: 'user.updated', organizationId, target: { userId: id }, payload });
    }
  });
  ctx.loaders.user.clear(id);
  return updated;
}
