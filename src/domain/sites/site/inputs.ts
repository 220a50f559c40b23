import { z } from 'zod';
import { inputType, shownAs } from '../../../kernel/input-types.js';
import { oneOf, text } from '../../../kernel/validation.js';

/** The reference's site types; `basic` is the default. */
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;

/** The reference's SiteProxyOrigin: a host and at least one path segment, such as `company.com/docs`. */
const PROXY_ORIGIN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
/** A basename becomes part of every published URL, so it is a URL path: segments of unreserved characters. */
const BASENAME = /^[\w.~-]+(\/[\w.~-]+)*$/;

const siteTitle = text({ min: 2, max: 128 });

export const CreateSiteInput = z.object({
  /** Site type; `basic` when omitted. */
  type: oneOf(SITE_TYPES).optional(),
  /** 2-128 characters; "Untitled site" when omitted. */
  title: siteTitle.optional(),
  /** `public` when omitted. */
  visibility: oneOf(SITE_VISIBILITIES).optional(),
  spaces: z
    .union([z.array(z.string()), z.enum(['empty', 'sample'])], { error: 'must be an array of space ids, or "empty" or "sample"' })
    .optional()
    .describe('Ids of existing spaces to publish, or "empty" / "sample" to create a new space for the site.'),
});

export const UpdateSiteInput = z.object({
  title: siteTitle.optional(),
  visibility: oneOf(SITE_VISIBILITIES).optional(),
  /** 1-100 characters of URL path; null removes it. */
  basename: text({ min: 1, max: 100 })
    .regex(BASENAME, { error: 'must be a URL path such as docs or docs/api (letters, digits, "-", "_", ".", "~" and "/")' })
    .nullable()
    .optional(),
  adaptiveContent: inputType('SiteAdaptiveContentInput', z.object({ enabled: z.boolean({ error: 'must be true or false' }) })).optional(),
  agentsContext: oneOf(AGENTS_CONTEXTS).optional(),
  /** A site space of this site: at the root level, or in the default section of a site with sections. */
  defaultSiteSpace: shownAs('ID', text({ min: 1, max: 255 })).optional(),
  /** A section of this site. */
  defaultSiteSection: shownAs('ID', text({ min: 1, max: 255 })).optional(),
  proxy: text({ max: 512 })
    .regex(PROXY_ORIGIN, { error: 'must be a host followed by a path, such as company.com/docs' })
    .nullable()
    .optional()
    .describe('A proxy origin such as `company.com/docs`; null removes it.'),
});
