import { isDeepStrictEqual } from 'node:util';
import { Ajv } from 'ajv';
import sql, { empty } from 'sql-template-tag';
import { creationOrder } from '../../../db/creation-order.js';
import { execute } from '../../../db/statements.js';
import { readPage } from '../../../db/pages.js';
import { containsIgnoringCase } from '../../../db/text-match.js';
import { atLeast } from '../../../kernel/roles.js';
import type { Context } from '../../../kernel/context.js';
import { badRequest, conflict, DomainError, notFound } from '../../../kernel/errors.js';
import { found } from '../../../kernel/loader.js';
import type { PageArgs } from '../../../kernel/pagination.js';
import { parseInput } from '../../../kernel/validation.js';
import { CreateSiteInput, SITE_TYPES, UpdateSiteInput } from './inputs.js';
import { newId } from '../../../kernel/ids.js';
import { byPosition } from '../../../kernel/ordering.js';
import type { SpaceRow } from '../../spaces/index.js';
import { createSpace } from '../../spaces/index.js';
import { forgetSiteInsights } from '../../insights/index.js';
import { validateCondition } from '../index.js';
import { defaultSiteCustomization } from './customizations.js';
import { sectionsInNavigationOrder, topLevelRows } from '../sections/index.js';
import { attachSpace } from '../site-spaces/index.js';
import {
  Site,
  SiteAdaptiveSchema,
  SiteSection,
  type SiteAdaptiveSchemaRow,
  type SiteEntity,
  type SiteRow,
  type SiteSectionRow,
  type SiteSpaceRow,
} from '../index.js';
import { applyChanges } from '../../../events/changes.js';
import { recordSiteEvent } from '../index.js';
import type { StructureShapes } from '../index.js';

const DEFAULT_SITE_TITLE = 'Untitled site';

// ─── reading ─────────────────────────────────────────────────────────────────────────────────────────

export type SiteFilters = { space?: string | null; title?: string | null; published?: boolean | null; type?: string[] | null };

/** Sites of an organization matching the filters, oldest first. */
export async function listSites(ctx: Context, organizationId: string, filters: SiteFilters, args: PageArgs) {
  for (const type of filters.type ?? []) {
    if (!(SITE_TYPES as readonly string[]).includes(type)) throw badRequest(`type: must be one of: ${SITE_TYPES.join(', ')}`);
  }
  const where = sql`s.organization_id = ${organizationId}
    ${filters.space ? sql`and exists (select 1 from site_space p where p.site_id = s.id and p.space_id = ${filters.space})` : empty}
    ${filters.title ? sql`and ${containsIgnoringCase('s.title', filters.title)}` : empty}
    ${filters.published !== undefined && filters.published !== null ? sql`and s.published = ${filters.published}` : empty}
    ${filters.type?.length ? sql`and s.type = any(${filters.type}::text[])` : empty}`;
  return readPage(ctx.em, { entity: Site, alias: 's', where, order: creationOrder<SiteRow>('s') }, args);
}

/** The site behind a guarded root field (the guard has already loaded and checked it). */
async function guardedSite(ctx: Context, id: string): Promise<SiteRow> {
  const site = await ctx.loaders.site.load(id);
  if (!site) throw notFound('Site');
  return site;
}

/**
 * The site's entity, for a change (the `site` loader hands out plain rows); the request's later reads
 * of the site see the change.
 */
async function siteToChange(ctx: Context, id: string): Promise<SiteEntity> {
  const site = await ctx.em.findOne(Site, { id });
  if (!site) throw notFound('Site');
  return site;
}

/** The site's default section: the one it names, else the first in navigation order; null without sections. */
export async function defaultSiteSection(ctx: Context, site: SiteRow): Promise<SiteSectionRow | null> {
  const [sections, groups] = await Promise.all([ctx.loaders.sectionsBySite.load(site.id), ctx.loaders.groupsBySite.load(site.id)]);
  return sections.find((s) => s.id === site.defaultSection) ?? sectionsInNavigationOrder(sections, groups)[0] ?? null;
}

/**
 * The site's default site space: with sections, the default of the default section (the one it
 * names, else its first); without, the root-level one the site names, else the first.
 */
