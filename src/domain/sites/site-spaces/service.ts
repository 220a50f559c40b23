import { publishableSpace, slugOf, uniquePath } from '../index.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Clock } from '../../../kernel/clock.js';
import type { Context } from '../../../kernel/context.js';
import { badRequest, conflict, notFound } from '../../../kernel/errors.js';
import { whenLoaded } from '../../../kernel/loader.js';
import type { PageArgs } from '../../../kernel/pagination.js';
import { parseInput } from '../../../kernel/validation.js';
import { AddSiteSpaceInput, SiteSpacePositionInput, UpdateSiteSpaceInput } from './inputs.js';
import { newId } from '../../../kernel/ids.js';
import { byPosition, placeAmong } from '../../../kernel/ordering.js';
import type { SpaceRow } from '../../spaces/index.js';
import { validateCondition } from '../index.js';
import { Site, SiteSection, SiteSpace, type SiteEntity, type SiteRow, type SiteSectionEntity, type SiteSpaceEntity, type SiteSpaceRow } from '../index.js';
import { sectionOfSite } from '../index.js';
import { siteSpacePublishedUrl } from '../index.js';
import { recordStructureChange } from '../index.js';
import type { Shape } from '../../../db/read-shapes.js';

const MoveSiteSpaceInput = z.object({ position: SiteSpacePositionInput.optional() });

export type SiteSpaceListArgs = PageArgs & { default?: boolean | null };

// ─── reading ──────────────────────────────────────────────────────────────────────────────────────────

/** True when the site space is the default of its section, or of the site's root level. */
export function isDefaultSiteSpace(ctx: Context, row: SiteSpaceRow): boolean | Promise<boolean> {
  if (row.section) return whenLoaded(sectionOfSite(ctx, row.site, row.section), (section) => section?.defaultSiteSpace === row.id);
  return whenLoaded(ctx.loaders.site.get(row.site), (site) => site?.defaultSiteSpace === row.id);
}

/**
 * The site's spaces in navigation order: root-level ones first, then section by section (top-level
 * sections and groups by position, sections of a group by position within it), each section's site
 * spaces by position. `default`: true keeps only the default of each section (or of the root level),
 * false only the others.
 */
export function listSiteSpaces(ctx: Context, siteId: string, { default: isDefault, ...args }: SiteSpaceListArgs, shape?: Shape) {
  const list = isDefault === true ? ctx.lists.defaultSiteSpacesOfSite : isDefault === false ? ctx.lists.otherSiteSpacesOfSite : ctx.lists.siteSpacesOfSite;
  return list.load({ parent: siteId, args, shape });
}

/**
 * The published URL of a site space while its site is published, else null. A share key that opens the
 * site is carried along, so that the URL works for whoever holds it.
 */
export function siteSpaceUrl(ctx: Context, row: SiteSpaceRow, shareKey: string | null): string | null | Promise<string | null> {
  return whenLoaded(ctx.loaders.site.get(row.site), (site) => {
    if (!site?.published) return null;
    return whenLoaded(row.section ? sectionOfSite(ctx, row.site, row.section) : null, (section) => {
      const url = siteSpacePublishedUrl(site, section, row, ctx.config);
      return shareKey ? `${url}?shareKey=${encodeURIComponent(shareKey)}` : url;
    });
  });
}

// ─── changing ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Runs a change to a site's spaces in a transaction holding the site row's lock, so that concurrent
 * changes cannot pick the same path or position, or both become a default. Only `em` may be used
 * inside: on the embedded database a query through the request's loaders would wait for this very
 * transaction.
 */
