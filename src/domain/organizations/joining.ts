import type { EntityManager } from '@mikro-orm/postgresql';
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
