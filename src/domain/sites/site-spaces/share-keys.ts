import type { Context } from '../../../kernel/context.js';
import { requestValue } from '../../../kernel/request-values.js';

/**
 * Share keys that opened a site in this request, by site id: published URLs of its site spaces carry
 * the key (the contract's "shareKey resolves published URLs"). Keyed by the request's context, so
 * nothing outlives the request.
 */
const openedByKey = new WeakMap<Context, Map<string, string>>();

/** Remembers that `shareKey` opened the site in this request, when it does. */
export async function rememberShareKey(ctx: Context, siteId: string, shareKey: string | null | undefined) {
  if (!shareKey) return;
  const site = await ctx.loaders.site.load(siteId);
  if (!site || !(await ctx.policy.opensSite(site, shareKey))) return;
  const keys = openedByKey.get(ctx) ?? new Map<string, string>();
  keys.set(siteId, shareKey);
  openedByKey.set(ctx, keys);
}

/** The share key that opened the site in this request, if one did. */
export const shareKeyOf = (ctx: Context, siteId: string): string | null => openedByKey.get(ctx)?.get(siteId) ?? null;

/** The query string that published URLs of each site opened by a share key carry, as a JSON object by site id. */
export const SHARE_KEY_QUERIES = requestValue((ctx) =>
  JSON.stringify(Object.fromEntries([...(openedByKey.get(ctx) ?? [])].map(([site, key]) => [site, `?shareKey=${encodeURIComponent(key)}`]))),
);
