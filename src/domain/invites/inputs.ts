import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { ROLES } from '../../kernel/roles.js';
import { oneOf } from '../../kernel/validation.js';

const role = shownAs('Role', oneOf(ROLES));

export const CreateInviteLinkInput = z.object({
  /** Null: guest; for an organization link, required. */
  role: role.nullish().describe('Organization role of those who join (null: guest); for a link to the organization.'),
  level: role.nullish().describe('Role on the space or collection, for a link to one of them.'),
  /** The space of a content link. */
  space: shownAs('ID', z.string().min(1)).optional(),
  /** The collection of a content link. */
  collection: shownAs('ID', z.string().min(1)).optional(),
});

/** Exactly one of them: `role` for an organization link, `level` for a content link. */
export const UpdateInviteLinkInput = z.object({
  role: role.nullish().describe('New role of a link to the organization.'),
  level: role.nullish().describe('New level of a link to a space or collection.'),
});

/** An e-mail address, trimmed and lowercased (as users' addresses are stored). */
const address = z
  .string({ error: 'must be an e-mail address' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'must be an e-mail address' }));

/** Users to make members of the organization by e-mail address (the current client's inviteUsersToOrganization). */
export const InviteUsersToOrganizationInput = z.object({
  emails: z
    .array(
      z.union([address, z.object({ email: address, role: role.nullable() })], {
        error: 'must be an e-mail address, or an object of `email` and `role` (null: guest)',
      }),
    )
    .min(1, { error: 'must list at least one address' })
    .max(100, { error: 'must list at most 100 addresses' })
    .describe('1 to 100 e-mail addresses, each alone or as `{email, role}` with its own role (null: guest).'),
  role: role.nullish().describe("Role of those who join, unless their entry gives one (null: guest; left out: the organization's defaultRole)."),
  sso: z.boolean().optional().describe('Marks the new memberships as single sign-on ones (default false).'),
});
