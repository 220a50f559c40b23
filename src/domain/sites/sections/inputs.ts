import { z } from 'zod';
import { inputType, shownAs } from '../../../kernel/input-types.js';
import { movePosition, oneOf, text } from '../../../kernel/validation.js';
import { PATH_MAX } from '../index.js';

/** A section path: one URL segment of lowercase slug characters. */
const sectionPath = text({ min: 1, max: PATH_MAX }).regex(/^[a-z0-9_-]+$/, {
  error: 'must contain only lowercase letters, digits, hyphens and underscores',
});

const resourceId = z.string({ error: 'must be a string' });

export const AddSiteSectionInput = z.object({
  /** The space the section publishes first (its first site space). */
  spaceId: shownAs('ID', resourceId),
  /** Defaults to the space's title (cut to 64 characters; "Untitled section" when shorter than 2). */
  title: text({ min: 2, max: 64 }).nullable().optional(),
  icon: text({ max: 50 }).nullable().optional(),
});

export const UpdateSiteSectionInput = z.object({
  title: text({ min: 2, max: 128 }).optional(),
  path: sectionPath.optional(),
  /** A site space of this section. */
  defaultSiteSpace: shownAs('ID', resourceId).optional(),
  /** Checked against the site's adaptive schema. */
  condition: z.string({ error: 'must be a string' }).nullable().optional().describe('Omitted keeps the condition; null removes it.'),
  icon: text({ max: 50 }).nullable().optional(),
  description: text({ max: 256 }).nullable().optional(),
});

/** The contract's pointer of a section move: {type: 'site-section', siteSection: id}. */
export const SiteSectionPositionInput = movePosition(
  inputType('SiteSectionPointerInput', z.object({ type: z.string(), siteSection: shownAs('ID', resourceId) })),
);

export const AddSiteSectionGroupInput = z.object({
  title: text({ min: 1, max: 100 }),
  icon: text({ max: 50 }).nullable().optional(),
  /** Sections of the site moved into the group, in this order (an id given twice counts once). */
  sections: shownAs('[ID!]', z.array(resourceId, { error: 'must be an array of section ids' })).optional(),
});

export const UpdateSiteSectionGroupInput = z.object({
  title: text({ min: 1, max: 100 }).optional(),
  icon: text({ max: 50 }).nullable().optional(),
});

/** The contract's pointer of a group move: {type: 'site-section' | 'site-section-group', id}. */
export const SiteSectionGroupPositionInput = movePosition(
  inputType('SiteSectionGroupPointerInput', z.object({ type: z.string(), id: shownAs('ID', resourceId) })),
);

/** 0.202.0's pointer to an item of a site's structure (this server keeps no external links: none is found). */
const SiteStructureItemPointerInput = inputType(
  'SiteStructureItemPointerInput',
  z.object({
    type: shownAs('String', oneOf(['site-space', 'site-section', 'site-section-group', 'site-external-link'])),
    id: shownAs('ID', resourceId),
  }),
);

/** 0.202.0's body of sortSiteStructure: the item, and a sibling of its level to go next to (neither: the end of its level). */
export const SortSiteStructureInput = z.object({
  item: SiteStructureItemPointerInput,
  position: inputType('SiteStructureItemMovePositionInput', movePosition(SiteStructureItemPointerInput))
    .optional()
    .describe('A sibling of the same level to go just `before` and/or `after`; neither (or no position): the end of the level.'),
});

/** 0.202.0's body of duplicateSiteSpace. */
export const DuplicateSiteSpaceInput = z.object({
  draft: z
    .boolean({ error: 'must be a boolean' })
    .refine((draft) => !draft, { error: 'this server keeps no drafts: what a site holds is live as soon as it is added' })
    .optional()
    .describe('Only false: this server keeps no drafts.'),
});
