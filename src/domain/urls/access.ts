import type { Context } from '../../kernel/context.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import type { SpaceRow } from '../spaces/index.js';
import { siteAddress, type SiteAddress } from './site-addresses.js';

/** The one answer for a URL that names nothing the caller may read: unknown and unreadable look alike. */
export const nothingAt = () => notFound('Content at this URL');

/** What `found` finds, its 404 (a change request, a page…) being the URL's. */
export async function orNothing<T>(found: Promise<T>): Promise<T> {
  try {
    return await found;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') throw nothingAt();
    throw error;
  }
}

/** A live space the caller reads: by their role on it, or by a share key of a share-link site publishing it. */
export async function readableSpace(ctx: Context, spaceId: string, shareKey: string | null): Promise<SpaceRow> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space || space.deletedAt) throw nothingAt();
  if ((await ctx.policy.spaceRole(space)) === null && !(await ctx.policy.opensSpace(space, shareKey))) throw nothingAt();
  return space;
}

/** A published URL's site address and space, when the caller may read both; `shareKey` is the key that let them in, if one did. */
export type ReadableSiteAddress = SiteAddress & { space: SpaceRow; shareKey: string | null };

/**
 * The place in a site a published URL names, as far as the caller may read it (else 404): the site as
 * its readers see it (published or not), or, through the URL's `shareKey`, a published share-link site;
 * and the site space's space, as `readableSpace` has it.
 */
export async function readableSiteAddress(ctx: Context, url: URL): Promise<ReadableSiteAddress> {
  const address = await siteAddress(ctx, url);
  if (!address) throw nothingAt();
  const shareKey = url.searchParams.get('shareKey');
  const reader = (await ctx.policy.siteRole(address.site)) !== null;
  const opened = address.site.published && (await ctx.policy.opensSite(address.site, shareKey));
  if (!reader && !opened) throw nothingAt();
  const space = await readableSpace(ctx, address.siteSpace.space, opened ? shareKey : null);
  return { ...address, space, shareKey: opened ? shareKey : null };
}
