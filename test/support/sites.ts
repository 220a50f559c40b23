import type { EntityName, RequiredEntityData } from '@mikro-orm/core';
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
} from '../../src/domain/sites/index.js';
import { newId } from '../../src/kernel/ids.js';
import { newOrganizationWithRoles } from './factories.js';
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

/** The site's row as stored, read behind the doors. */
export const siteRow = (server: TestServer, id: string) => server.em().findOneOrFail(Site, { id });

/** The section's row as stored, read behind the doors. */
export const sectionRow = (server: TestServer, id: string) => server.em().findOneOrFail(SiteSection, { id });

/** A new organization with a member of each role (see newOrganizationWithRoles) and a Site row in it (see insertSite). */
export async function newOrganizationWithSite(server: TestServer, overrides: Partial<SiteRow> = {}) {
  const organization = await newOrganizationWithRoles(server);
  return { ...organization, site: await insertSite(server, organization.organization.id, overrides) };
}

/** Inserts one row with the entity, as the server would store it. */
async function insertRow<Entity extends object>(server: TestServer, entity: EntityName<Entity>, data: RequiredEntityData<Entity>): Promise<Entity> {
  const em = server.em();
  const row = em.create(entity, data);
  await em.flush();
  return row;
}

/** The fields every part of a site starts with: a new id, the site and its organization, created now. */
const partOf = (server: TestServer, site: SiteRef) => ({ id: newId(), organization: site.organization, site: site.id, createdAt: server.clock.now() });

/** A Site of the organization: basic, public, published, titled "Docs", without sections or site spaces. */
export async function insertSite(server: TestServer, organizationId: string, overrides: Partial<SiteRow> = {}): Promise<SiteRow> {
  const now = server.clock.now();
  return insertRow(server, Site, {
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
  const section = await insertRow(server, SiteSection, {
    ...partOf(server, site),
    sectionGroup: null,
    title: `Section ${fields.path}`,
    description: null,
    condition: null,
    icon: null,
    defaultSiteSpace: null,
    ...overrides,
  });
  if (isDefault) await server.em().nativeUpdate(Site, { id: site.id }, { defaultSection: section.id });
  return section;
}

/** A SiteSectionGroup of the site at `position`, titled "Group" unless overridden. */
export function insertSectionGroup(
  server: TestServer,
  site: SiteRef,
  fields: Pick<SiteSectionGroupRow, 'position'> & Partial<SiteSectionGroupRow>,
): Promise<SiteSectionGroupRow> {
  return insertRow(server, SiteSectionGroup, { ...partOf(server, site), title: 'Group', icon: null, ...fields });
}

/** A SiteSpace publishing `space` in the site at `path` and `position`: at the root level unless `section` is given. */
export function insertSiteSpace(
  server: TestServer,
  site: SiteRef,
  fields: Pick<SiteSpaceRow, 'space' | 'path' | 'position'> & Partial<SiteSpaceRow>,
): Promise<SiteSpaceRow> {
  return insertRow(server, SiteSpace, { ...partOf(server, site), section: null, condition: null, ...fields });
}

/** An active ShareLink of the site named "Partners", with a new random key. */
export function insertShareLink(server: TestServer, site: SiteRef, overrides: Partial<ShareLinkRow> = {}): Promise<ShareLinkRow> {
  return insertRow(server, ShareLink, { ...partOf(server, site), name: 'Partners', key: newId() + newId(), active: true, ...overrides });
}

/** The SiteAdaptiveSchema of the site: an object schema without attributes unless `jsonSchema` is given. */
export function insertAdaptiveSchema(server: TestServer, site: SiteRef, overrides: Partial<SiteAdaptiveSchemaRow> = {}): Promise<SiteAdaptiveSchemaRow> {
  return insertRow(server, SiteAdaptiveSchema, {
    site: site.id,
    organization: site.organization,
    jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
    updatedAt: server.clock.now(),
    ...overrides,
  });
}
