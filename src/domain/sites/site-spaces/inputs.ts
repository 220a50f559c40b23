import { z } from 'zod';
import { inputType, shownAs } from '../../../kernel/input-types.js';
import { movePosition, text } from '../../../kernel/validation.js';
import { PATH_MAX } from '../index.js';

/** A site space's path is one segment of its published URL. */
const sitePath = text({ min: 1, max: PATH_MAX }).refine((path) => !/[/?#%\s]/.test(path) && path !== '.' && path !== '..', {
  error: 'must be one URL path segment (no /, ?, #, % or spaces)',
});

export const AddSiteSpaceInput = z.object({
  /** The space to publish: a live space of the site's organization that the caller can read. */
  spaceId: shownAs('ID', z.string({ error: 'is required' })),
  /** A section of the site; absent: the default section, or the root level of a site without sections. */
  sectionId: shownAs('ID', z.string()).optional(),
});

export const UpdateSiteSpaceInput = z.object({
  /** 1-100 characters, unique among the site spaces of the same section (or root level). */
  path: sitePath.optional(),
  /** Checked by validateCondition. */
  condition: z.string({ error: 'must be a string or null' }).nullable().optional().describe('Omitted keeps the condition; null removes it.'),
  /** Points the site space at another space (same rules as adding). */
  spaceId: shownAs('ID', z.string({ error: 'must be a string' })).optional(),
});

/** The contract's position object of a site space move; a sibling is {type: 'site-space', siteSpace: id}. */
export const SiteSpacePositionInput = movePosition(
  inputType('SiteSpacePointerInput', z.object({ type: z.literal('site-space', { error: 'must be "site-space"' }), siteSpace: shownAs('ID', z.string()) })),
);
