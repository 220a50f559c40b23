import type { EntityManager } from '@mikro-orm/postgresql';
import type { GraphQLResolveInfo } from 'graphql';
import { selectsField, selectsPath } from '../../kernel/selection.js';
import type { SectionNesting } from './published/navigation-lists.js';
import { readRows, rowsWhereIn, type Plain } from '../../db/statements.js';
import { countsStatement } from '../../db/row-counts.js';
import { batchLoader, groupLoader, Loader, partOf, rowLoader } from '../../kernel/loader.js';
import { pageSize, type Page, type PageArgs } from '../../kernel/pagination.js';
import { groupRows } from '../../kernel/row-index.js';
import type { SpaceRow } from '../spaces/index.js';
import { ShareLink, Site, SiteAdaptiveSchema, SiteSection, SiteSectionGroup, SiteSpace } from './entities.js';
import { readSiteLayouts, type SiteLayout, type SpaceFacts } from './published/layout.js';

/** What a site's layout hands the spaces it publishes to: the spaces' own loaders. */
export type PublishedSpaces = {
  /** The spaces area's plain-row loader, filled with the spaces read in the layout's statement. */
  spaceToRead: Loader<string, Plain<SpaceRow> | null>;
  /** What other areas show of each space (counts), read in the same statement, so a tree's spaces need no further batch. */
  facts: readonly SpaceFacts<never>[];
};

const byPosition = { position: 'asc', id: 'asc' } as const;

export function siteLoaders(em: EntityManager, spaces: PublishedSpaces) {
  // Parts of a site that a page of one of its lists needs, each read for that page's rows only; a
  // request that reads the whole layout (a site's tree) finds them in it.
  const sectionRow = rowLoader(
    (ids: string[]) => rowsWhereIn(em, SiteSection, 'id', ids),
    (s) => s.id,
  );
  const groupRow = rowLoader(
    (ids: string[]) => rowsWhereIn(em, SiteSectionGroup, 'id', ids),
    (g) => g.id,
  );
  const siteSpacesBySection = groupLoader(
    (ids: string[]) => rowsWhereIn(em, SiteSpace, 'section', ids, byPosition),
    (s) => s.section!,
  );
  const sectionsByGroup = groupLoader(
    (ids: string[]) => rowsWhereIn(em, SiteSection, 'sectionGroup', ids, byPosition),
    (s) => s.sectionGroup!,
  );
  const siteSpaceCount = batchLoader(async (siteIds: string[]) => {
    const statement = countsStatement('site_spaces_of_site', siteIds);
    const counted = await readRows<{ key: string; count: string }>(em, statement);
    const bySite = new Map(counted.map((row) => [row.key, Number(row.count)]));
    return siteIds.map((id) => bySite.get(id) ?? 0);
  });

  const layout = rowLoader(
    async (siteIds: string[]) => {
      const layouts = await readSiteLayouts(em, siteIds, spaces.facts);
      for (const layout of layouts) {
        for (const space of layout.spaces) spaces.spaceToRead.remember(space.id, space);
        const bySection = groupRows(
          layout.siteSpaces.filter((s) => s.section),
          (s) => s.section!,
        );
        const byGroup = groupRows(
          layout.sections.filter((s) => s.sectionGroup),
          (s) => s.sectionGroup!,
        );
        for (const section of layout.sections) {
          sectionRow.remember(section.id, section);
          siteSpacesBySection.remember(section.id, bySection.get(section.id) ?? []);
        }
        for (const group of layout.groups) {
          groupRow.remember(group.id, group);
          sectionsByGroup.remember(group.id, byGroup.get(group.id) ?? []);
        }
        siteSpaceCount.remember(layout.site, layout.siteSpaces.length);
      }
      return layouts;
    },
    (l) => l.site,
  );
  // Lists are plain rows (never changed: changes load entities and clear these loaders afterwards).
  const partOfLayout = <T>(pick: (layout: SiteLayout) => T[]) => partOf(layout, pick, []);
  return {
    /** True once this request reads the site's whole layout (a tree): its parts then come from it. */
    layoutAsked: (siteId: string) => layout.isAsked(siteId),
    /**
     * Starts reading the site's whole layout, for a request that will need it (a tree): the lists and
     * counts asked beside it then come from it. A failure is the tree field's to report, through its
     * own read of the same batch.
     */
    askLayout: (siteId: string) => void layout.load(siteId).catch(() => undefined),
    /** Sites as plain rows (read by every site request); a change loads the site's entity itself. */
    site: rowLoader(
      (ids: string[]) => rowsWhereIn(em, Site, 'id', ids),
      (s) => s.id,
    ),
    siteSection: rowLoader(
      (ids: string[]) => em.find(SiteSection, { id: { $in: ids } }),
      (s) => s.id,
    ),
    /** Sections as plain rows, for reading. */
    sectionRow,
    /** Sections of each site by position (top-level and grouped sections share one ordering per parent). */
    sectionsBySite: partOfLayout((l) => l.sections),
    /** Sections of each group by position. */
    sectionsByGroup,
    siteSectionGroup: rowLoader(
      (ids: string[]) => em.find(SiteSectionGroup, { id: { $in: ids } }),
      (g) => g.id,
    ),
    /** Section groups as plain rows, for reading. */
    groupRow,
    groupsBySite: partOfLayout((l) => l.groups),
    siteSpace: rowLoader(
      (ids: string[]) => em.find(SiteSpace, { id: { $in: ids } }),
      (s) => s.id,
    ),
    /** Site spaces of each site by position within their section (or root level). */
    siteSpacesBySite: partOfLayout((l) => l.siteSpaces),
    /** Site spaces of each section by position. */
    siteSpacesBySection,
    /** The number of each site's site spaces, which the database keeps. */
    siteSpaceCount,
    /** Site spaces that publish each space. */
    siteSpacesBySpace: groupLoader(
      (spaceIds: string[]) => em.find(SiteSpace, { space: { $in: spaceIds } }),
      (s) => s.space,
    ),
    shareLinkByKey: rowLoader(
      (keys: string[]) => em.find(ShareLink, { key: { $in: keys } }),
      (l) => l.key,
    ),
    adaptiveSchema: rowLoader(
      (siteIds: string[]) => em.find(SiteAdaptiveSchema, { site: { $in: siteIds } }),
      (a) => a.site,
    ),
  };
}

