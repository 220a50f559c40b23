import type { EntityManager } from '@mikro-orm/postgresql';
import { plainRowsWhereIn } from '../../db/plain-rows.js';
import { groupLoader, Loader, partOf, rowLoader } from '../../graphql/loader.js';
import type { SpaceRow } from '../spaces/entities.js';
import { ShareLink, Site, SiteAdaptiveSchema, SiteSection, SiteSectionGroup, SiteSpace } from './entities.js';
import { readSiteLayouts, type SiteLayout, type SpaceFacts } from './layout.js';

/** What a site's layout hands the spaces it publishes to: the spaces' own loaders. */
export type PublishedSpaces = {
  /** The spaces area's plain-row loader, filled with the spaces read in the layout's statement. */
  spaceToRead: Loader<string, SpaceRow | null>;
  /** What other areas show of each space (counts), read in the same statement, so a tree's spaces need no further batch. */
  facts: readonly SpaceFacts<never>[];
};

export function siteLoaders(em: EntityManager, spaces: PublishedSpaces) {
  const layout = rowLoader(
    async (siteIds: string[]) => {
      const layouts = await readSiteLayouts(em, siteIds, spaces.facts);
      for (const layout of layouts) for (const space of layout.spaces) spaces.spaceToRead.remember(space.id, space);
      return layouts;
    },
    (l) => l.site,
  );
  // Lists are plain rows (never changed: changes load entities and clear these loaders afterwards).
  const partOfLayout = <T>(pick: (layout: SiteLayout) => T[]) => partOf(layout, pick, []);
  return {
    /** Sites as plain rows (read by every site request); a change loads the site's entity itself. */
    site: rowLoader((ids: string[]) => plainRowsWhereIn(em, Site, 'id', ids), (s) => s.id),
    siteSection: rowLoader((ids: string[]) => em.find(SiteSection, { id: { $in: ids } }), (s) => s.id),
    /** Sections of each site by position (top-level and grouped sections share one ordering per parent). */
    sectionsBySite: partOfLayout((l) => l.sections),
    siteSectionGroup: rowLoader((ids: string[]) => em.find(SiteSectionGroup, { id: { $in: ids } }), (g) => g.id),
    groupsBySite: partOfLayout((l) => l.groups),
    siteSpace: rowLoader((ids: string[]) => em.find(SiteSpace, { id: { $in: ids } }), (s) => s.id),
    /** Site spaces of each site by position within their section (or root level). */
    siteSpacesBySite: partOfLayout((l) => l.siteSpaces),
    /** Site spaces that publish each space. */
    siteSpacesBySpace: groupLoader((spaceIds: string[]) => em.find(SiteSpace, { space: { $in: spaceIds } }), (s) => s.space),
    shareLinkByKey: rowLoader((keys: string[]) => em.find(ShareLink, { key: { $in: keys } }), (l) => l.key),
    adaptiveSchema: rowLoader((siteIds: string[]) => em.find(SiteAdaptiveSchema, { site: { $in: siteIds } }), (a) => a.site),
  };
}
