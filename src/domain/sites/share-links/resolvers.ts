import type { Context } from '../../../kernel/context.js';
import type { PageArgs } from '../../../kernel/pagination.js';
import { succeeded } from '../../../kernel/resolvers.js';
import type { Resolvers } from '../../../kernel/resolver-types.js';
import type { ShareLinkRow } from '../index.js';
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
