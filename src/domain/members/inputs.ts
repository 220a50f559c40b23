import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { ROLES } from '../../kernel/roles.js';
import { oneOf } from '../../kernel/validation.js';

export const UpdateMemberInput = z.object({
  role: shownAs('Role', oneOf(ROLES)).nullable().optional().describe('A role, or null to make the member a guest; omitted keeps it.'),
});
