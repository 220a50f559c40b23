import { z } from 'zod';
import { emoji } from '../../kernel/emoji.js';
import { inputType, shownAs } from '../../kernel/input-types.js';
import { oneOf, text } from '../../kernel/validation.js';

const flag = z.boolean({ error: 'must be true or false' });

const PageLayoutInput = inputType(
  'PageLayoutInput',
  z
    .object({
      width: oneOf(['default', 'wide']).describe('default or wide.'),
      cover: flag,
      coverSize: oneOf(['hero', 'full']).describe('hero or full.'),
      coverMask: oneOf(['none', 'radial']).describe('none or radial.'),
      title: flag,
      description: flag,
      tableOfContents: flag,
      outline: flag,
      pagination: flag,
      metadata: flag,
      tags: flag,
      actions: flag,
      anchors: flag,
    })
    .partial(),
);

const PageCoverInput = inputType(
  'PageCoverInput',
  z
    .object({
      file: shownAs('ID', z.string()).optional().nullable(),
      url: z.url({ error: 'must be a URL' }).max(2048).optional().nullable(),
      yPos: z.number().optional().nullable(),
    })
    .describe('A cover image: a file of the change request or a URL (exactly one).')
    .refine((c) => !!c.file !== !!c.url, { error: 'give exactly one of file and url' }),
);

/** Editable fields of a page; bounds are this server's (the contract sets none). */
const pageFields = {
  title: text({ min: 1, max: 100 }),
  emoji: emoji.nullable(),
  icon: text({ max: 50 }).nullable(),
  description: text({ max: 500 }).nullable(),
  markdown: z.string({ error: 'must be a string' }).max(1_000_000, { error: 'must be at most 1000000 characters' }),
  hidden: flag,
  noIndex: flag,
  noRobotsIndex: flag,
  layout: PageLayoutInput,
  cover: PageCoverInput.nullable(),
};

const PagePositionInput = inputType(
  'PagePositionInput',
  z
    .object({ before: shownAs('ID', z.string()).optional().nullable(), after: shownAs('ID', z.string()).optional().nullable() })
    .describe('Siblings to place a page between (page ids); omitted: at the end.'),
);

export const CreatePageInput = z.object({
  ...pageFields,
  title: pageFields.title.describe('1 to 100 characters.'),
  emoji: pageFields.emoji.optional(),
  icon: pageFields.icon.optional(),
  description: pageFields.description.optional().describe('At most 500 characters.'),
  markdown: pageFields.markdown.optional().describe('The body (at most 1,000,000 characters).'),
  hidden: flag.optional(),
  noIndex: flag.optional(),
  noRobotsIndex: flag.optional(),
  layout: PageLayoutInput.optional(),
  cover: pageFields.cover.optional(),
  parent: shownAs('ID', z.string()).optional().nullable().describe('Parent page id; omitted or null: top level.'),
  position: PagePositionInput.optional().nullable(),
});

export const UpdatePageInput = z
  .object({ ...pageFields, emoji: pageFields.emoji.describe('null removes it.'), cover: pageFields.cover.describe('null removes it.') })
  .partial();

export const MovePageInput = z.object({
  parent: shownAs('ID', z.string()).nullable().optional().describe('New parent page id; null: top level; omitted: the same parent.'),
  position: PagePositionInput.optional().nullable(),
});

export const ImportContentInput = z.object({
  url: text({ min: 1, max: 2048 })
    .refine((u) => URL.canParse(u), { error: 'must be a URL' })
    .describe('The first page to import (http or https, at most 2048 characters).'),
  source: oneOf(['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'])
    .refine((s) => s === 'website', {
      error: 'only "website" is supported by this server',
    })
    .describe('What `url` is; this server imports "website" only.'),
});

export const UploadFileInput = z.object({
  name: text({ min: 1, max: 255 })
    .refine((name) => !/[/\\\0]/.test(name), { error: 'must not contain "/", "\\" or NUL' })
    .describe('1 to 255 characters, no "/".'),
  contentType: text({ max: 255 })
    .regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, { error: 'must be a media type such as image/png' })
    .optional()
    .nullable()
    .describe('Media type; omitted: detected for images, else application/octet-stream.'),
  content: z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'must be base64' })
    .describe('The bytes, base64-encoded (at most 5 MiB decoded).'),
});
