import type { Context } from '../../kernel/context.js';
import { changeRequestIn, type ChangeRequestRow } from '../change-requests/index.js';
import type { CollectionRow } from '../collections/index.js';
import { changeRequestContent, DEFAULT_READ, pageAtPath, spaceContent } from '../content/index.js';
import type { SpaceRow } from '../spaces/index.js';
import { appAddress, parseUrl, type AppAddress } from './addresses.js';
import { nothingAt, orNothing, readableSiteAddress, readableSpace } from './access.js';

/** What a URL names (0.202.0's getContentByUrl answer): a collection, or a space with a change request and a page in it. */
export type ContentAtUrl = {
  collection: CollectionRow | null;
  space: SpaceRow | null;
  changeRequest: ChangeRequestRow | null;
  page: Awaited<ReturnType<typeof pageAtPath>> | null;
};

/** The page at `path` of the space's main content or of the change request's; a missing one is the URL's 404. */
async function pageOf(ctx: Context, space: SpaceRow, changeRequest: ChangeRequestRow | null, path: string[]) {
  const view = changeRequest ? await changeRequestContent(ctx, space.id, changeRequest.id, DEFAULT_READ) : await spaceContent(ctx, space, DEFAULT_READ);
  return orNothing(pageAtPath(ctx, view, path.join('/')));
}

async function spaceContentAt(ctx: Context, address: Extract<AppAddress, { kind: 'space' }>, shareKey: string | null): Promise<ContentAtUrl> {
  const space = await readableSpace(ctx, address.spaceId, shareKey);
  if (address.revision && (await ctx.loaders.revision.load(address.revision))?.space === space.id) {
    return { collection: null, space, changeRequest: null, page: null };
  }
  const changeRequest = address.changeRequest ? await orNothing(changeRequestIn(ctx, space.id, address.changeRequest)) : null;
  const page = address.pagePath.length ? await pageOf(ctx, space, changeRequest, address.pagePath) : null;
  return { collection: null, space, changeRequest, page };
}

/**
 * The collection, space, change request or page an address of this server names (app addresses,
 * a space's published address, a site's published URLs: see addresses.ts and site-addresses.ts), as far
 * as the caller may read it: anything else, of this server or not, is a 404; a malformed URL a 400.
 */
export async function contentByUrl(ctx: Context, raw: string): Promise<ContentAtUrl> {
  const url = parseUrl(raw);
  const address = appAddress(url, ctx.config);
  if (address?.kind === 'collection') {
    const collection = await ctx.policy.visibleCollection(address.collectionId);
    if (!collection) throw nothingAt();
    return { collection, space: null, changeRequest: null, page: null };
  }
  if (address) return spaceContentAt(ctx, address, null);
  const place = await readableSiteAddress(ctx, url);
  return spaceContentAt(ctx, { kind: 'space', spaceId: place.space.id, changeRequest: null, pagePath: place.pagePath }, place.shareKey);
}
