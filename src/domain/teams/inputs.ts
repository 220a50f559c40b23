import { z } from 'zod';
import { oneOf, text } from '../../kernel/validation.js';
import { TEAM_ROLES } from './entities.js';

const teamTitle = text({ min: 1, max: 64 });

export const CreateTeamInput = z.object({
  /** 1-64 characters. */
  title: teamTitle,
  /** They join the team as `member`. */
  members: z
    .array(z.string(), { error: 'must be an array of member ids' })
    .max(1000, { error: 'must have at most 1000 members' })
    .optional()
    .describe('User ids of members of the organization.'),
});

export const UpdateTeamInput = z.object({ title: teamTitle });

/** A user id or an e-mail address, as the bulk update names users. */
const userReference = z.string({ error: 'must be a user id or an e-mail address' }).min(1, { error: 'must not be empty' });
const references = z.array(userReference).max(1000, { error: 'must have at most 1000 entries' });

export const UpdateTeamMembersInput = z.object({
  /** Added as `member` unless `memberships` says otherwise. */
  add: references.optional().describe('User ids or e-mail addresses of members of the organization.'),
  remove: references.optional().describe('User ids or e-mail addresses; a user both added and removed is removed.'),
  /** Roles of members of the team after `add` and `remove`. */
  memberships: z
    .record(userReference, z.object({ role: oneOf(TEAM_ROLES) }, { error: 'must be an object with a role' }), { error: 'must be an object' })
    .optional()
    .describe('New team roles by user id or e-mail address: `{"<user>": {"role": "owner"}}`.'),
});