export async function defaultSiteSpace(ctx: Context, site: SiteRow): Promise<SiteSpaceRow | null> {
  const siteSpaces = await ctx.loaders.siteSpacesBySite.load(site.id);
  const section = await defaultSiteSection(ctx, site);
  const candidates = siteSpaces.filter((s) => (s.section ?? null) === (section?.id ?? null)).sort(byPosition);
  const named = section ? section.defaultSiteSpace : site.defaultSiteSpace;
  return candidates.find((s) => s.id === named) ?? candidates[0] ?? null;
}

/**
 * What a site shows at its top level: its top-level sections and section groups in position order
 * when it has sections, else its root-level site spaces in position order.
 */
export async function siteStructure(ctx: Context, site: SiteRow, shapes?: StructureShapes) {
  if (shapes) {
    const read = await ctx.loaders.structureOf(shapes).load(site.id);
    if (read?.hasSections) return { type: 'sections', structure: read.topLevel };
    return { type: 'siteSpaces', structure: read?.siteSpaces ?? [] };
  }
  const [sections, groups] = await Promise.all([ctx.loaders.sectionsBySite.load(site.id), ctx.loaders.groupsBySite.load(site.id)]);
  if (sections.length > 0) return { type: 'sections', structure: topLevelRows(sections, groups) };
  const siteSpaces = await ctx.loaders.siteSpacesBySite.load(site.id);
  return { type: 'siteSpaces', structure: siteSpaces.filter((s) => !s.section).sort(byPosition) };
}

/** Share links of the site, oldest first; they carry secret keys, so the field's guard lets only site admins see them. */
export async function pageOfShareLinks(ctx: Context, site: SiteRow, args: PageArgs) {
  return ctx.lists.shareLinksOfSite.load({ parent: site.id, args });
}

/** The site's adaptive schema; 404 while none is set (as the reference answers). */
export async function getAdaptiveSchema(ctx: Context, siteId: string): Promise<SiteAdaptiveSchemaRow> {
  const schema = await ctx.loaders.adaptiveSchema.load(siteId);
  if (!schema) throw notFound('Site adaptive schema');
  return schema;
}

/** The site of a published-content read: its readers see it, others (a share key's holders) only once it is published. */
async function publishedSite(ctx: Context, siteId: string): Promise<SiteRow> {
  const site = await guardedSite(ctx, siteId);
  if (!site.published && !atLeast(await ctx.policy.siteRole(site), 'read')) throw notFound('Site');
  return site;
}

/** The structure of a site as its published content has it (`getSiteStructure`). */
export async function publishedStructure(ctx: Context, siteId: string, shapes?: StructureShapes) {
  return siteStructure(ctx, await publishedSite(ctx, siteId), shapes);
}

/**
 * The published experience of a site: the site, its structure, its customization tree and scripts.
 * Members who may read the site see it whether or not it is published (a preview); anyone let in by a
 * share key (an outsider or a guest) sees it only while the site is published.
 */
export async function publishedContentSite(ctx: Context, siteId: string, shapes?: StructureShapes) {
  const site = await publishedSite(ctx, siteId);
  return {
    object: 'published-content-site',
    site,
    structure: await siteStructure(ctx, site, shapes),
    customizations: { site: defaultSiteCustomization(site), siteSpaces: {} },
    scripts: [],
  };
}

// ─── creating ────────────────────────────────────────────────────────────────────────────────────────

/** The spaces named by `spaces`: each a live space of the organization that the viewer can read. */
async function spacesToPublish(ctx: Context, organizationId: string, ids: string[]): Promise<SpaceRow[]> {
  const spaces = await ctx.loaders.space.loadMany(ids);
  const seen = new Set<string>();
  const found: SpaceRow[] = [];
  for (const [index, id] of ids.entries()) {
    const space = spaces[index];
    const usable = space && !(space instanceof Error) && space.organization === organizationId && !space.deletedAt;
    if (!usable || !atLeast(await ctx.policy.spaceRole(space), 'read')) throw badRequest(`spaces.${index}: no space "${id}" in this organization`);
    if (seen.has(id)) throw badRequest(`spaces.${index}: space "${id}" is listed twice`);
    seen.add(id);
    found.push(space);
  }
  return found;
}

/**
 * Creates a site (basic, public and unpublished unless said otherwise). `spaces` lists spaces of the
 * organization to publish at the root level, in that order, each under a path made from its title;
 * "empty" or "sample" first creates a new space named after the site and publishes it. The first site
 * space becomes the default.
 */
