import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../../kernel/context.js';
import { whenLoaded } from '../../../kernel/loader.js';
import { asksForTree, partOfSite, sectionNestingOf } from '../index.js';
import { notFound } from '../../../kernel/errors.js';
import type { PageArgs } from '../../../kernel/pagination.js';
import { createInOrganization, succeeded, updateById, type Id } from '../../../kernel/resolvers.js';
import type { Resolvers } from '../../../kernel/resolver-types.js';
import type { SiteRow } from '../index.js';
import {
  createSite,
  defaultSiteSection,
  defaultSiteSpace,
  deleteSite,
  getAdaptiveSchema,
  listSites,
  pageOfShareLinks,
  publishedContentSite,
  setPublished,
  siteStructure,
  updateAdaptiveSchema,
  updateSite,
  type SiteFilters,
} from './service.js';
import { listSiteSectionGroups, listSiteSections } from '../sections/index.js';
import { listSiteSpaces } from '../site-spaces/index.js';
import { siteBaseUrl, siteUrls } from '../index.js';

type SiteId = { siteId: string };

/** Sites, their adaptive schema and published view (root fields and the Site type). */
export const siteResolvers: Resolvers = {
  Query: {
    sites: (_: unknown, { organizationId, page, limit, ...filters }: PageArgs & SiteFilters & { organizationId: string }, ctx: Context) =>
      listSites(ctx, organizationId, filters, { page, limit }),
    site: (_: unknown, { id }: Id, ctx: Context, info: GraphQLResolveInfo) => {
      if (asksForTree(info)) ctx.loaders.askLayout(id);
      return ctx.loaders.site.get(id);
    },
    siteAdaptiveSchema: (_: unknown, { siteId }: SiteId, ctx: Context) => getAdaptiveSchema(ctx, siteId),
    publishedContentSite: (_: unknown, { siteId }: SiteId, ctx: Context) => publishedContentSite(ctx, siteId),
  },
  Mutation: {
    createSite: createInOrganization(createSite),
    updateSite: updateById(updateSite),
    deleteSite: (_: unknown, { id }: Id, ctx: Context) => succeeded(deleteSite(ctx, id)),
    publishSite: (_: unknown, { id }: Id, ctx: Context) => setPublished(ctx, id, true),
    unpublishSite: (_: unknown, { id }: Id, ctx: Context) => setPublished(ctx, id, false),
    updateSiteAdaptiveSchema: (_: unknown, { siteId, jsonSchema }: SiteId & { jsonSchema: unknown }, ctx: Context) =>
      updateAdaptiveSchema(ctx, siteId, jsonSchema),
  },
  Site: {
    object: () => 'site',
    siteSpaces: (s: SiteRow, _: unknown, ctx: Context) =>
      partOfSite(
        ctx.loaders,
        s.id,
        () => whenLoaded(ctx.loaders.siteSpacesBySite.get(s.id), (rows) => rows.length),
        () => ctx.loaders.siteSpaceCount.get(s.id),
      ),
    proxy: (s: SiteRow, _: unknown, ctx: Context) => (s.proxyOrigin ? { origin: s.proxyOrigin, target: siteBaseUrl(s, ctx.config) } : null),
    adaptiveContent: (s: SiteRow) => ({ enabled: s.adaptiveContentEnabled }),
    // No ads programme on a self-hosted server.
    ads: () => null,
    // Nothing is gated by plan here: every type can use every feature, so none is a premium feature.
    features: () => [],
    urls: (s: SiteRow, _: unknown, ctx: Context) => siteUrls(s, ctx.config),
    /** Only for members: a share-key visitor must not learn about the organization. */
    owningOrganization: async (s: SiteRow, _: unknown, ctx: Context) => {
      if (!(await ctx.policy.isMember(s.organization))) throw notFound('Organization');
      return ctx.loaders.organization.load(s.organization);
    },
    structure: (s: SiteRow, _: unknown, ctx: Context) => siteStructure(ctx, s),
    // The same lists as the root fields siteSections, siteSectionGroups and siteSpaces.
    sections: (s: SiteRow, args: PageArgs, ctx: Context, info: GraphQLResolveInfo) => listSiteSections(ctx, s.id, args, sectionNestingOf(info)),
    sectionGroups: (s: SiteRow, args: PageArgs, ctx: Context) => listSiteSectionGroups(ctx, s.id, args),
    siteSpaceList: (s: SiteRow, args: PageArgs & { default?: boolean | null }, ctx: Context) => listSiteSpaces(ctx, s.id, args),
    defaultSiteSection: (s: SiteRow, _: unknown, ctx: Context) => defaultSiteSection(ctx, s),
    defaultSiteSpace: (s: SiteRow, _: unknown, ctx: Context) => defaultSiteSpace(ctx, s),
    shareLinks: (s: SiteRow, args: PageArgs, ctx: Context) => pageOfShareLinks(ctx, s, args),
    adaptiveSchema: (s: SiteRow, _: unknown, ctx: Context) => ctx.loaders.adaptiveSchema.get(s.id),
  },
  SiteAdaptiveSchema: {
    object: () => 'site-adaptive-schema',
  },
  SiteStructureItem: {
    /** Rows carry no type tag: a site space publishes a space, a section has a path, a group has neither. */
    __resolveType: (item: Record<string, unknown>) =>
      'space' in item && item.space ? 'SiteSpace' : 'path' in item && item.path ? 'SiteSection' : 'SiteSectionGroup',
  },
};
