import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { executeReturning, tableOf } from '../../db/statements.js';
import type { Context } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { recordEvent } from '../../events/record.js';
import { Member, Organization, type MemberRow } from './entities.js';
import { memberPayload, memberTarget } from './events.js';

/** What a new membership holds. */
export type Joining = { user: string; role?: string | null; joinedAt: Date; disabled: boolean; sso: boolean };

/**
 * Adds the membership unless the user is a member already (disabled included), in one INSERT … ON
 * CONFLICT DO NOTHING: of two joins at once, one inserts. True when this one did.
 */
export async function joinAsMember(em: EntityManager, organizationId: string, joined: Joining): Promise<boolean> {
  const inserted = await em
    .createQueryBuilder(Member)
    .insert({ organization: organizationId, lastSeenAt: null, ...joined })
    .onConflict(['organization', 'user'])
    .ignore()
    .execute<{ affectedRows: number }>('run');
  return inserted.affectedRows > 0;
}

/**
 * Adds the memberships of those who are not members already (disabled included), in one INSERT … ON
 * CONFLICT DO NOTHING, in user order (concurrent calls wait on each other in one order): of two joins
 * of a user at once, one inserts. Answers the users this call made members.
 */
export async function joinAsMembers(em: EntityManager, organizationId: string, joinings: readonly Joining[]): Promise<Set<string>> {
  if (!joinings.length) return new Set();
  const rows = [...joinings]
    .sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0))
    .map(({ user, role, joinedAt, disabled, sso }) => ({ user, role: role ?? null, joinedAt: joinedAt.toISOString(), disabled, sso }));
  // Sent as one JSON array: the statement's parameters stay few whatever the number of users.
  const inserted = await executeReturning<{ user: string }>(
    em,
    sql`insert into ${tableOf(em, Member)} ("organization_id", "user_id", "role", "joined_at", "last_seen_at", "disabled", "sso")
      select ${organizationId}, j."user", j."role", j."joinedAt", null, j."disabled", j."sso"
      from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ("user" text, "role" text, "joinedAt" timestamptz, "disabled" boolean, "sso" boolean))
        with ordinality as j("user", "role", "joinedAt", "disabled", "sso", "n")
      order by j."n"
      on conflict ("organization_id", "user_id") do nothing
      returning "user_id" as "user"`,
  );
  return new Set(inserted.map((row) => row.user));
}

/** The domain of an email address, lowercased (what an organization's `emailDomains` lists). */
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Joins the viewer to an organization that accepts their email's domain, with the organization's default
 * role. A member already (disabled included) stays as they are. An organization that does not accept the
 * domain is a 404, as an unknown one is: who may not join does not learn that it exists.
 */
export async function joinByEmailDomain(ctx: Context, organizationId: string): Promise<MemberRow> {
  const viewer = ctx.viewer!.user;
  const organization = await ctx.em.findOne(Organization, { id: organizationId });
  const domain = domainOf(viewer.email);
  if (!organization || !organization.emailDomains.some((accepted) => accepted.toLowerCase() === domain)) throw notFound('Organization');
  const joined = { user: viewer.id, role: organization.defaultRole, joinedAt: ctx.clock.now(), disabled: false, sso: false };
  await ctx.em.transactional(async (tx) => {
    // Of two joins at once, the one that inserted announces it.
    if (await joinAsMember(tx, organizationId, joined)) {
      recordEvent(ctx, tx, {
        type: 'member.joined',
        organizationId,
        target: memberTarget(organizationId, viewer.id),
        payload: { ...memberPayload(joined), emailDomain: domain },
      });
    }
  });
  return (await ctx.em.findOne(Member, { organization: organizationId, user: viewer.id }, { refresh: true }))!;
}
