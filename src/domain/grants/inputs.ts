import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { ROLES } from '../../kernel/roles.js';
import { oneOf } from '../../kernel/validation.js';

const granteeFields = {
  /** A team of the organization. */
  team: shownAs('ID', z.string().min(1)).nullish(),
  /** A member of the organization (user id). */
  user: shownAs('ID', z.string().min(1)).nullish(),
};
const exactlyOneGrantee = {
  check: (g: { team?: string | null; user?: string | null }) => !!g.team !== !!g.user,
  error: 'team or user is required (exactly one)',
};

export const GrantInput = z
  .object({
    team: granteeFields.team.describe('A team of the organization (or `user`).'),
    user: granteeFields.user.describe('A member of the organization (or `team`).'),
    role: shownAs('Role', oneOf(ROLES)),
  })
  .refine(exactlyOneGrantee.check, { error: exactlyOneGrantee.error });

export const GranteeInput = z.object(granteeFields).refine(exactlyOneGrantee.check, { error: exactlyOneGrantee.error });

/** A role to set, or null to take back the role given before (the reference's "guest"). */
export const SetRoleInput = z.object({
  role: shownAs('Role', oneOf(ROLES)).nullable().describe('The role to give; null takes back the role given before.'),
});

const ids = (what: string) =>
  z
    .array(shownAs('ID', z.string().min(1)))
    .min(1)
    .max(100)
    .optional()
    .describe(`${what} (1 to 100).`);

/** Members and teams to give one role on a space or collection at once. */
export const InviteToContentInput = z
  .object({
    role: shownAs('Role', oneOf(ROLES)),
    users: ids('Members of the organization (user ids)'),
    teams: ids('Teams of the organization'),
  })
  .refine((input) => !!input.users?.length || !!input.teams?.length, { error: 'users or teams is required' });