export async function createSite(ctx: Context, organizationId: string, input: unknown): Promise<SiteRow> {
  const fields = parseInput(CreateSiteInput, input);
  const title = fields.title ?? DEFAULT_SITE_TITLE;
  const spaces =
    typeof fields.spaces === 'string'
      ? [await createSpace(ctx, organizationId, { title: Array.from(title).slice(0, 50).join('').trimEnd() })]
      : await spacesToPublish(ctx, organizationId, fields.spaces ?? []);
  // Only `em` inside: on the embedded database a query through the request's loaders would wait for this transaction.
  return ctx.em.transactional(async (tx) => {
    const em = tx;
    const now = ctx.clock.now();
    const site = em.create(Site, {
      id: newId(),
      organization: organizationId,
      type: fields.type ?? 'basic',
      title,
      hostname: null,
      basename: null,
      proxyOrigin: null,
      visibility: fields.visibility ?? 'public',
      published: false,
      adaptiveContentEnabled: false,
      agentsContext: 'included',
      defaultSection: null,
      defaultSiteSpace: null,
      createdAt: now,
      updatedAt: now,
    });
    for (const space of spaces) await attachSpace(em, ctx.clock, site, null, space);
    recordSiteEvent(ctx, em, 'site.created', site);
    return site;
  });
}

// ─── changing ────────────────────────────────────────────────────────────────────────────────────────

/**
 * Changes a site's settings. `defaultSiteSection` is applied before `defaultSiteSpace`, so one request
 * can pick a section and its default site space.
 */
export async function updateSite(ctx: Context, id: string, input: unknown): Promise<SiteRow> {
  const changes = parseInput(UpdateSiteInput, input);
  const site = await siteToChange(ctx, id);
  if (changes.defaultSiteSection !== undefined) {
    const section = await ctx.loaders.siteSection.load(changes.defaultSiteSection);
    if (section?.site !== site.id) throw badRequest(`defaultSiteSection: no section "${changes.defaultSiteSection}" in this site`);
  }
  if (changes.proxy != null && changes.proxy !== site.proxyOrigin && (await ctx.em.count(Site, { proxyOrigin: changes.proxy, id: { $ne: site.id } })) > 0) {
    throw conflict(`proxy: "${changes.proxy}" is already the proxy of another site`);
  }
  const now = ctx.clock.now();
  const changed = applyChanges(
    site,
    {
      title: changes.title,
      visibility: changes.visibility,
      basename: changes.basename,
      adaptiveContentEnabled: changes.adaptiveContent?.enabled,
      agentsContext: changes.agentsContext,
      defaultSection: changes.defaultSiteSection,
      proxyOrigin: changes.proxy,
    },
    now,
  ).map((field) => API_NAME_OF_FIELD[field] ?? field);
  if (changes.defaultSiteSpace !== undefined && (await setDefaultSiteSpace(ctx, site, changes.defaultSiteSpace))) {
    changed.push('defaultSiteSpace');
    site.updatedAt = now;
  }
  if (!changed.length) return site;
  recordSiteEvent(ctx, ctx.em, 'site.updated', site, changed);
  await ctx.em.flush();
  return site;
}

/** The site's fields that the API names otherwise (an update event's `changes` lists the API's names). */
const API_NAME_OF_FIELD: Readonly<Record<string, string>> = {
  adaptiveContentEnabled: 'adaptiveContent',
  defaultSection: 'defaultSiteSection',
  proxyOrigin: 'proxy',
};

/** Makes a site space the default of the site (or of its default section); false when it already was. */
async function setDefaultSiteSpace(ctx: Context, site: SiteEntity, siteSpaceId: string): Promise<boolean> {
  const siteSpace = await ctx.loaders.siteSpace.load(siteSpaceId);
  if (siteSpace?.site !== site.id) throw badRequest(`defaultSiteSpace: no site space "${siteSpaceId}" in this site`);
  const section = await defaultSiteSection(ctx, site);
  if (!section) {
    if (siteSpace.section) throw badRequest(`defaultSiteSpace: site space "${siteSpaceId}" is not at the site's root level`);
    return applyChanges(site, { defaultSiteSpace: siteSpace.id }).length > 0;
  }
  if (siteSpace.section !== section.id) throw badRequest(`defaultSiteSpace: site space "${siteSpaceId}" is not in the site's default section`);
  // Loaders hold plain rows: the change goes to the section's entity.
  const managed = await found(ctx.em.findOne(SiteSection, { id: section.id }), 'Site section');
  return applyChanges(managed, { defaultSiteSpace: siteSpace.id }).length > 0;
}

