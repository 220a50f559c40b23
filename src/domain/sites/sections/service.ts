import { publishableSpace, slugOf, uniquePath } from '../index.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Context } from '../../../kernel/context.js';
import { alreadyTaken } from '../../../db/database-errors.js';
import { badRequest, notFound } from '../../../kernel/errors.js';
import { sortByKey, type PageArgs } from '../../../kernel/pagination.js';
import { parseInput } from '../../../kernel/validation.js';
import {
  AddSiteSectionGroupInput,
  AddSiteSectionInput,
  SiteSectionGroupPositionInput,
  SiteSectionPositionInput,
  UpdateSiteSectionGroupInput,
  UpdateSiteSectionInput,
} from './inputs.js';
import { newId } from '../../../kernel/ids.js';
import { byPosition, placeAmong, type Ordered } from '../../../kernel/ordering.js';
import { validateCondition } from '../index.js';
import { attachSpace } from '../site-spaces/index.js';
import {
  Site,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  type SiteEntity,
  type SiteSectionEntity,
  type SiteSectionGroupEntity,
  type SiteSectionGroupRow,
  type SiteSectionRow,
} from '../index.js';
import type { Shape } from '../../../db/read-shapes.js';
import { applyChanges } from '../../../events/changes.js';
import { recordStructureChange, type StructureChange } from '../index.js';

// ─── input ──────────────────────────────────────────────────────────────────────────────────────────

const MoveSiteSectionInput = z.object({ position: SiteSectionPositionInput.optional() });
type SiteSectionPointer = { type: string; siteSection: string };
const MoveSiteSectionGroupInput = z.object({ position: SiteSectionGroupPositionInput.optional() });
type SiteSectionGroupPointer = { type: string; id: string };

// ─── the site's layout ──────────────────────────────────────────────────────────────────────────────

/** A top-level item of a site's navigation: a section outside groups, or a group. */
export type TopLevelItem = Ordered & { kind: 'site-section' | 'site-section-group' };

/** A site with its sections and groups, read inside a change that holds the site's lock. */
export type Layout = { em: EntityManager; site: SiteEntity; sections: SiteSectionEntity[]; groups: SiteSectionGroupEntity[] };

/**
 * Runs a change of a site's sections and groups in a transaction that first locks the site row, as
 * every change of a site's structure does (site spaces too): concurrent changes then see each other's
 * positions, paths and first sections instead of computing the same ones. The work reads the current
 * rows from `layout`; what it changes is flushed when it returns. A path taken meanwhile is a 409
 * (by the unique key's mapping, see database-errors.ts).
 */
