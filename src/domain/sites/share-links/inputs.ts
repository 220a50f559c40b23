import { z } from 'zod';
import { text } from '../../../kernel/validation.js';

export const CreateShareLinkInput = z.object({
  /** A label for the people the link is given to; at most 50 characters (empty allowed, as in the reference). */
  name: text({ max: 50 }),
});

export const UpdateShareLinkInput = z
  .object({
    /** false stops the link from opening the site, at once; true opens it again. */
    active: z.boolean({ error: 'must be true or false' }).optional(),
    name: text({ max: 50 }).optional(),
  })
  .refine((changes) => changes.active !== undefined || changes.name !== undefined, { error: 'active or name is required' });