/**
 * Deletes a site; its sections, groups, site spaces, share links and adaptive schema go with it (ON DELETE
 * CASCADE), its insights rollups at once and its raw events by a durable job. Spaces stay.
 */
export async function deleteSite(ctx: Context, id: string): Promise<void> {
  const site = await guardedSite(ctx, id);
  await ctx.em.transactional(async (em) => {
    // A concurrent delete got there first: it announced the deletion.
    if ((await em.nativeDelete(Site, { id })) === 0) return;
    // The organization's default content no longer points at it.
    await execute(em, sql`update "organization" set default_content = null where id = ${site.organization} and default_content->>'site' = ${id}`);
    await forgetSiteInsights(em, ctx.clock, id);
    recordSiteEvent(ctx, em, 'site.deleted', site);
  });
}

/** Puts the site live (or takes it down) for the audience its visibility sets. */
export async function setPublished(ctx: Context, id: string, published: boolean): Promise<SiteRow> {
  const site = await siteToChange(ctx, id);
  if (site.published !== published) {
    site.published = published;
    site.updatedAt = ctx.clock.now();
    recordSiteEvent(ctx, ctx.em, published ? 'site.published' : 'site.unpublished', site);
    await ctx.em.flush();
  }
  return site;
}

// ─── adaptive schema ─────────────────────────────────────────────────────────────────────────────────

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';
/** Objects of attributes nest at most this deep (a bound on the work one request can cause). */
const MAX_ATTRIBUTE_DEPTH = 10;

// Only meta-validation and compilation; compiled user schemas are removed again so that none accumulate.
const ajv = new Ajv({ allErrors: false });

const invalid = (at: string, reason: string) => badRequest(`${at}: ${reason}`);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function allowOnly(schema: Record<string, unknown>, keys: string[], at: string) {
  const extra = Object.keys(schema).find((key) => !keys.includes(key));
  if (extra !== undefined) throw invalid(at, `unknown keyword "${extra}" (allowed here: ${keys.join(', ')})`);
}

function checkDescription(attribute: Record<string, unknown>, at: string) {
  if (typeof attribute.description !== 'string') throw invalid(`${at}.description`, 'is required: a string that describes the attribute');
}

/** A boolean, number or string attribute (a string may list its values in `enum`). */
function checkPrimitive(attribute: unknown, at: string) {
  if (!isObject(attribute)) throw invalid(at, 'must be an object: the schema of the attribute');
  if (attribute.type === 'boolean' || attribute.type === 'number') allowOnly(attribute, ['type', 'description'], at);
  else if (attribute.type === 'string') {
    allowOnly(attribute, ['type', 'description', 'enum'], at);
    if ('enum' in attribute) {
      const values = attribute.enum;
      if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string')) {
        throw invalid(`${at}.enum`, 'must be a non-empty array of strings');
      }
    }
  } else return false;
  checkDescription(attribute, at);
  return true;
}

function checkAttribute(attribute: unknown, at: string, depth: number) {
  if (checkPrimitive(attribute, at)) return;
  const schema = attribute as Record<string, unknown>;
  if (schema.type === 'array') {
    allowOnly(schema, ['type', 'description', 'items'], at);
    checkDescription(schema, at);
    if (!('items' in schema)) throw invalid(`${at}.items`, 'is required: the schema of the elements (boolean, number or string)');
    if (!checkPrimitive(schema.items, `${at}.items`)) throw invalid(`${at}.items.type`, 'must be one of: boolean, string, number');
    return;
  }
  if (schema.type === 'object') {
    allowOnly(schema, ['type', 'description', 'properties', 'additionalProperties'], at);
    checkDescription(schema, at);
    if (depth >= MAX_ATTRIBUTE_DEPTH) throw invalid(at, `attributes may nest at most ${MAX_ATTRIBUTE_DEPTH} objects deep`);
    checkAttributes(schema.properties, `${at}.properties`, depth + 1);
    if (schema.additionalProperties !== false) throw invalid(`${at}.additionalProperties`, 'must be false');
    return;
  }
  throw invalid(`${at}.type`, 'must be one of: boolean, string, number, array, object');
}

function checkAttributes(properties: unknown, at: string, depth: number) {
  if (!isObject(properties)) throw invalid(at, 'must be an object mapping attribute names to their schemas');
  for (const [name, attribute] of Object.entries(properties)) {
    if (name === '') throw invalid(at, 'attribute names must not be empty');
    checkAttribute(attribute, `${at}.${name}`, depth);
  }
}

