import type { Context } from '../../../kernel/context.js';
import { whenLoaded } from '../../../kernel/loader.js';
import { succeeded } from '../../../kernel/resolvers.js';
import type { Resolvers } from '../../../kernel/resolver-types.js';
import type { SiteSpaceRow } from '../index.js';
import { sectionOfSite } from '../index.js';
import {
  addSiteSpace,
  deleteSiteSpace,
  isDefaultSiteSpace,
  listSiteSpaces,
  moveSiteSpace,
  siteSpaceUrl,
  updateSiteSpace,
  type SiteSpaceListArgs,
} from './service.js';

type SiteArgs = { siteId: string; organizationId?: string | null };
type ItemArgs = SiteArgs & { id: string };

/**
 * Share keys that opened a site in this request, by site id: published URLs of its site spaces carry
 * the key (the contract's "shareKey resolves published URLs"). Keyed by the request's context, so
 * nothing outlives the request.
 */
const openedByKey = new WeakMap<Context, Map<string, string>>();

async function rememberShareKey(ctx: Context, siteId: string, shareKey: string | null | undefined) {
  if (!shareKey) return;
  const site = await ctx.loaders.site.load(siteId);
  if (!site || !(await ctx.policy.opensSite(site, shareKey))) return;
  const keys = openedByKey.get(ctx) ?? new Map<string, string>();
  keys.set(siteId, shareKey);
  openedByKey.set(ctx, keys);
}

/** Site spaces (root fields and their type). */
export const siteSpaceResolvers: Resolvers = {
  Query: {
    siteSpaces: async (_: unknown, { siteId, shareKey, ...args }: SiteArgs & SiteSpaceListArgs & { shareKey?: string | null }, ctx: Context) => {
      await rememberShareKey(ctx, siteId, shareKey);
      return listSiteSpaces(ctx, siteId, args);
    },
  },
  Mutation: {
    addSiteSpace: (_: unknown, { siteId, input }: SiteArgs & { input: unknown }, ctx: Context) => addSiteSpace(ctx, siteId, input),
    updateSiteSpace: (_: unknown, { siteId, id, input }: ItemArgs & { input: unknown }, ctx: Context) => updateSiteSpace(ctx, siteId, id, input),
    deleteSiteSpace: (_: unknown, { siteId, id }: ItemArgs, ctx: Context) => succeeded(deleteSiteSpace(ctx, siteId, id)),
    moveSiteSpace: (_: unknown, { siteId, id, position }: ItemArgs & { position?: unknown }, ctx: Context) => moveSiteSpace(ctx, siteId, id, position),
  },
  SiteSpace: {
    object: () => 'site-space',
    section: (s: SiteSpaceRow) => s.section ?? null,
    space: (s: SiteSpaceRow, _: unknown, ctx: Context) => ctx.loaders.spaceToRead.get(s.space),
    title: (s: SiteSpaceRow, _: unknown, ctx: Context) => whenLoaded(ctx.loaders.spaceToRead.get(s.space), (space) => space?.title ?? ''),
    default: (s: SiteSpaceRow, _: unknown, ctx: Context) => isDefaultSiteSpace(ctx, s),
    condition: (s: SiteSpaceRow) => s.condition ?? null,
    // The server has no per-site-space customization (no such operation is offered), so no site space has it.
    hasAdvancedCustomizationFeature: () => false,
    urls: (s: SiteSpaceRow, _: unknown, ctx: Context) =>
      whenLoaded(siteSpaceUrl(ctx, s, openedByKey.get(ctx)?.get(s.site) ?? null), (published) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/sites/${s.site}/site-spaces/${s.id}`,
        published,
      })),
    site: (s: SiteSpaceRow, _: unknown, ctx: Context) => ctx.loaders.site.get(s.site),
    siteSection: (s: SiteSpaceRow, _: unknown, ctx: Context) => (s.section ? sectionOfSite(ctx, s.site, s.section) : null),
  },
};
