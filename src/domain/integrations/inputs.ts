import { z } from 'zod';
import { inputType, shownAs } from '../../kernel/input-types.js';
import { oneOf, text } from '../../kernel/validation.js';
import { Configurations } from './configurations.js';
import { imageDataUrl } from './images.js';

export const INTEGRATION_SCOPES = [
  'space:views:read',
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:script:inject',
  'space:script:cookies',
  'space:git:sync',
  'space:visitor:auth',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:adaptive:read',
  'site:adaptive:write',
  'openapi:read',
  'openapi:write',
  'conversations:ingest',
] as const;
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'gitsync', 'marketing', 'visitor-auth', 'other'] as const;
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;

/** `^[a-zA-Z0-9-_.]+$`, at most 100 characters: integration names and block domains. */
export const integrationName = text({ min: 1, max: 100 }).regex(/^[a-zA-Z0-9-_.]+$/, { error: 'must be letters, digits, -, _ and .' });

/** Base64 content that must decode as an image; becomes its data: URL. */
const image = z.string({ error: 'must be a base64 string' }).transform((value, ctx) => {
  const url = imageDataUrl(value);
  if (!url) ctx.addIssue({ code: 'custom', message: 'must be the base64 content of an image (PNG, JPEG, GIF, WebP, SVG, …)' });
  return url ?? '';
});

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, { error: 'must be at most 2048 characters' });

/** What a block and a content source both show of themselves. */
const listedItem = {
  id: text({ min: 1, max: 100 }),
  title: text({ min: 2, max: 40 }),
  description: text({ max: 150 }).optional(),
  icon: text({ max: 2048 }).optional(),
};

const Block = z
  .object({
    ...listedItem,
    urlUnfurl: z
      .array(text({ min: 1, max: 2048 }))
      .max(100)
      .optional(),
    markdown: z
      .object({ codeblock: text({ min: 1, max: 100 }), body: text({ min: 1, max: 100 }) })
      .strict()
      .optional(),
  })
  .strict();

const ContentSource = z
  .object({
    ...listedItem,
    configuration: z.object({ componentId: text({ min: 1, max: 100 }) }).strict(),
  })
  .strict();

/** Distinct ids within a list of blocks or content sources. */
const distinctIds = <T extends { id: string }>(items: T[]) => new Set(items.map((item) => item.id)).size === items.length;
const distinct = <T>(values: T[]) => [...new Set(values)];

/** The body of a publish, with the limits of the contract (§4.12, §8) and the reference's enums. */
export const PublishIntegrationInput = z.object({
  organization: text({ min: 1, max: 255 }).describe('Id or subdomain (hostname) of the publishing organization.'),
  title: text({ min: 2, max: 30 }).describe('2-30 characters.'),
  description: text({ max: 100 }).describe('At most 100 characters.'),
  summary: text({ max: 2048 }).optional().describe('Markdown, at most 2048 characters.'),
  icon: image.optional().describe('Base64 of an image (PNG, JPEG, GIF, WebP, SVG, …).'),
  previewImages: z.array(image).max(3, { error: 'must hold at most 3 images' }).optional().describe('At most 3, each the base64 of an image.'),
  visibility: oneOf(INTEGRATION_VISIBILITIES).optional().describe('public (default), private or unlisted.'),
  /** Omitted: installable at all targets. */
  target: oneOf(INTEGRATION_TARGETS).optional().describe('all (default), site, space or organization.'),
  scopes: z.array(oneOf(INTEGRATION_SCOPES)).transform(distinct),
  categories: z.array(oneOf(INTEGRATION_CATEGORIES)).transform(distinct).optional(),
  blocks: shownAs('JSON', z.array(Block).max(100).refine(distinctIds, { error: 'block ids must be distinct' }))
    .optional()
    .describe('Custom blocks: {id, title (2-40), description (max 150), icon, urlUnfurl, markdown {codeblock, body}}.'),
  contentSources: shownAs('JSON', z.array(ContentSource).max(100).refine(distinctIds, { error: 'content source ids must be distinct' }))
    .optional()
    .describe('Content sources: {id, title (2-40), description (max 150), icon, configuration {componentId}}.'),
  externalLinks: z
    .array(inputType('IntegrationExternalLinkInput', z.object({ url, label: text({ min: 1, max: 100 }) })))
    .max(5, { error: 'must hold at most 5 links' })
    .optional()
    .describe('At most 5.'),
  configurations: shownAs('JSON', Configurations).optional(),
  script: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).describe("The integration's script."),
  /** Omitted: the stored secrets stay; null or `{}` removes them. */
  secrets: z
    .record(text({ min: 1, max: 255 }), z.string({ error: 'must be a string' }))
    .nullish()
    .describe('Map of name to string; stored encrypted and never returned.'),
  contentSecurityPolicy: z
    .union([text({ min: 1, max: 10000 }), z.record(z.string().regex(/^[a-z][a-z-]*$/), text({ max: 10000 }))], {
      error: 'must be a policy string or an object of directive strings',
    })
    .optional(),
});
export type PublishIntegrationFields = z.infer<typeof PublishIntegrationInput>;

const SELECTIONS = ['all', 'selected'] as const;

export const InstallIntegrationInput = z.object({
  space_selection: oneOf(SELECTIONS).nullish().describe('`all` spaces (default) or the `selected` ones in `spaces`.'),
  spaces: shownAs('[ID!]', z.array(z.string()).max(1000)).nullish(),
  site_selection: oneOf(SELECTIONS).nullish().describe('`all` sites (default) or the `selected` ones in `sites`.'),
  sites: shownAs('[ID!]', z.array(z.string()).max(1000)).nullish(),
  configuration: z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .nullish()
    .describe("Account configuration, validated against the integration's `configurations.account` schema."),
  externalIds: z
    .array(text({ min: 1, max: 255 }))
    .max(5, { error: 'must hold at most 5 ids' })
    .nullish()
    .describe('At most 5 identifiers given by the integration.'),
});

const externalIds = z
  .array(text({ min: 1, max: 255 }))
  .max(5, { error: 'must hold at most 5 ids' })
  .describe('At most 5 identifiers given by the integration; replaces the stored ones.');
const configuration = (form: string) =>
  z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .describe(`Replaces the configuration; validated against the integration's \`configurations.${form}\` schema.`);

/** 0.202.0's `UpdateIntegrationInstallation`: what an update by id changes of the organization's installation. */
export const UpdateIntegrationInstallationInput = z.object({
  externalIds: externalIds.optional(),
  configuration: configuration('account').optional(),
  space_selection: oneOf(SELECTIONS)
    .optional()
    .describe('`all` spaces, or `selected` ones: from `all`, every live space stays selected (uninstall from spaces then).'),
  site_selection: oneOf(SELECTIONS).optional().describe('`all` sites, or `selected` ones: from `all`, every site stays selected.'),
});

/** 0.202.0's `UpdateIntegrationSpaceInstallation` and `UpdateIntegrationSiteInstallation`. */
export const UpdateIntegrationSpaceInstallationInput = z.object({ externalIds: externalIds.optional(), configuration: configuration('space').optional() });
export const UpdateIntegrationSiteInstallationInput = z.object({ externalIds: externalIds.optional(), configuration: configuration('site').optional() });
