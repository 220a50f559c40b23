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
