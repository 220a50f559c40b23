import type { Context } from '../../../kernel/context.js';
import { whenLoaded } from '../../../kernel/loader.js';
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
import type { GraphQLResolveInfo } from 'graphql';
import { sectionPublishedUrl } from '../index.js';

type OnSite = { siteId: string };
type OnItem = OnSite & { id: string };
type WithInput = { input: unknown };
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
    siteSections: (_: unknown, args: OnSite & PageArgs, ctx: Context, info: GraphQLResolveInfo) =>
      listSiteSections(ctx, args.siteId, pageOf(args), sectionNestingOf(info)),
    siteSectionGroups: (_: unknown, args: OnSite & PageArgs, ctx: Context) => listSiteSectionGroups(ctx, args.siteId, pageOf(args)),
  },
  Mutation: {
    addSiteSection: (_: unknown, { siteId, input }: OnSite & WithInput, ctx: Context) => addSiteSection(ctx, siteId, input),
    updateSiteSection: (_: unknown, { siteId, id, input }: OnItem & WithInput, ctx: Context) => updateSiteSection(ctx, siteId, id, input),
    deleteSiteSection: (_: unknown, { siteId, id }: OnItem, ctx: Context) => succeeded(deleteSiteSection(ctx, siteId, id)),
    moveSiteSection: (_: unknown, { siteId, id, position }: OnItem & { position?: unknown }, ctx: Context) => moveSiteSection(ctx, siteId, id, position),
    addSiteSectionGroup: (_: unknown, { siteId, input }: OnSite & WithInput, ctx: Context) => addSiteSectionGroup(ctx, siteId, input),
    updateSiteSectionGroup: (_: unknown, { siteId, id, input }: OnItem & WithInput, ctx: Context) => updateSiteSectionGroup(ctx, siteId, id, input),
    deleteSiteSectionGroup: (_: unknown, { siteId, id }: OnItem, ctx: Context) => succeeded(deleteSiteSectionGroup(ctx, siteId, id)),
    addSectionToGroup: (_: unknown, { siteId, id, sectionId }: OnItem & { sectionId: string }, ctx: Context) => addSectionToGroup(ctx, siteId, id, sectionId),
    removeSectionFromGroup: (_: unknown, { siteId, id, sectionId }: OnItem & { sectionId: string }, ctx: Context) =>
      succeeded(removeSectionFromGroup(ctx, siteId, id, sectionId)),
    moveSiteSectionGroup: (_: unknown, { siteId, id, position }: OnItem & { position?: unknown }, ctx: Context) =>
      moveSiteSectionGroup(ctx, siteId, id, position),
  },
  SiteSection: {
    object: () => 'site-section',
    default: (s: SiteSectionRow, _: unknown, ctx: Context) => whenLoaded(ctx.loaders.site.get(s.site), (site) => site?.defaultSection === s.id),
    sectionGroup: (s: SiteSectionRow) => s.sectionGroup ?? null,
    siteSpaces: (s: SiteSectionRow, _: unknown, ctx: Context) => siteSpacesOfSection(ctx, s),
    /** Like the site's: only a published site has published URLs. */
    urls: (s: SiteSectionRow, _: unknown, ctx: Context) =>
      whenLoaded(ctx.loaders.site.get(s.site), (site) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/sites/${s.site}/sections/${s.id}`,
        published: site?.published ? sectionPublishedUrl(site, s, ctx.config) : null,
      })),
    site: (s: SiteSectionRow, _: unknown, ctx: Context) => ctx.loaders.site.get(s.site),
    group: (s: SiteSectionRow, _: unknown, ctx: Context) => {
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
    defaultSiteSpace: (s: SiteSectionRow, _: unknown, ctx: Context) =>
      whenLoaded(siteSpacesOfSection(ctx, s), (siteSpaces) => siteSpaces.find((ss) => ss.id === s.defaultSiteSpace) ?? siteSpaces[0] ?? null),
  },
  SiteSectionGroup: {
    object: () => 'site-section-group',
    sections: (g: SiteSectionGroupRow, _: unknown, ctx: Context) =>
      partOfSite(
        ctx.loaders,
        g.site,
        () => whenLoaded(ctx.loaders.sectionsBySite.get(g.site), () => ctx.loaders.sectionsByGroup.get(g.id)),
        () => ctx.loaders.sectionsByGroup.get(g.id),
      ),
    site: (g: SiteSectionGroupRow, _: unknown, ctx: Context) => ctx.loaders.site.get(g.site),
  },
};
