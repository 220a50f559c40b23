import type { Context } from '../../kernel/context.js';
import { whenLoaded } from '../../kernel/loader.js';
import type { SiteSectionRow } from './entities.js';

/** A section of a site, or null when the site has no such section. */
export function sectionOfSite(ctx: Context, siteId: string, sectionId: string): SiteSectionRow | null | Promise<SiteSectionRow | null> {
  return whenLoaded(ctx.loaders.siteSection.get(sectionId), (section) => (section?.site === siteId ? section : null));
}
