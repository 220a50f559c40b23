import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import type { Role } from '../../kernel/roles.js';
import { parseInput } from '../../kernel/validation.js';
import { recordEvent } from '../../events/record.js';
import { joinAsMembers, memberPayload, memberTarget } from '../organizations/index.js';
import { usersWithEmails } from '../users/index.js';
import { InviteUsersToOrganizationInput } from './inputs.js';

/** What inviting by e-mail answers (0.202.0's shape): every user the addresses name, and how many joined now. */
export type InvitedUsers = { users: string[]; invited: number };

/**
 * Makes the users of some e-mail addresses members of the organization (the current client's
 * inviteUsersToOrganization). An address no user has yet gets its user (named after the address's
 * local part), who finds the membership on signing in (single sign-on, or a token from an instance
 * administrator): this server sends no mail. A newcomer joins with their entry's role, else `role`,
 * else the organization's `defaultRole` (null: guest), marked `sso` when asked; an existing member keeps
 * their membership as it is (as with invite links: never demoted nor promoted, a disabled one stays
 * disabled). Every address is checked before anything is written (400 naming the first bad one), and
 * all is one transaction; concurrent invitations of one address make one user and one membership.
 * Each new membership is a `member.joined` event.
 */
export async function inviteUsersByEmail(ctx: Context, organizationId: string, input: unknown): Promise<InvitedUsers> {
  const fields = parseInput(InviteUsersToOrganizationInput, input);
  const organization = (await ctx.loaders.organization.load(organizationId))!;
  const defaultRole = fields.role !== undefined ? fields.role : (organization.defaultRole as Role | null);
  // The addresses in the order given, each once, with the role it asks.
  const roleOf = new Map<string, Role | null>();
  fields.emails.forEach((entry, i) => {
    const [email, role] = typeof entry === 'string' ? [entry, defaultRole] : [entry.email, entry.role];
    if (roleOf.has(email) && roleOf.get(email) !== role) throw badRequest(`emails.${i}: ${email} is listed twice with different roles`);
    roleOf.set(email, role);
  });
  const joinedAt = ctx.clock.now();
  const sso = fields.sso ?? false;
  return ctx.em.transactional(async (tx) => {
    const idOf = new Map((await usersWithEmails(tx, ctx.clock, [...roleOf.keys()])).map((user) => [user.email, user.id]));
    const joinings = [...roleOf].map(([email, role]) => ({ user: idOf.get(email)!, role, joinedAt, disabled: false, sso }));
    // Of concurrent invitations of one user, the one that inserted the membership announces it.
    const joined = await joinAsMembers(tx, organizationId, joinings);
    for (const joining of joinings) {
      if (!joined.has(joining.user)) continue;
      recordEvent(ctx, tx, { type: 'member.joined', organizationId, target: memberTarget(organizationId, joining.user), payload: memberPayload(joining) });
    }
    return { users: joinings.map((joining) => joining.user), invited: joined.size };
  });
}
