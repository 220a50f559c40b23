import {
  ShareLink,
  Site,
  SiteAdaptiveSchema,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  type ShareLinkRow,
  type SiteAdaptiveSchemaRow,
  type SiteRow,
  type SiteSectionGroupRow,
  type SiteSectionRow,
  type SiteSpaceRow,
} from '../../src/domain/sites/entities.js';
import { newId } from '../../src/ids.js';
import type { TestServer } from './server.js';

/**
 * Rows of sites and of what hangs off them, written straight into the database with their entities,
 * so that a test of one site operation depends on no other. Each takes the fields to set over its
 * defaults; creation times are the server clock's.
 */

/** The site a row belongs to: its id and its organization's. */
export type SiteRef = { id: string; organization: string };

/** The path under which the REST facade serves a site: `/v1/orgs/{organizationId}/sites/{siteId}`. */
export const siteBase = (site: SiteRef) => `/v1/orgs/${site.organization}/sites/${site.id}`;

/** A Site of the organization: basic, public, published, titled "Docs", without sections or site spaces. */
export async function insertSite(server: TestServer, organizationId: string, overrides: Partial<SiteRow> = {}): Promise<SiteRow> {
  const em = server.em();
  const now = server.clock.now();
  const site = em.create(Site, {
    id: newId(),
    organization: organizationId,
    type: 'basic',
    title: 'Docs',
    hostname: null,
    basename: null,
    proxyOrigin: null,
    visibility: 'public',
    published: true,
    adaptiveContentEnabled: false,
    agentsContext: '',
    defaultSection: null,
    defaultSiteSpace: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });
  await em.flush();
  return site;
}

/**
 * A SiteSection of the site at `path` and `position`, outside groups and titled "Section <path>" unless
 * overridden; `isDefault` also makes it the site's default section.
 */
export async function insertSection(
  server: TestServer,
  site: SiteRef,
  fields: Pick<SiteSectionRow, 'path' | 'position'> & Partial<SiteSectionRow> & { isDefault?: boolean },
): Promise<SiteSectionRow> {
  const { isDefault, ...overrides } = fields;
  const em = server.em();
  const section = em.create(SiteSection, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    sectionGroup: null,
    title: `Section ${fields.path}`,
    description: null,
    condition: null,
    icon: null,
    defaultSiteSpace: null,
    createdAt: server.clock.now(),
    ...overrides,
  });
  await em.flush();
  if (isDefault) await em.nativeUpdate(Site, { id: site.id }, { defaultSection: section.id });
  return section;
}

/** A SiteSectionGroup of the site at `position`, titled "Group" unless overridden. */
export async function insertSectionGroup(
  server: TestServer,
  site: SiteRef,
  fields: Pick<SiteSectionGroupRow, 'position'> & Partial<SiteSectionGroupRow>,
): Promise<SiteSectionGroupRow> {
  const em = server.em();
  const group = em.create(SiteSectionGroup, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    title: 'Group',
    icon: null,
    createdAt: server.clock.now(),
    ...fields,
  });
  await em.flush();
  return group;
}

/** A SiteSpace publishing `space` in the site at `path` and `position`: at the root level unless `section` is given. */
export async function insertSiteSpace(
  server: TestServer,
  site: SiteRef,
  fields: Pick<SiteSpaceRow, 'space' | 'path' | 'position'> & Partial<SiteSpaceRow>,
): Promise<SiteSpaceRow> {
  const em = server.em();
  const siteSpace = em.create(SiteSpace, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    section: null,
    condition: null,
    createdAt: server.clock.now(),
    ...fields,
  });
  await em.flush();
  return siteSpace;
}

/** An active ShareLink of the site named "Partners", with a new random key. */
export async function insertShareLink(server: TestServer, site: SiteRef, overrides: Partial<ShareLinkRow> = {}): Promise<ShareLinkRow> {
  const em = server.em();
  const link = em.create(ShareLink, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    name: 'Partners',
    key: newId() + newId(),
    active: true,
    createdAt: server.clock.now(),
    ...overrides,
  });
  await em.flush();
  return link;
}

/** The SiteAdaptiveSchema of the site: an object schema without attributes unless `jsonSchema` is given. */
export async function insertAdaptiveSchema(
  server: TestServer,
  site: SiteRef,
  overrides: Partial<SiteAdaptiveSchemaRow> = {},
): Promise<SiteAdaptiveSchemaRow> {
  const em = server.em();
  const schema = em.create(SiteAdaptiveSchema, {
    site: site.id,
    organization: site.organization,
    jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
    updatedAt: server.clock.now(),
    ...overrides,
  });
  await em.flush();
  return schema;
}
