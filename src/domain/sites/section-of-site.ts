import type { Context } from '../../kernel/context.js';
import { whenLoaded } from '../../kernel/loader.js';
import type { SiteSectionRow } from './entities.js';
import { partOfSite } from './loaders.js';

/** A section of a site, or null when the site has no such section. */
export function sectionOfSite(ctx: Context, siteId: string, sectionId: string): SiteSectionRow | null | Promise<SiteSectionRow | null> {
  const own = () => whenLoaded(ctx.loaders.sectionRow.get(sectionId), (section) => (section?.site === siteId ? section : null));
  // A site's layout, once read, holds its sections already.
  return partOfSite(ctx.loaders, siteId, () => whenLoaded(ctx.loaders.sectionsBySite.get(siteId), own), own);
}
