import type { Context } from '../../../graphql/context.js';
import type { PageArgs } from '../../common/pagination.js';
import { succeeded } from '../../common/resolvers.js';
import type { Resolvers } from '../../../graphql/resolver-types.js';
import type { ShareLinkRow } from '../entities.js';
import { createShareLink, deleteShareLink, listShareLinks, shareLinkUrl, updateShareLink } from './service.js';

type SiteArgs = { siteId: string; organizationId?: string | null };
type ItemArgs = SiteArgs & { id: string };

/** Share links of a site (root fields and their type). */
export const shareLinkResolvers: Resolvers = {
  Query: {
    shareLinks: (_: unknown, { siteId, ...args }: SiteArgs & PageArgs, ctx: Context) => listShareLinks(ctx, siteId, args),
  },
  Mutation: {
    createShareLink: (_: unknown, { siteId, input }: SiteArgs & { input: unknown }, ctx: Context) => createShareLink(ctx, siteId, input),
    updateShareLink: (_: unknown, { siteId, id, input }: ItemArgs & { input: unknown }, ctx: Context) => updateShareLink(ctx, siteId, id, input),
    deleteShareLink: (_: unknown, { siteId, id }: ItemArgs, ctx: Context) => succeeded(deleteShareLink(ctx, siteId, id)),
  },
  ShareLink: {
    object: () => 'share-link',
    urls: async (l: ShareLinkRow, _: unknown, ctx: Context) => ({ published: await shareLinkUrl(ctx, l) }),
  },
};
