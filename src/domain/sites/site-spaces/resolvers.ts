import { found, whenLoaded } from '../../../kernel/loader.js';
import { succeeded } from '../../../kernel/resolvers.js';
import type { Resolvers } from '../../../kernel/resolver-types.js';
import type { SiteSpaceRow } from '../index.js';
import { sectionOfSite } from '../index.js';
import { itemsShape } from '../../../db/read-shapes.js';
import { readAlong } from '../../../kernel/read-models.js';
import { rememberShareKey, shareKeyOf } from './share-keys.js';
import { addSiteSpace, deleteSiteSpace, isDefaultSiteSpace, listSiteSpaces, moveSiteSpace, siteSpaceUrl, updateSiteSpace } from './service.js';

/** Site spaces (root fields and their type). */
export const siteSpaceResolvers: Resolvers = {
  Query: {
    siteSpaces: async (_, { siteId, shareKey, ...args }, ctx, info) => {
      await rememberShareKey(ctx, siteId, shareKey);
      return listSiteSpaces(ctx, siteId, args, itemsShape(ctx, info, 'SiteSpace'));
    },
  },
  Mutation: {
    addSiteSpace: (_, { siteId, input }, ctx) => addSiteSpace(ctx, siteId, input),
    updateSiteSpace: (_, { siteId, id, input }, ctx) => updateSiteSpace(ctx, siteId, id, input),
    deleteSiteSpace: (_, { siteId, id }, ctx) => succeeded(deleteSiteSpace(ctx, siteId, id)),
    moveSiteSpace: (_, { siteId, id, position }, ctx) => moveSiteSpace(ctx, siteId, id, position),
  },
  SiteSpace: {
    object: () => 'site-space',
    draft: () => false,
    space: (s, _, ctx, info) =>
      found(
        readAlong(s, info, () => ctx.loaders.space.get(s.space)),
        'Space',
      ),
    title: (s, _, ctx, info) => readAlong(s, info, () => whenLoaded(ctx.loaders.space.get(s.space), (space) => space?.title ?? '')),
    default: (s, _, ctx, info) => readAlong(s, info, () => isDefaultSiteSpace(ctx, s)),
    // The server has no per-site-space customization (no such operation is offered), so no site space has it.
    hasAdvancedCustomizationFeature: () => false,
    urls: (s, _, ctx) =>
      whenLoaded(siteSpaceUrl(ctx, s, shareKeyOf(ctx, s.site)), (published) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/sites/${s.site}/site-spaces/${s.id}`,
        published,
      })),
    site: (s, _, ctx) => found(ctx.loaders.site.get(s.site), 'Site'),
    siteSection: (s, _, ctx, info) => readAlong(s, info, () => (s.section ? sectionOfSite(ctx, s.site, s.section) : null)),
  },
};

declare module '../../../kernel/resolver-parents.js' {
  interface ResolverParents {
    SiteSpace: SiteSpaceRow;
  }
}
