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

/*
 * A batch of content changes (the current client's updateChangeRequestContent): each change is one of
 * 0.202.0's ChangeRequestContentChange variants, told apart by `operation`.
 */

/** A page body: markdown (this server stores bodies as markdown), or `{}` for an empty one. */
const BatchDocument = z
  .object({
    markdown: pageFields.markdown.optional(),
    document: z.unknown().optional(),
  })
  .strict()
  .refine((d) => d.document === undefined, { error: 'send the body as markdown: this server does not take JSON documents' });

/** 0.202.0's RevisionPageUpdate: page metadata set when inserting or updating a page. */
const batchPageFields = {
  title: pageFields.title.optional(),
  slug: text({ min: 1, max: 100 })
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be lower-case letters and digits, words joined by "-"' })
    .optional(),
  emoji: z.union([z.literal(''), emoji]).optional(),
  icon: text({ max: 50 }).optional(),
  description: pageFields.description.unwrap().optional(),
  hidden: flag.optional(),
  noIndex: flag.optional(),
  noRobotsIndex: flag.optional(),
  condition: z
    .string({ error: 'must be a string' })
    .refine((c) => c === '', { error: 'this server keeps no adaptive-content conditions on pages (only "" is taken)' })
    .optional(),
};

const pageId = z.string({ error: 'must be a page id' }).min(1, { error: 'must be a page id' });
const index = z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(0, { error: 'must be at least 0' });
/** A batch-local reference: letters, digits, ".", "_" and "-" (it is matched against link paths). */
const ref = text({ min: 1, max: 100 }).regex(/^[\w.-]+$/, { error: 'must be letters, digits, ".", "_" or "-"' });

const BatchFile = z
  .object({
    ref: ref.optional(),
    name: UploadFileInput.shape.name,
    contentType: UploadFileInput.shape.contentType.unwrap().unwrap().optional(),
    url: z.string({ error: 'must be a string' }).optional(),
    base64: UploadFileInput.shape.content.max(Math.ceil(1_048_576 / 3) * 4, { error: 'must be at most 1 MiB once decoded' }).optional(),
  })
  .strict()
  .refine((f) => f.url === undefined, { error: 'url: this server does not fetch files: send the bytes as base64' })
  .refine((f) => f.base64 !== undefined, { error: 'base64 is required' })
  .refine((f) => f.contentType !== undefined, { error: 'contentType is required with base64' });

const BatchChange = z.discriminatedUnion(
  'operation',
  [
    z
      .object({
        operation: z.literal('insert_page'),
        ...batchPageFields,
        document: BatchDocument,
        into: pageId.optional(),
        at: index.optional(),
        ref: ref.optional(),
      })
      .strict(),
    z
      .object({
        operation: z.literal('update_page'),
        ...batchPageFields,
        page: pageId,
        document: BatchDocument.optional(),
        into: pageId.nullable().optional(),
        at: index.optional(),
      })
      .strict(),
    z.object({ operation: z.literal('delete_page'), page: pageId }).strict(),
    z
      .object({
        operation: z.literal('revert_page'),
        page: pageId,
        revision: z.string({ error: 'must be a revision id' }).optional(),
        block: z.array(z.string()).optional(),
      })
      .strict()
      .refine((c) => c.block === undefined, { error: 'block: this server stores bodies as markdown and reverts whole pages only' }),
    z
      .object({
        operation: z.literal('insert_files'),
        files: z.array(BatchFile).min(1, { error: 'must list at least 1 file' }).max(20, { error: 'must list at most 20 files' }),
      })
      .strict(),
  ],
  { error: 'operation: must be one of insert_page, update_page, delete_page, revert_page, insert_files' },
);
export type BatchChange = z.infer<typeof BatchChange>;

export const UpdateChangeRequestContentInput = z.object({
  changes: z
    .array(BatchChange)
    .min(1, { error: 'must list at least 1 change' })
    .max(50, { error: 'must list at most 50 changes' })
    .describe("1 to 50 changes (0.202.0's ChangeRequestContentChange), applied in order, all or none."),
});