async function withSiteLocked<T>(ctx: Context, siteId: string, work: (em: EntityManager, site: SiteEntity) => Promise<T>): Promise<T> {
  return ctx.em.transactional(async (em) => {
    const site = await em.findOne(Site, { id: siteId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!site) throw notFound('Site');
    return work(em, site);
  });
}

/** Site spaces of one section (null: the site's root level), in position order. */
async function siteSpacesIn(em: EntityManager, siteId: string, sectionId: string | null): Promise<SiteSpaceRow[]> {
  const rows = await em.find(SiteSpace, { site: siteId, section: sectionId }, { orderBy: { position: 'asc', id: 'asc' }, refresh: true });
  return rows.sort(byPosition);
}

/** The site space `id` of the site, inside a locked change; 404 when it belongs to another site or none. */
async function lockedSiteSpace(em: EntityManager, siteId: string, id: string): Promise<SiteSpaceEntity> {
  const row = await em.findOne(SiteSpace, { id, site: siteId }, { refresh: true });
  if (!row) throw notFound('Site space');
  return row;
}

/** A site space of the site through the request's loaders (for checks before a locked change). */
async function siteSpaceOfSite(ctx: Context, siteId: string, id: string): Promise<SiteSpaceRow> {
  const row = await ctx.loaders.siteSpace.load(id);
  if (!row || row.site !== siteId) throw notFound('Site space');
  return row;
}

/** The section a site space goes to when none is named: the site's default section, else its first, else none. */
async function defaultSectionOf(em: EntityManager, site: SiteRow): Promise<SiteSectionEntity | null> {
  if (site.defaultSection) {
    const section = await em.findOne(SiteSection, { id: site.defaultSection, site: site.id });
    if (section) return section;
  }
  // A site with sections always names a default; should it not, the oldest section stands in for it.
  const [oldest] = await em.find(SiteSection, { site: site.id }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1 });
  return oldest ?? null;
}

const placeName = (sectionId: string | null | undefined) => (sectionId ? 'section' : "site's root level");

/**
 * Publishes `space` in `site`, in `section` (null: the root level of a site without sections): its path
 * is the slug of the space's title, unique among the siblings; it goes last (or just after the sibling
 * `place.after`), with `place.condition` if any; it becomes the default of its section (or of the root
 * level) when that has no default yet. The caller has checked the space and the section and runs inside
 * the site's lock; the row is flushed with the transaction. Exported for the operations that publish
 * spaces while creating a site or a section, or duplicating a site space.
 */
export async function attachSpace(
  em: EntityManager,
  clock: Clock,
  site: SiteEntity,
  section: SiteSectionEntity | null,
  space: SpaceRow,
  place: { after?: string; condition?: string | null } = {},
): Promise<SiteSpaceRow> {
  const siblings = await siteSpacesIn(em, site.id, section?.id ?? null);
  if (siblings.some((s) => s.space === space.id)) {
    throw conflict(`spaceId: space "${space.id}" is already published in this ${placeName(section?.id)}`);
  }
  const row = em.create(SiteSpace, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    section: section?.id ?? null,
    space: space.id,
    path: uniquePath(slugOf(space.title, 'space'), new Set(siblings.map((s) => s.path))),
    condition: place.condition ?? null,
    position: placeAmong(siblings, { after: place.after }),
    createdAt: clock.now(),
  });
  const holder = section ?? site;
  if (!holder.defaultSiteSpace || !siblings.some((s) => s.id === holder.defaultSiteSpace)) holder.defaultSiteSpace = row.id;
  return row;
}

/** Publishes a space in a site (contract 4.8 POST site-spaces). */
export async function addSiteSpace(ctx: Context, siteId: string, input: unknown): Promise<SiteSpaceRow> {
  const fields = parseInput(AddSiteSpaceInput, input);
  const site = (await ctx.loaders.site.load(siteId))!;
  const space = await publishableSpace(ctx, site.organization, fields.spaceId, 'spaceId');
  return withSiteLocked(ctx, siteId, async (em, lockedSite) => {
    let section: SiteSectionEntity | null;
    if (fields.sectionId) {
      section = await em.findOne(SiteSection, { id: fields.sectionId, site: siteId });
      if (!section) throw badRequest(`sectionId: no section "${fields.sectionId}" in this site`);
    } else {
      section = await defaultSectionOf(em, lockedSite);
    }
    const row = await attachSpace(em, ctx.clock, lockedSite, section, space);
    recordStructureChange(ctx, em, lockedSite, { object: 'site-space', id: row.id, change: 'added' });
    return row;
  });
}

