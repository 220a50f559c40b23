import { z } from 'zod';
import { inputType, shownAs } from '../../kernel/input-types.js';
import { oneOf, text } from '../../kernel/validation.js';

export const slug = text({ min: 1, max: 100 }).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
  error: 'must be lowercase letters and digits in words joined by single hyphens',
});

/** Exactly one of `url` (an http(s) URL of at most 2048 characters) and `text` (the specification). */
export const OpenAPISpecSourceInput = inputType(
  'OpenAPISpecSourceInput',
  z
    .object({
      url: z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
        .max(2048, { error: 'must be at most 2048 characters' })
        .optional()
        .describe('An http(s) URL, fetched at each processing.'),
      text: z.string().min(1, { error: 'must not be empty' }).optional().describe('The specification itself, JSON or YAML.'),
    })
    .refine((source) => !!source.url !== !!source.text, { error: 'give exactly one of url and text' })
    .describe('Where a specification comes from: exactly one of `url` and `text`.'),
);

export const CreateOpenAPISpecInput = z.object({
  slug: slug.describe('1-100 characters: lowercase letters and digits in words joined by single hyphens; unique in the organization.'),
  source: OpenAPISpecSourceInput,
});

export const PutOpenAPISpecInput = z.object({ source: OpenAPISpecSourceInput });

/** Who may see a specification (0.202.0's `OpenAPISpecVisibility`). */
export const VISIBILITIES = ['private', 'public'] as const;

export const UpdateOpenAPISpecInput = z.object({
  visibility: shownAs('OpenAPISpecVisibility', oneOf(VISIBILITIES)).describe('`private` (what a new specification is) or `public`.'),
});
