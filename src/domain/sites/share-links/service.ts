import { randomBytes } from 'node:crypto';
import { applyChanges } from '../../../events/changes.js';
import type { Context } from '../../../kernel/context.js';
import { notFound } from '../../../kernel/errors.js';
import type { PageArgs } from '../../../kernel/pagination.js';
import { parseInput } from '../../../kernel/validation.js';
import { CreateShareLinkInput, UpdateShareLinkInput } from './inputs.js';
import { newId } from '../../../kernel/ids.js';
import { ShareLink, type ShareLinkRow, type ShareLinkEntity } from '../index.js';
import { recordShareLinkEvent } from '../index.js';
import { shareLinkPublishedUrl } from '../index.js';

/** 24 random bytes (192 bits), base64url: 32 characters that cannot be guessed. */
function newShareKey(): string {
  return randomBytes(24).toString('base64url');
}

/** The share link `id` of the site; 404 when it belongs to another site or none. */
async function shareLinkOfSite(ctx: Context, siteId: string, id: string): Promise<ShareLinkEntity> {
  const link = await ctx.em.findOne(ShareLink, { id, site: siteId });
  if (!link) throw notFound('Share link');
  return link;
}

/** Share links of a site, oldest first. */
export async function listShareLinks(ctx: Context, siteId: string, args: PageArgs) {
  return ctx.lists.shareLinksOfSite.load({ parent: siteId, args });
}

/**
 * Creates an active share link with a fresh secret key. The key opens the site (and the spaces it
 * publishes) to any authenticated caller while the link is active and the site's visibility is
 * `share-link`; a link may be prepared before the visibility is switched.
 */
export async function createShareLink(ctx: Context, siteId: string, input: unknown): Promise<ShareLinkRow> {
  const { name } = parseInput(CreateShareLinkInput, input);
  const site = (await ctx.loaders.site.load(siteId))!;
  const link = ctx.em.create(ShareLink, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    name,
    key: newShareKey(),
    active: true,
    createdAt: ctx.clock.now(),
  });
  recordShareLinkEvent(ctx, ctx.em, 'share_link.created', link);
  await ctx.em.flush();
  return link;
}

/** Renames a share link or turns it on or off; an inactive link stops working on the next request. */
export async function updateShareLink(ctx: Context, siteId: string, id: string, input: unknown): Promise<ShareLinkRow> {
  const changes = parseInput(UpdateShareLinkInput, input);
  const link = await shareLinkOfSite(ctx, siteId, id);
  const changed = applyChanges(link, changes);
  if (!changed.length) return link;
  recordShareLinkEvent(ctx, ctx.em, 'share_link.updated', link, changed);
  await ctx.em.flush();
  return link;
}

/** Deletes a share link; its key stops working on the next request. */
export async function deleteShareLink(ctx: Context, siteId: string, id: string): Promise<void> {
  const link = await shareLinkOfSite(ctx, siteId, id);
  ctx.em.remove(link);
  recordShareLinkEvent(ctx, ctx.em, 'share_link.deleted', link);
  await ctx.em.flush();
}

/** The link's published URL (the site's, carrying the key); given even before the site is published, since handing it out is the point. */
export async function shareLinkUrl(ctx: Context, link: ShareLinkRow): Promise<string | null> {
  const site = await ctx.loaders.site.load(link.site);
  return site ? shareLinkPublishedUrl(site, link, ctx.config) : null;
}
