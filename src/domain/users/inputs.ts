import { z } from 'zod';
import { text } from '../../kernel/validation.js';

/** A user's own profile, as the current client (0.202.0) changes it: at least one field. */
export const UpdateUserInput = z
  .object({
    displayName: text({ min: 1, max: 64 }).optional().describe('Full name (1-64 characters).'),
    photoURL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2048, { error: 'must be at most 2048 characters' })
      .optional()
      .describe('URL of the profile picture (http or https, up to 2048 characters).'),
  })
  .refine((input) => input.displayName !== undefined || input.photoURL !== undefined, { error: 'displayName or photoURL is required' });
