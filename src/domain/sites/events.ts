import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../events/record.js';
import type { Context } from '../../kernel/context.js';
import type { ShareLinkRow, SiteRow } from './entities.js';

/*
 * The payloads of site events: the site and its share links as the contract names their fields, with
 * related resources as ids. No urls (they depend on the server's address) and no share keys (secrets
 * that open the site have no place in an event many receivers read).
 */

export const sitePayload = (site: SiteRow) => ({
  object: 'site',
  id: site.id,
  organization: site.organization,
  type: site.type,
  title: site.title,
  visibility: site.visibility,
  published: site.published,
  basename: site.basename,
  proxy: site.proxyOrigin ? { origin: site.proxyOrigin } : null,
  adaptiveContent: { enabled: site.adaptiveContentEnabled },
  agentsContext: site.agentsContext,
  defaultSiteSection: site.defaultSection,
  defaultSiteSpace: site.defaultSiteSpace,
  createdAt: site.createdAt.toISOString(),
  updatedAt: site.updatedAt.toISOString(),
});

export const shareLinkPayload = (link: ShareLinkRow) => ({
  object: 'share-link',
  id: link.id,
  site: link.site,
  name: link.name,
  active: link.active,
  createdAt: link.createdAt.toISOString(),
});

type SiteEventType = 'site.created' | 'site.updated' | 'site.deleted' | 'site.published' | 'site.unpublished';

/** Records a change of the site itself; an update names the fields that changed. */
export function recordSiteEvent(ctx: Context, em: EntityManager, type: SiteEventType, site: SiteRow, changes?: string[]) {
  const payload = changes ? { ...sitePayload(site), changes } : sitePayload(site);
  recordEvent(ctx, em, { type, organizationId: site.organization, target: { siteId: site.id }, payload });
}

type ShareLinkEventType = 'share_link.created' | 'share_link.updated' | 'share_link.deleted';

export function recordShareLinkEvent(ctx: Context, em: EntityManager, type: ShareLinkEventType, link: ShareLinkRow, changes?: string[]) {
  const payload = changes ? { ...shareLinkPayload(link), changes } : shareLinkPayload(link);
  recordEvent(ctx, em, { type, organizationId: link.organization, target: { siteId: link.site, shareLinkId: link.id }, payload });
}

/** What part of a site's structure changed, and how. */
export type StructureChange = {
  object: 'site-section' | 'site-section-group' | 'site-space';
  id: string;
  change: 'added' | 'updated' | 'moved' | 'removed';
  /** For an update, the fields that changed. */
  changes?: string[];
};

const targetName = { 'site-section': 'siteSectionId', 'site-section-group': 'siteSectionGroupId', 'site-space': 'siteSpaceId' } as const;

/** Records one change of a site's sections, section groups or site spaces (`site.structure_changed`). */
export function recordStructureChange(ctx: Context, em: EntityManager, site: Pick<SiteRow, 'id' | 'organization'>, change: StructureChange) {
  recordEvent(ctx, em, {
    type: 'site.structure_changed',
    organizationId: site.organization,
    target: { siteId: site.id, [targetName[change.object]]: change.id },
    payload: { site: site.id, ...change },
  });
}
