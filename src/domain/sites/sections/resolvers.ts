import type { Context } from '../../../kernel/context.js';
import { found, whenLoaded } from '../../../kernel/loader.js';
import type { PageArgs } from '../../../kernel/pagination.js';
import { succeeded } from '../../../kernel/resolvers.js';
import type { Resolvers } from '../../../kernel/resolver-types.js';
import type { SiteSectionGroupRow, SiteSectionRow } from '../index.js';
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
import { partOfSite, sectionNestingOf } from '../index.js';
import { sectionPublishedUrl } from '../index.js';

const pageOf = ({ page, limit }: PageArgs): PageArgs => ({ page, limit });

/** A section's site spaces by position; a site's layout, once read, holds them already. */
const siteSpacesOfSection = (ctx: Context, section: SiteSectionRow) =>
  partOfSite(
    ctx.loaders,
    section.site,
    () => whenLoaded(ctx.loaders.siteSpacesBySite.get(section.site), () => ctx.loaders.siteSpacesBySection.get(section.id)),
    () => ctx.loaders.siteSpacesBySection.get(section.id),
  );

/** Site sections and section groups (root fields and their types). */
export const siteSectionResolvers: Resolvers = {
  Query: {
    siteSections: (_, args, ctx, info) => listSiteSections(ctx, args.siteId, pageOf(args), sectionNestingOf(info)),
    siteSectionGroups: (_, args, ctx) => listSiteSectionGroups(ctx, args.siteId, pageOf(args)),
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
  },
  SiteSection: {
    object: () => 'site-section',
    default: (s, _, ctx) => whenLoaded(ctx.loaders.site.get(s.site), (site) => site?.defaultSection === s.id),
    sectionGroup: (s) => s.sectionGroup ?? null,
    siteSpaces: (s, _, ctx) => siteSpacesOfSection(ctx, s),
    /** Like the site's: only a published site has published URLs. */
    urls: (s, _, ctx) =>
      whenLoaded(ctx.loaders.site.get(s.site), (site) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/sites/${s.site}/sections/${s.id}`,
        published: site?.published ? sectionPublishedUrl(site, s, ctx.config) : null,
      })),
    site: (s, _, ctx) => found(ctx.loaders.site.get(s.site), 'Site'),
    group: (s, _, ctx) => {
      const groupId = s.sectionGroup;
      if (!groupId) return null;
      return partOfSite(
        ctx.loaders,
        s.site,
        () => whenLoaded(ctx.loaders.groupsBySite.get(s.site), (groups) => groups.find((g) => g.id === groupId) ?? null),
        () => ctx.loaders.groupRow.get(groupId),
      );
    },
    /** The section's default site space; should it be gone, its first site space. */
    defaultSiteSpace: (s, _, ctx) =>
      whenLoaded(siteSpacesOfSection(ctx, s), (siteSpaces) => siteSpaces.find((ss) => ss.id === s.defaultSiteSpace) ?? siteSpaces[0] ?? null),
  },
  SiteSectionGroup: {
    object: () => 'site-section-group',
    sections: (g, _, ctx) =>
      partOfSite(
        ctx.loaders,
        g.site,
        () => whenLoaded(ctx.loaders.sectionsBySite.get(g.site), () => ctx.loaders.sectionsByGroup.get(g.id)),
        () => ctx.loaders.sectionsByGroup.get(g.id),
      ),
    site: (g, _, ctx) => found(ctx.loaders.site.get(g.site), 'Site'),
  },
};

declare module '../../../kernel/resolver-parents.js' {
  interface ResolverParents {
    SiteSection: SiteSectionRow;
    SiteSectionGroup: SiteSectionGroupRow;
  }
}