/** Changes a site space's path, condition or space (contract 4.8 PATCH site-spaces/{id}). */
export async function updateSiteSpace(ctx: Context, siteId: string, id: string, input: unknown): Promise<SiteSpaceRow> {
  const changes = parseInput(UpdateSiteSpaceInput, input);
  await siteSpaceOfSite(ctx, siteId, id);
  const site = (await ctx.loaders.site.load(siteId))!;
  const space = changes.spaceId !== undefined ? await publishableSpace(ctx, site.organization, changes.spaceId, 'spaceId') : null;
  if (typeof changes.condition === 'string') {
    const schema = await ctx.loaders.adaptiveSchema.load(siteId);
    validateCondition(changes.condition, schema?.jsonSchema ?? null);
  }
  return withSiteLocked(ctx, siteId, async (em, lockedSite) => {
    const row = await lockedSiteSpace(em, siteId, id);
    const before = { ...row };
    const needSiblings = (changes.path !== undefined && changes.path !== row.path) || (space && space.id !== row.space);
    const siblings = needSiblings ? (await siteSpacesIn(em, siteId, row.section ?? null)).filter((s) => s.id !== row.id) : [];
    const place = placeName(row.section);
    if (changes.path !== undefined && changes.path !== row.path) {
      if (siblings.some((s) => s.path === changes.path)) {
        throw conflict(`path: "${changes.path}" is already the path of another site space of this ${place}`);
      }
      row.path = changes.path;
    }
    if (space && space.id !== row.space) {
      if (siblings.some((s) => s.space === space.id)) throw conflict(`spaceId: space "${space.id}" is already published in this ${place}`);
      row.space = space.id;
    }
    if (changes.condition !== undefined && changes.condition !== row.condition) row.condition = changes.condition;
    const changed = [
      ...(changes.path !== undefined && changes.path !== before.path ? ['path'] : []),
      ...(space && space.id !== before.space ? ['space'] : []),
      ...(changes.condition !== undefined && changes.condition !== before.condition ? ['condition'] : []),
    ];
    if (changed.length) recordStructureChange(ctx, em, lockedSite, { object: 'site-space', id: row.id, change: 'updated', changes: changed });
    return row;
  });
}

/**
 * Removes a site space inside a locked change. When it was a default, the site space that followed it
 * in its section (or root level) takes over, else the one before it, else none.
 */
async function removeSiteSpace(em: EntityManager, site: SiteEntity, row: SiteSpaceEntity): Promise<void> {
  const section = row.section ? await em.findOne(SiteSection, { id: row.section }, { refresh: true }) : null;
  const holders = [site, section].filter((h): h is SiteEntity | SiteSectionEntity => !!h && h.defaultSiteSpace === row.id);
  if (holders.length) {
    const siblings = await siteSpacesIn(em, site.id, row.section ?? null);
    const index = siblings.findIndex((s) => s.id === row.id);
    const successor = siblings[index + 1] ?? siblings[index - 1] ?? null;
    for (const holder of holders) holder.defaultSiteSpace = successor?.id ?? null;
  }
  em.remove(row);
  await em.flush();
}

/** Removes a space from a site; the space itself stays. */
export async function deleteSiteSpace(ctx: Context, siteId: string, id: string): Promise<void> {
  await withSiteLocked(ctx, siteId, async (em, site) => {
    const row = await lockedSiteSpace(em, siteId, id);
    recordStructureChange(ctx, em, site, { object: 'site-space', id: row.id, change: 'removed' });
    await removeSiteSpace(em, site, row);
  });
}

/**
 * Takes spaces out of every site that publishes them (a space leaving its organization, or purged),
 * handing each default on as deleting the site space would. Runs in the caller's transaction.
 */
export async function unpublishSpaces(em: EntityManager, spaceIds: string[]): Promise<void> {
  if (spaceIds.length === 0) return;
  const rows = await em.find(SiteSpace, { space: { $in: spaceIds } }, { orderBy: { site: 'asc', id: 'asc' } });
  for (const row of rows) {
    const site = await em.findOneOrFail(Site, { id: row.site }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    await removeSiteSpace(em, site, row);
  }
}

/**
 * Reorders a site space among the site spaces of its section (or root level): just before or after a
 * sibling, or last when no position is given.
 */
export async function moveSiteSpace(ctx: Context, siteId: string, id: string, position: unknown): Promise<SiteSpaceRow> {
  const { position: place } = parseInput(MoveSiteSpaceInput, { position });
  await siteSpaceOfSite(ctx, siteId, id);
  return withSiteLocked(ctx, siteId, async (em, site) => {
    const row = await lockedSiteSpace(em, siteId, id);
    const siblings = (await siteSpacesIn(em, siteId, row.section ?? null)).filter((s) => s.id !== row.id);
    row.position = placeAmong(siblings, { before: place?.before?.siteSpace, after: place?.after?.siteSpace });
    recordStructureChange(ctx, em, site, { object: 'site-space', id: row.id, change: 'moved' });
    return row;
  });
}
