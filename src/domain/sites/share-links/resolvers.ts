import { succeeded } from '../../../kernel/resolvers.js';
import type { Resolvers } from '../../../kernel/resolver-types.js';
import type { ShareLinkRow } from '../index.js';
import { createShareLink, deleteShareLink, listShareLinks, shareLinkUrl, updateShareLink } from './service.js';

/** Share links of a site (root fields and their type). */
export const shareLinkResolvers: Resolvers = {
  Query: {
    shareLinks: (_, { siteId, ...args }, ctx) => listShareLinks(ctx, siteId, args),
  },
  Mutation: {
    createShareLink: (_, { siteId, input }, ctx) => createShareLink(ctx, siteId, input),
    updateShareLink: (_, { siteId, id, input }, ctx) => updateShareLink(ctx, siteId, id, input),
    deleteShareLink: (_, { siteId, id }, ctx) => succeeded(deleteShareLink(ctx, siteId, id)),
  },
  ShareLink: {
    object: () => 'share-link',
    urls: async (l, _, ctx) => ({ published: await shareLinkUrl(ctx, l) }),
  },
};

declare module '../../../kernel/resolver-parents.js' {
  interface ResolverParents {
    ShareLink: ShareLinkRow;
  }
}
