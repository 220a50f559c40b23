import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { oneOf, text } from '../../kernel/validation.js';

export const CreateChangeRequestInput = z.object({ subject: text({ max: 100 }).optional().describe('At most 100 characters.') });

export const UpdateChangeRequestInput = z.object({
  subject: text({ max: 100 }).optional(),
  status: shownAs('ChangeRequestSettableStatus', oneOf(['draft', 'open', 'archived'])).optional(),
});
