import type { EntityManager } from '@mikro-orm/postgresql';
import { plainRowsWhereIn } from '../../db/plain-rows.js';
import { groupLoader, rowLoader } from '../../graphql/loader.js';
import { ShareLink, Site, SiteAdaptiveSchema, SiteSection, SiteSectionGroup, SiteSpace } from './entities.js';

const byPosition = { position: 'asc', id: 'asc' } as const;

export function siteLoaders(em: EntityManager) {
  return {
    site: rowLoader((ids: string[]) => em.find(Site, { id: { $in: ids } }), (s) => s.id),
    /** Sites of each organization, oldest first. */
    sitesByOrganization: groupLoader(
      (organizationIds: string[]) => em.find(Site, { organization: { $in: organizationIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (s) => s.organization,
    ),
    siteSection: rowLoader((ids: string[]) => em.find(SiteSection, { id: { $in: ids } }), (s) => s.id),
    /** Sections of each site by position (top-level and grouped sections share one ordering per parent). */
    // Lists are plain rows (never changed: changes load entities and clear these loaders afterwards).
    sectionsBySite: groupLoader((siteIds: string[]) => plainRowsWhereIn(em, SiteSection, 'site', siteIds, byPosition), (s) => s.site),
    siteSectionGroup: rowLoader((ids: string[]) => em.find(SiteSectionGroup, { id: { $in: ids } }), (g) => g.id),
    groupsBySite: groupLoader((siteIds: string[]) => plainRowsWhereIn(em, SiteSectionGroup, 'site', siteIds, byPosition), (g) => g.site),
    siteSpace: rowLoader((ids: string[]) => em.find(SiteSpace, { id: { $in: ids } }), (s) => s.id),
    /** Site spaces of each site by position within their section (or root level). */
    siteSpacesBySite: groupLoader((siteIds: string[]) => plainRowsWhereIn(em, SiteSpace, 'site', siteIds, byPosition), (s) => s.site),
    /** Site spaces that publish each space. */
    siteSpacesBySpace: groupLoader((spaceIds: string[]) => em.find(SiteSpace, { space: { $in: spaceIds } }), (s) => s.space),
    shareLinksBySite: groupLoader(
      (siteIds: string[]) => em.find(ShareLink, { site: { $in: siteIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (l) => l.site,
    ),
    shareLinkByKey: rowLoader((keys: string[]) => em.find(ShareLink, { key: { $in: keys } }), (l) => l.key),
    adaptiveSchema: rowLoader((siteIds: string[]) => em.find(SiteAdaptiveSchema, { site: { $in: siteIds } }), (a) => a.site),
  };
}