/**
 * Checks an adaptive schema as the reference's SiteAdaptiveJSONSchema describes it: a draft-07 JSON
 * Schema of `type: "object"` with `additionalProperties: false`, whose `properties` are visitor
 * attributes — booleans, numbers, strings (optionally an `enum`), arrays of those, or objects of
 * further attributes — each with a `description`. `unsigned` is reserved for the visitor's unsigned
 * claims: an object described as "Unsigned claims of the site visitor.". Throws a 400 with the reason.
 */
export function validateAdaptiveSchema(jsonSchema: unknown): Record<string, unknown> {
  const at = 'jsonSchema';
  if (!isObject(jsonSchema)) throw invalid(at, 'must be a JSON Schema object');
  allowOnly(jsonSchema, ['$schema', 'type', 'properties', 'additionalProperties'], at);
  if ('$schema' in jsonSchema && jsonSchema.$schema !== DRAFT_07) throw invalid(`${at}.$schema`, `must be "${DRAFT_07}" (draft-07)`);
  if (jsonSchema.type !== 'object') throw invalid(`${at}.type`, 'must be "object"');
  checkAttributes(jsonSchema.properties, `${at}.properties`, 1);
  if (jsonSchema.additionalProperties !== false) throw invalid(`${at}.additionalProperties`, 'must be false');
  const unsigned = (jsonSchema.properties as Record<string, unknown>).unsigned;
  if (unsigned !== undefined) {
    if ((unsigned as Record<string, unknown>).type !== 'object') throw invalid(`${at}.properties.unsigned.type`, 'must be "object" (unsigned claims)');
    if ((unsigned as Record<string, unknown>).description !== UNSIGNED_DESCRIPTION) {
      throw invalid(`${at}.properties.unsigned.description`, `must be "${UNSIGNED_DESCRIPTION}"`);
    }
  }
  if (!ajv.validateSchema(jsonSchema)) throw invalid(at, `not a valid draft-07 JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: at })}`);
  try {
    ajv.compile(jsonSchema);
  } catch (error) {
    throw invalid(at, `does not compile as a JSON Schema: ${(error as Error).message}`);
  } finally {
    ajv.removeSchema(jsonSchema);
  }
  return jsonSchema;
}

/** Conditions of the site's sections and site spaces must keep reading attributes the schema defines. */
async function assertConditionsFit(ctx: Context, siteId: string, jsonSchema: Record<string, unknown>) {
  const [sections, siteSpaces] = await Promise.all([ctx.loaders.sectionsBySite.load(siteId), ctx.loaders.siteSpacesBySite.load(siteId)]);
  const conditioned = [
    ...sections.map((s) => ({ what: `site section "${s.id}"`, condition: s.condition })),
    ...siteSpaces.map((s) => ({ what: `site space "${s.id}"`, condition: s.condition })),
  ];
  for (const { what, condition } of conditioned) {
    if (!condition) continue;
    try {
      validateCondition(condition, jsonSchema, 'condition');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw conflict(`jsonSchema: the condition of ${what} would no longer hold (${error.message}); change the condition first`);
    }
  }
}

/**
 * Sets the JSON Schema of the visitor attributes that the site's conditions may read (creating or
 * replacing it). Refused with 409 when a condition of the site reads an attribute the new schema drops.
 */
export async function updateAdaptiveSchema(ctx: Context, siteId: string, jsonSchema: unknown): Promise<SiteAdaptiveSchemaRow> {
  const site = await guardedSite(ctx, siteId);
  const schema = validateAdaptiveSchema(jsonSchema);
  const current = await ctx.loaders.adaptiveSchema.load(site.id);
  // The same schema again changes nothing.
  if (current && isDeepStrictEqual(current.jsonSchema, schema)) return current;
  await assertConditionsFit(ctx, site.id, schema);
  // One INSERT … ON CONFLICT: two concurrent first writes cannot collide on the primary key.
  const row = await ctx.em.transactional(async (tx) => {
    const upserted = await tx.upsert(SiteAdaptiveSchema, { site: site.id, organization: site.organization, jsonSchema: schema, updatedAt: ctx.clock.now() });
    recordSiteEvent(ctx, tx, 'site.updated', site, ['adaptiveSchema']);
    return upserted;
  });
  return row;
}
