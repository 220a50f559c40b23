import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kernel/clock.js';
import { recordEvent, recordServerEvent, type EventInput } from '../../events/record.js';
import type { Context } from '../../kernel/context.js';
import type { MemberRow, OrganizationRow } from './entities.js';

/*
 * The payloads of organization and member events: the objects as the contract names their fields,
 * without what depends on who looks (permissions, urls).
 */

export const organizationPayload = (organization: OrganizationRow) => ({
  object: 'organization',
  id: organization.id,
  title: organization.title,
  createdAt: organization.createdAt.toISOString(),
  emailDomains: organization.emailDomains,
  hostname: organization.hostname,
  type: organization.type,
  useCase: organization.useCase,
  communityType: organization.communityType,
  defaultRole: organization.defaultRole,
  defaultContent: organization.defaultContent,
  sso: organization.sso,
  ai: organization.ai,
  inviteLinks: organization.inviteLinks,
  plan: organization.plan,
});

/** A member: the user's id is the member's id, as the contract's member routes name them. */
export const memberPayload = (member: Pick<MemberRow, 'user' | 'role' | 'disabled' | 'joinedAt' | 'sso'>) => ({
  object: 'member',
  id: member.user,
  role: member.role,
  user: member.user,
  disabled: member.disabled,
  joinedAt: member.joinedAt.toISOString(),
  sso: member.sso,
});

export const memberTarget = (organizationId: string, userId: string) => ({ organizationId, userId });

/** Records with the request's actor, or as the server's own change when there is no request (bootstrap). */
export function recordBy(ctx: Context | null, em: EntityManager, clock: Clock, event: EventInput) {
  return ctx ? recordEvent(ctx, em, event) : recordServerEvent(em, clock, event);
}
