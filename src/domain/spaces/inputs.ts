import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { DEFAULT_LEVELS } from '../../kernel/roles.js';
import { oneOf, text } from '../../kernel/validation.js';
import { emoji } from '../../kernel/emoji.js';

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;

export const CreateSpaceInput = z.object({
  title: text({ max: 50 }).optional(),
  emoji: emoji.optional(),
  parent: shownAs('ID', z.string()).optional(),
  editMode: shownAs('SpaceEditMode', oneOf(['live', 'locked'])).optional(),
  visibility: oneOf(VISIBILITIES).optional().describe('public, unlisted, share-link, visitor-auth, in-collection or private (default).'),
});

export const UpdateSpaceInput = z.object({
  title: text({ max: 50 }).optional(),
  emoji: emoji.nullable().optional().describe('An emoji character or its hex code point; null removes it.'),
  editMode: shownAs('SpaceEditMode', oneOf(['live', 'locked'])).optional(),
  defaultLevel: shownAs('DefaultLevel', oneOf(DEFAULT_LEVELS)).nullable().optional(),
  visibility: oneOf(VISIBILITIES).optional(),
});
