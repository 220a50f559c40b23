import sql, { type Sql } from 'sql-template-tag';
import type { Config } from '../../../kernel/config.js';
import type { LevelJoin } from '../../../kernel/read-models.js';
import { PUBLIC_URL } from '../../../kernel/request-values.js';
import type { ShareLinkRow, SiteRow, SiteSectionRow, SiteSpaceRow } from '../entities.js';

/**
 * Where a site's published content lives: its custom hostname when it has one, else under this
 * server's public URL; a basename (e.g. `docs`) is appended.
 */
export function siteBaseUrl(site: SiteRow, config: Config): string {
  const host = site.hostname ? `https://${site.hostname}` : `${config.publicUrl}/sites/${site.id}`;
  return site.basename ? `${host}/${site.basename}` : host;
}

/** `siteBaseUrl` in SQL, of the site row under `site`. */
export const siteBaseUrlSql = (site: Sql): Sql =>
  sql`case when nullif(${site}.hostname, '') is not null then 'https://' || ${site}.hostname else ${PUBLIC_URL}::text || '/sites/' || ${site}.id end
    || coalesce('/' || nullif(${site}.basename, ''), '')`;

/**
 * The join of the site a row belongs to (its id under the row's `siteId`), which carries its base URL as
 * `base_url` (siteBaseUrl), and what else its rows' URLs share (`computed`): computed once per site, not
 * once per section or site space.
 */
export const siteJoin = (siteId: (row: Sql) => Sql, computed: LevelJoin['computed'] = {}): LevelJoin => ({
  entity: 'Site',
  column: 'id',
  value: siteId,
  computed: { base_url: siteBaseUrlSql, ...computed },
});

export function siteUrls(site: SiteRow, config: Config) {
  return {
    location: `${config.publicUrl}/v1/orgs/${site.organization}/sites/${site.id}`,
    app: `${config.appUrl}/o/${site.organization}/sites/${site.id}`,
    published: site.published ? siteBaseUrl(site, config) : null,
  };
}

export function sectionPublishedUrl(site: SiteRow, section: SiteSectionRow, config: Config): string {
  return `${siteBaseUrl(site, config)}/${section.path}`;
}

export function siteSpacePublishedUrl(site: SiteRow, section: SiteSectionRow | null, siteSpace: SiteSpaceRow, config: Config): string {
  return section ? `${sectionPublishedUrl(site, section, config)}/${siteSpace.path}` : `${siteBaseUrl(site, config)}/${siteSpace.path}`;
}

/** The published URL of a share link carries its secret key. */
export function shareLinkPublishedUrl(site: SiteRow, link: ShareLinkRow, config: Config): string {
  return `${siteBaseUrl(site, config)}?shareKey=${encodeURIComponent(link.key)}`;
}