export async function changeSite<T>(
  ctx: Context,
  siteId: string,
  work: (layout: Layout, changed: (change: StructureChange) => void) => Promise<T> | T,
): Promise<T> {
  return ctx.em.transactional(async (em) => {
    const site = await em.findOne(Site, { id: siteId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!site) throw notFound('Site');
    const orderBy = { position: 'asc', id: 'asc' } as const;
    const sections = await em.find(SiteSection, { site: siteId }, { orderBy, refresh: true });
    const groups = await em.find(SiteSectionGroup, { site: siteId }, { orderBy, refresh: true });
    return work({ em, site, sections, groups }, (change) => recordStructureChange(ctx, em, site, change));
  });
}

/** The site's top level: sections outside groups, and groups, merged in position order. */
export function topLevelRows(sections: SiteSectionRow[], groups: SiteSectionGroupRow[]): (SiteSectionRow | SiteSectionGroupRow)[] {
  return [...sections.filter((s) => !s.sectionGroup), ...groups].sort(byPosition);
}

export function topLevelItems(layout: Pick<Layout, 'sections' | 'groups'>, exceptId?: string): TopLevelItem[] {
  return topLevelRows(layout.sections, layout.groups)
    .filter((row) => row.id !== exceptId)
    .map((row) => ({ id: row.id, position: row.position, kind: 'path' in row ? ('site-section' as const) : ('site-section-group' as const) }));
}

export function sectionsOfGroup(sections: SiteSectionEntity[], groupId: string, exceptId?: string): SiteSectionEntity[] {
  return sections.filter((s) => s.sectionGroup === groupId && s.id !== exceptId).sort(byPosition);
}

export function sectionIn(sections: SiteSectionEntity[], sectionId: string): SiteSectionEntity {
  const section = sections.find((s) => s.id === sectionId);
  if (!section) throw notFound('Site section');
  return section;
}

export function groupIn(groups: SiteSectionGroupEntity[], groupId: string): SiteSectionGroupEntity {
  const group = groups.find((g) => g.id === groupId);
  if (!group) throw notFound('Site section group');
  return group;
}

/**
 * Every section of a site in navigation order: top-level items by position, each group's sections (by
 * their position in the group) at the group's place. A section whose group is missing counts as
 * top-level.
 */
export function sectionsInNavigationOrder(sections: SiteSectionRow[], groups: SiteSectionGroupRow[]): SiteSectionRow[] {
  return sortByKey(sections, navigationKeyOf(groups));
}

/** A section's sort key in navigation order: [top-level position, id] or [group position, group id, position, id]. */
function navigationKeyOf(groups: SiteSectionGroupRow[]) {
  const groupById = new Map(groups.map((g) => [g.id, g]));
  return (s: SiteSectionRow): string[] => {
    const group = s.sectionGroup ? groupById.get(s.sectionGroup) : undefined;
    return group ? [group.position, group.id, s.position, s.id] : [s.position, s.id];
  };
}

// ─── lists ──────────────────────────────────────────────────────────────────────────────────────────

/** Every section of a site (top-level and grouped) in navigation order. */
export function listSiteSections(ctx: Context, siteId: string, args: PageArgs, shape?: Shape) {
  return ctx.lists.sectionsOfSite.load({ parent: siteId, args, shape });
}

/** The section groups of a site by position. */
export function listSiteSectionGroups(ctx: Context, siteId: string, args: PageArgs, shape?: Shape) {
  return ctx.lists.sectionGroupsOfSite.load({ parent: siteId, args, shape });
}

// ─── sections ───────────────────────────────────────────────────────────────────────────────────────

/** The first `max` characters (code points) of a title, without trailing spaces. */
export function truncated(title: string, max: number): string {
  const chars = Array.from(title);
  return chars.length > max ? chars.slice(0, max).join('').trimEnd() : title;
}

/**
 * Adds a section publishing `spaceId` at the end of the site's top level, with a site space of that
 * space inside it (its default site space). Its path is the slug of its title, made unique in the site.
 *
 * First section rule: a site without sections publishes its site spaces at its root level. When it gets
 * its first section those site spaces must not be lost, so they first move (in their order) into a new
 * section titled like the site, which becomes the site's default section, with the site's root default
 * site space (or else the first one) as its default; the requested section follows it. A site without
 * root-level site spaces simply gets the requested section as its default section. A site whose
 * default section is unset (its default was deleted with no other left) also takes the new section.
 */
export async function addSiteSection(ctx: Context, siteId: string, input: unknown): Promise<SiteSectionRow> {
  const fields = parseInput(AddSiteSectionInput, input);
  const space = await publishableSpace(ctx, (await ctx.loaders.site.load(siteId))!.organization, fields.spaceId, 'spaceId');
  return changeSite(ctx, siteId, async (layout, changed) => {
    const { em, site } = layout;
    const takenPaths = new Set(layout.sections.map((s) => s.path));
    const topLevel: Ordered[] = topLevelItems(layout);
    const newSection = (title: string, icon: string | null) => {
      const path = uniquePath(slugOf(title, 'section'), takenPaths);
      takenPaths.add(path);
      const section = em.create(SiteSection, {
        id: newId(),
        organization: site.organization,
        site: site.id,
        sectionGroup: null,
        title,
        description: null,
        path,
        condition: null,
        icon,
        defaultSiteSpace: null,
        position: placeAmong(topLevel, {}),
        createdAt: ctx.clock.now(),
      });
      topLevel.push(section);
      changed({ object: 'site-section', id: section.id, change: 'added' });
      return section;
    };

    if (layout.sections.length === 0) {
      const rootSiteSpaces = (await em.find(SiteSpace, { site: site.id, section: null }, { refresh: true })).sort(byPosition);
      if (rootSiteSpaces.length > 0) {
        const keeper = newSection(truncated(site.title, 128), null);
        for (const siteSpace of rootSiteSpaces) {
          siteSpace.section = keeper.id;
          changed({ object: 'site-space', id: siteSpace.id, change: 'moved' });
        }
        keeper.defaultSiteSpace = (rootSiteSpaces.find((s) => s.id === site.defaultSiteSpace) ?? rootSiteSpaces[0]).id;
        site.defaultSection = keeper.id;
      }
    }

    const title = fields.title ?? truncated(space.title, 64);
    const section = newSection(title.length >= 2 ? title : 'Untitled section', fields.icon ?? null);
    const siteSpace = await attachSpace(em, ctx.clock, site, section, space); // becomes the section's default site space
    changed({ object: 'site-space', id: siteSpace.id, change: 'added' });
    if (!site.defaultSection) site.defaultSection = section.id;
    return section;
  });
}

/** Changes a section's title, path, default site space, condition, icon or description. */
export async function updateSiteSection(ctx: Context, siteId: string, sectionId: string, input: unknown): Promise<SiteSectionRow> {
  const changes = parseInput(UpdateSiteSectionInput, input);
  if (typeof changes.condition === 'string') {
    const schema = await ctx.loaders.adaptiveSchema.load(siteId);
    validateCondition(changes.condition, schema?.jsonSchema ?? null);
  }
  return changeSite(ctx, siteId, async ({ em, sections }, changed) => {
    const section = sectionIn(sections, sectionId);
    if (changes.path !== undefined && sections.some((s) => s.id !== section.id && s.path === changes.path)) {
      throw alreadyTaken('site_section_site_id_path_unique', changes.path);
    }
    if (changes.defaultSiteSpace !== undefined) {
      const siteSpace = await em.findOne(SiteSpace, { id: changes.defaultSiteSpace, site: siteId, section: section.id }, { refresh: true });
      if (!siteSpace) throw badRequest(`defaultSiteSpace: no site space "${changes.defaultSiteSpace}" in this section`);
    }
    const fields = applyChanges(section, changes);
    if (fields.length) changed({ object: 'site-section', id: section.id, change: 'updated', changes: fields });
    return section;
  });
}

/**
 * Deletes a section with its site spaces. When it was the site's default section, the first remaining
 * top-level section becomes the default, else the first section inside a group (groups by position),
 * else none.
 */
export async function deleteSiteSection(ctx: Context, siteId: string, sectionId: string): Promise<void> {
  await changeSite(ctx, siteId, async ({ em, site, sections, groups }, changed) => {
    const section = sectionIn(sections, sectionId);
    if (site.defaultSection === section.id) {
      const remaining = sections.filter((s) => s.id !== section.id);
      const next = remaining.filter((s) => !s.sectionGroup).sort(byPosition)[0] ?? sectionsInNavigationOrder(remaining, groups)[0];
      site.defaultSection = next?.id ?? null;
    }
    // A root default carried into the section by the first section rule must not outlive it.
    if (site.defaultSiteSpace && (await em.count(SiteSpace, { id: site.defaultSiteSpace, section: section.id })) > 0) {
      site.defaultSiteSpace = null;
    }
    em.remove(section); // its site spaces follow through ON DELETE CASCADE
    changed({ object: 'site-section', id: section.id, change: 'removed' });
  });
}

function pointedSection(pointer: SiteSectionPointer | null | undefined, field: string, siblings: Ordered[], movingId: string) {
  if (!pointer) return undefined;
  if (pointer.type !== 'site-section') throw badRequest(`${field}.type: must be "site-section"`);
  if (pointer.siteSection === movingId || !siblings.some((s) => s.id === pointer.siteSection)) {
    throw badRequest(`${field}.siteSection: "${pointer.siteSection}" is not a section next to this one`);
  }
  return pointer.siteSection;
}

/**
 * Moves a section before or after a sibling section: a top-level section among the site's top-level
 * items (sections and groups share one order), a section inside a group among that group's sections.
 * Without a position it goes to the end of where it is (the top level, or its group).
 */
export async function moveSiteSection(ctx: Context, siteId: string, sectionId: string, move: unknown): Promise<SiteSectionRow> {
  const { position } = parseInput(MoveSiteSectionInput, { position: move });
  return changeSite(ctx, siteId, (layout, changed) => {
    const section = sectionIn(layout.sections, sectionId);
    const siblings: TopLevelItem[] = section.sectionGroup
      ? sectionsOfGroup(layout.sections, section.sectionGroup, section.id).map((s) => ({ id: s.id, position: s.position, kind: 'site-section' as const }))
      : topLevelItems(layout, section.id);
    // Only sections are valid pointers, even where groups share the order.
    const pointable = siblings.filter((s) => s.kind === 'site-section');
    section.position = placeAmong(siblings, {
      before: pointedSection(position?.before, 'position.before', pointable, section.id),
      after: pointedSection(position?.after, 'position.after', pointable, section.id),
    });
    changed({ object: 'site-section', id: section.id, change: 'moved' });
    return section;
  });
}

// ─── section groups ─────────────────────────────────────────────────────────────────────────────────

type Changed = (change: StructureChange) => void;

/** Puts sections into a group after its current sections, in the given order. */
function appendToGroup(layout: Layout, group: SiteSectionGroupRow, sections: SiteSectionEntity[], changed: Changed) {
  const members: Ordered[] = sectionsOfGroup(layout.sections, group.id).filter((s) => !sections.includes(s));
  for (const section of sections) {
    section.position = placeAmong(members, {});
    section.sectionGroup = group.id;
    members.push(section);
    changed({ object: 'site-section', id: section.id, change: 'moved' });
  }
}

/** Puts sections back at the end of the site's top level, in the given order. */
function appendToTopLevel(layout: Layout, sections: SiteSectionEntity[], changed: Changed) {
  const items: Ordered[] = topLevelItems(layout).filter((item) => !sections.some((s) => s.id === item.id));
  for (const section of sections) {
    section.position = placeAmong(items, {});
    section.sectionGroup = null;
    items.push(section);
    changed({ object: 'site-section', id: section.id, change: 'moved' });
  }
}

/**
 * Adds a group at the end of the site's top level. `sections` (sections of this site, from the top
 * level or other groups) move into it in the given order.
 */
export async function addSiteSectionGroup(ctx: Context, siteId: string, input: unknown): Promise<SiteSectionGroupRow> {
  const fields = parseInput(AddSiteSectionGroupInput, input);
  return changeSite(ctx, siteId, (layout, changed) => {
    const members = [...new Set(fields.sections ?? [])].map((id) => {
      const section = layout.sections.find((s) => s.id === id);
      if (!section) throw badRequest(`sections: no section "${id}" in this site`);
      return section;
    });
    const group = layout.em.create(SiteSectionGroup, {
      id: newId(),
      organization: layout.site.organization,
      site: layout.site.id,
      title: fields.title,
      icon: fields.icon ?? null,
      position: placeAmong(topLevelItems(layout), {}),
      createdAt: ctx.clock.now(),
    });
    changed({ object: 'site-section-group', id: group.id, change: 'added' });
    appendToGroup(layout, group, members, changed);
    return group;
  });
}

/** Changes a group's title or icon (null removes the icon). */
export async function updateSiteSectionGroup(ctx: Context, siteId: string, groupId: string, input: unknown): Promise<SiteSectionGroupRow> {
  const changes = parseInput(UpdateSiteSectionGroupInput, input);
  return changeSite(ctx, siteId, ({ groups }, changed) => {
    const group = groupIn(groups, groupId);
    const fields = applyChanges(group, changes);
    if (fields.length) changed({ object: 'site-section-group', id: group.id, change: 'updated', changes: fields });
    return group;
  });
}

/** Deletes a group; its sections stay, moving to the end of the site's top level in their order. */
export async function deleteSiteSectionGroup(ctx: Context, siteId: string, groupId: string): Promise<void> {
  await changeSite(ctx, siteId, (layout, changed) => {
    const group = groupIn(layout.groups, groupId);
    const members = sectionsOfGroup(layout.sections, group.id);
    appendToTopLevel({ ...layout, groups: layout.groups.filter((g) => g !== group) }, members, changed);
    layout.em.remove(group);
    changed({ object: 'site-section-group', id: group.id, change: 'removed' });
  });
}

/**
 * Moves a section of the site (from the top level or another group) to the end of the group. A
 * section already in the group keeps its place.
 */
export async function addSectionToGroup(ctx: Context, siteId: string, groupId: string, sectionId: string): Promise<SiteSectionGroupRow> {
  return changeSite(ctx, siteId, (layout, changed) => {
    const group = groupIn(layout.groups, groupId);
    const section = layout.sections.find((s) => s.id === sectionId);
    if (!section) throw badRequest(`sectionId: no section "${sectionId}" in this site`);
    if (section.sectionGroup !== group.id) appendToGroup(layout, group, [section], changed);
    return group;
  });
}

/** Takes a section out of a group, to the end of the site's top level; 404 when it is not in that group. */
export async function removeSectionFromGroup(ctx: Context, siteId: string, groupId: string, sectionId: string): Promise<void> {
  await changeSite(ctx, siteId, (layout, changed) => {
    const group = groupIn(layout.groups, groupId);
    const section = sectionIn(layout.sections, sectionId);
    if (section.sectionGroup !== group.id) throw notFound('Site section');
    appendToTopLevel(layout, [section], changed);
  });
}

function pointedItem(pointer: SiteSectionGroupPointer | null | undefined, field: string, siblings: TopLevelItem[], movingId: string) {
  if (!pointer) return undefined;
  if (pointer.type !== 'site-section' && pointer.type !== 'site-section-group') {
    throw badRequest(`${field}.type: must be "site-section" or "site-section-group"`);
  }
  if (pointer.id === movingId || !siblings.some((s) => s.id === pointer.id && s.kind === pointer.type)) {
    throw badRequest(`${field}.id: ${pointer.type} "${pointer.id}" is not a top-level item of the site`);
  }
  return pointer.id;
}

/** Moves a group before or after a top-level section or group; without a position, to the end of the site. */
export async function moveSiteSectionGroup(ctx: Context, siteId: string, groupId: string, move: unknown): Promise<SiteSectionGroupRow> {
  const { position } = parseInput(MoveSiteSectionGroupInput, { position: move });
  return changeSite(ctx, siteId, (layout, changed) => {
    const group = groupIn(layout.groups, groupId);
    const siblings = topLevelItems(layout, group.id);
    group.position = placeAmong(siblings, {
      before: pointedItem(position?.before, 'position.before', siblings, group.id),
      after: pointedItem(position?.after, 'position.after', siblings, group.id),
    });
    changed({ object: 'site-section-group', id: group.id, change: 'moved' });
    return group;
  });
}
