import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Space } from '../spaces/index.js';

/** A published docs site of an organization. */
export const Site = defineEntity({
  name: 'Site',
  // By hostname: a published URL's host finds its site (urls/site-addresses.ts).
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }, { properties: ['hostname'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    type: p.string(),
    title: p.string(),
    hostname: p.string().length(512).nullable(),
    basename: p.string().nullable(),
    /** Proxy origin such as `company.com/docs`, when the site is served behind a proxy. */
    proxyOrigin: p.string().length(512).nullable(),
    visibility: p.string(),
    published: p.boolean(),
    adaptiveContentEnabled: p.boolean(),
    agentsContext: p.string(),
    /** The default section of a site with sections. */
    defaultSection: p.string().nullable(),
    /** The default site space at the root level of a site without sections. */
    defaultSiteSpace: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `SiteRow`. */
export type SiteEntity = InferEntity<typeof Site>;
export type SiteRow = Plain<SiteEntity>;

/** A group of sections, shown together in the site's navigation. */
export const SiteSectionGroup = defineEntity({
  name: 'SiteSectionGroup',
  indexes: [{ properties: ['site', 'position'] }, { name: 'site_section_group_site_id_position_id_index', properties: ['site', 'position', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    site: () => p.manyToOne(Site).mapToPk().deleteRule('cascade'),
    title: p.string(),
    icon: p.string().nullable(),
    /** Fractional ordering key among the site's top-level items (sections outside groups, and groups). */
    position: p.string().collation('C'),
    createdAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `SiteSectionGroupRow`. */
export type SiteSectionGroupEntity = InferEntity<typeof SiteSectionGroup>;
export type SiteSectionGroupRow = Plain<SiteSectionGroupEntity>;

/** A section of a site: a top-level entry of its navigation holding site spaces (variants). */
export const SiteSection = defineEntity({
  name: 'SiteSection',
  indexes: [
    { properties: ['site', 'position'] },
    { name: 'site_section_site_id_nav_key_index', properties: ['site', 'navKey'] },
    { name: 'site_section_section_group_id_position_id_index', properties: ['sectionGroup', 'position', 'id'] },
  ],
  uniques: [{ properties: ['site', 'path'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    site: () => p.manyToOne(Site).mapToPk().deleteRule('cascade'),
    /** Containing group; a section outside groups is a top-level item of the site. */
    sectionGroup: () => p.manyToOne(SiteSectionGroup).mapToPk().nullable().deleteRule('set null'),
    title: p.string(),
    description: p.text().nullable(),
    path: p.string(),
    condition: p.text().nullable(),
    icon: p.string().nullable(),
    /** The section's default site space. */
    defaultSiteSpace: p.string().nullable(),
    /** Ordering key among the site's top-level items, or among the group's sections when in a group. */
    position: p.string().collation('C'),
    createdAt: p.datetime(),
    /** Kept by the database (Migration20261202090000): the sort key of the site's navigation order. */
    navKey: p.array().lazy().default([]),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `SiteSectionRow`. */
export type SiteSectionEntity = InferEntity<typeof SiteSection>;
export type SiteSectionRow = Plain<SiteSectionEntity>;

/** A space published in a site, in a section or (for a site without sections) at its root level. */
export const SiteSpace = defineEntity({
  name: 'SiteSpace',
  indexes: [
    { properties: ['site', 'section', 'position'] },
    { properties: ['space'] },
    { name: 'site_space_site_id_nav_key_index', properties: ['site', 'navKey'] },
    { name: 'site_space_section_id_position_id_index', properties: ['section', 'position', 'id'] },
  ],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    site: () => p.manyToOne(Site).mapToPk().deleteRule('cascade'),
    section: () => p.manyToOne(SiteSection).mapToPk().nullable().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade'),
    path: p.string(),
    condition: p.text().nullable(),
    position: p.string().collation('C'),
    createdAt: p.datetime(),
    /** Kept by the database (Migration20261202090000): the sort key of the site's navigation order. */
    navKey: p.array().lazy().default([]),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `SiteSpaceRow`. */
export type SiteSpaceEntity = InferEntity<typeof SiteSpace>;
export type SiteSpaceRow = Plain<SiteSpaceEntity>;

/** A secret link giving access to a share-link site. */
export const ShareLink = defineEntity({
  name: 'ShareLink',
  indexes: [{ properties: ['site', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    site: () => p.manyToOne(Site).mapToPk().deleteRule('cascade'),
    name: p.string(),
    /** At least 128 random bits, base64url; appears in the link's published URL. */
    key: p.string().unique(),
    active: p.boolean(),
    createdAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `ShareLinkRow`. */
export type ShareLinkEntity = InferEntity<typeof ShareLink>;
export type ShareLinkRow = Plain<ShareLinkEntity>;

/** The JSON Schema of the visitor attributes that adaptive content conditions may use. */
export const SiteAdaptiveSchema = defineEntity({
  name: 'SiteAdaptiveSchema',
  properties: {
    site: () => p.oneToOne(Site).mapToPk().primary().deleteRule('cascade'),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    jsonSchema: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime(),
  },
});
export type SiteAdaptiveSchemaRow = Plain<InferEntity<typeof SiteAdaptiveSchema>>;

declare module '../../kernel/rows.js' {
  interface Rows {
    Site: SiteRow;
  }
}
