import { found, whenLoaded } from '../../../kernel/loader.js';
import type { PageArgs } from '../../../kernel/pagination.js';
import { succeeded } from '../../../kernel/resolvers.js';
import type { Resolvers } from '../../../kernel/resolver-types.js';
import type { SiteSectionGroupRow, SiteSectionRow } from '../index.js';
import { rememberShareKey } from '../site-spaces/index.js';
import {
  addSectionToGroup,
  addSiteSection,
  addSiteSectionGroup,
  deleteSiteSection,
  deleteSiteSectionGroup,
  listSiteSectionGroups,
  listSiteSections,
  moveSiteSection,
  moveSiteSectionGroup,
  removeSectionFromGroup,
  updateSiteSection,
  updateSiteSectionGroup,
} from './service.js';
import { duplicateSiteSpace } from './duplicate.js';
import { sortSiteStructure } from './structure-sort.js';
import { itemsShape } from '../../../db/read-shapes.js';
import { readAlong } from '../../../kernel/read-models.js';
import { sectionPublishedUrl } from '../index.js';

const pageOf = ({ page, limit }: PageArgs): PageArgs => ({ page, limit });

/** Site sections and section groups (root fields and their types). */
export const siteSectionResolvers: Resolvers = {
  Query: {
    siteSections: async (_, args, ctx, info) => {
      // The share key that opened a share-link site resolves its site spaces' published URLs, as on siteSpaces.
      await rememberShareKey(ctx, args.siteId, args.shareKey);
      return listSiteSections(ctx, args.siteId, pageOf(args), itemsShape(ctx, info, 'SiteSection'));
    },
    siteSectionGroups: (_, args, ctx, info) => listSiteSectionGroups(ctx, args.siteId, pageOf(args), itemsShape(ctx, info, 'SiteSectionGroup')),
  },
  Mutation: {
    addSiteSection: (_, { siteId, input }, ctx) => addSiteSection(ctx, siteId, input),
    updateSiteSection: (_, { siteId, id, input }, ctx) => updateSiteSection(ctx, siteId, id, input),
    deleteSiteSection: (_, { siteId, id }, ctx) => succeeded(deleteSiteSection(ctx, siteId, id)),
    moveSiteSection: (_, { siteId, id, position }, ctx) => moveSiteSection(ctx, siteId, id, position),
    addSiteSectionGroup: (_, { siteId, input }, ctx) => addSiteSectionGroup(ctx, siteId, input),
    updateSiteSectionGroup: (_, { siteId, id, input }, ctx) => updateSiteSectionGroup(ctx, siteId, id, input),
    deleteSiteSectionGroup: (_, { siteId, id }, ctx) => succeeded(deleteSiteSectionGroup(ctx, siteId, id)),
    addSectionToGroup: (_, { siteId, id, sectionId }, ctx) => addSectionToGroup(ctx, siteId, id, sectionId),
    removeSectionFromGroup: (_, { siteId, id, sectionId }, ctx) => succeeded(removeSectionFromGroup(ctx, siteId, id, sectionId)),
    moveSiteSectionGroup: (_, { siteId, id, position }, ctx) => moveSiteSectionGroup(ctx, siteId, id, position),
    sortSiteStructure: (_, { siteId, input }, ctx) => sortSiteStructure(ctx, siteId, input),
    duplicateSiteSpace: (_, { siteId, id, input }, ctx) => duplicateSiteSpace(ctx, siteId, id, input),
  },
  SiteSection: {
    object: () => 'site-section',
    draft: () => false,
    default: (s, _, ctx, info) => readAlong(s, info, () => whenLoaded(ctx.loaders.site.get(s.site), (site) => site?.defaultSection === s.id)),
    siteSpaces: (s, _, ctx, info) => readAlong(s, info, () => ctx.loaders.siteSpacesBySection.get(s.id)),
    /** Like the site's: only a published site has published URLs. */
    urls: (s, _, ctx) =>
      whenLoaded(ctx.loaders.site.get(s.site), (site) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/sites/${s.site}/sections/${s.id}`,
        published: site?.published ? sectionPublishedUrl(site, s, ctx.config) : null,
      })),
    site: (s, _, ctx) => found(ctx.loaders.site.get(s.site), 'Site'),
    group: (s, _, ctx, info) => readAlong(s, info, () => (s.sectionGroup ? ctx.loaders.siteSectionGroup.get(s.sectionGroup) : null)),
    /** The section's default site space; should it be gone, its first site space. */
    defaultSiteSpace: (s, _, ctx) =>
      whenLoaded(ctx.loaders.siteSpacesBySection.get(s.id), (siteSpaces) => siteSpaces.find((ss) => ss.id === s.defaultSiteSpace) ?? siteSpaces[0] ?? null),
  },
  SiteSectionGroup: {
    object: () => 'site-section-group',
    draft: () => false,
    sections: (g, _, ctx, info) => readAlong(g, info, () => ctx.loaders.sectionsByGroup.get(g.id)),
    children: (g, _, ctx, info) => readAlong(g, info, () => ctx.loaders.sectionsByGroup.get(g.id)),
    site: (g, _, ctx) => found(ctx.loaders.site.get(g.site), 'Site'),
  },
};

declare module '../../../kernel/resolver-parents.js' {
  interface ResolverParents {
    SiteSection: SiteSectionRow;
    SiteSectionGroup: SiteSectionGroupRow;
  }
}