type SiteLoaders = ReturnType<typeof siteLoaders>;

/**
 * Reads a part of a site from its layout when the request reads the layout anyway (a tree, whose
 * statement is on its way), else through the part's own loader: the statements of a request then
 * depend on its shape, not on which answer arrives first.
 */
export function partOfSite<T>(loaders: SiteLoaders, siteId: string, fromLayout: () => T | Promise<T>, own: () => T | Promise<T>): T | Promise<T> {
  return loaders.layoutAsked(siteId) ? fromLayout() : own();
}

/**
 * Whether a site's field asks for its tree (its structure, which is the whole site by definition): the
 * whole layout is then read at once (`askLayout`), in one statement, and also answers the lists and
 * counts beside it. A page of sections with their site spaces is not a tree: it reads its page alone,
 * whatever the site's size.
 */
export const asksForTree = (info: GraphQLResolveInfo) => selectsField(info, 'structure');

/**
 * What a page of sections should bring along, from what the request asks below it: its items' site
 * spaces, and their spaces, are then read in the page's statement instead of a batch per level.
 */
export function sectionNestingOf(info: GraphQLResolveInfo): SectionNesting {
  if (!selectsPath(info, ['items', 'siteSpaces'])) return 'none';
  // A site space's title is its space's.
  const spaces = selectsPath(info, ['items', 'siteSpaces', 'space']) || selectsPath(info, ['items', 'siteSpaces', 'title']);
  return spaces ? 'siteSpacesAndSpaces' : 'siteSpaces';
}

/**
 * A first page of a list of the site, from its layout when the request reads the layout anyway and the
 * whole list fits in the page (no statement of its own; the count is the list's length); else the
 * list's own page, read in SQL. Only a whole list is served so: a page that ends early hands out the SQL
 * list's cursor, which the layout's rows do not carry.
 */
export function pageOfSite<T>(
  loaders: SiteLoaders,
  siteId: string,
  args: PageArgs,
  fromLayout: () => Promise<T[]>,
  own: () => Promise<Page<T>>,
): Promise<Page<T>> {
  if (args.page || !loaders.layoutAsked(siteId)) return own();
  const limit = pageSize(args.limit);
  return fromLayout().then((rows) => (rows.length <= limit ? { items: rows, count: rows.length, next: null } : own()));
}

/** Forgets what the request's loaders hold of a site's structure, after a change to it. */
export function forgetSiteStructure(loaders: SiteLoaders, siteId: string): void {
  loaders.site.clear(siteId);
  loaders.sectionsBySite.clear(siteId);
  loaders.groupsBySite.clear(siteId);
  loaders.siteSpacesBySite.clear(siteId);
  loaders.siteSpaceCount.clear(siteId);
  // Keyed by section or group: which of them changed is not known here.
  loaders.sectionRow.clearAll();
  loaders.groupRow.clearAll();
  loaders.siteSpacesBySection.clearAll();
  loaders.sectionsByGroup.clearAll();
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof siteLoaders> {}
}
