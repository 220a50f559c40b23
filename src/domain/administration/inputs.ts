import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { ROLES } from '../../kernel/roles.js';
import { oneOf, text } from '../../kernel/validation.js';
import { ApiTokenScopeInput } from '../users/index.js';

/** Declared only: users.createUser checks what it is given. */
export const AdminCreateUserInput = z.object({
  email: z.string().describe('E-mail address, unique across the instance (case-insensitive).'),
  displayName: z.string(),
  instanceAdmin: z.boolean().optional().describe('Makes the user an instance administrator as well.'),
});

/** The token's scope is the users area's input, as the viewer's own createApiToken takes it. */
export const AdminCreateApiTokenInput = z.object({
  user: z.string().describe('The user: an id or an e-mail address.'),
  label: text({ min: 1, max: 100 }).describe('What the token is for (1-100 characters).'),
  scope: ApiTokenScopeInput.nullish().describe("What the token is limited to. Absent: its user's full rights, for ever."),
});

/** Declared only: organizations.createOrganization checks what it is given. */
export const AdminCreateOrganizationInput = z.object({
  title: z.string(),
  owner: z.string().describe('The user who becomes its admin: an id or an e-mail address.'),
});

export const AdminSetMemberInput = z.object({
  user: z.string().describe('The user: an id or an e-mail address.'),
  /** Required: a role, or null for a guest. */
  role: shownAs('Role', oneOf(ROLES)).nullable().describe('The membership role; null makes the user a guest. Required.'),
});
