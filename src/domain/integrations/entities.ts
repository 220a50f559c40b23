import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Site } from '../sites/index.js';
import { Space } from '../spaces/index.js';

/**
 * An integration published by an organization, under a name unique on the server. Each publish
 * replaces its definition and bumps `version`. `secrets` are kept encrypted (AES-256-GCM) and never
 * returned.
 */
export const Integration = defineEntity({
  name: 'Integration',
  indexes: [{ properties: ['organization'] }],
  properties: {
    name: p.string().length(100).primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    version: p.integer(),
    title: p.string().length(30),
    description: p.string().length(100),
    summary: p.text().nullable(),
    /** The icon as a data: URL of the decoded image. */
    icon: p.text().nullable(),
    /** Preview images as data: URLs of the decoded images. */
    previewImages: p.json<string[]>(),
    visibility: p.string(),
    target: p.string(),
    scopes: p.json<string[]>(),
    categories: p.json<string[]>(),
    blocks: p.json<Record<string, unknown>[]>(),
    contentSources: p.json<Record<string, unknown>[]>(),
    externalLinks: p.json<{ url: string; label: string }[]>(),
    configurations: p.json<Record<string, unknown>>(),
    /** Never read by lists and graph fields (lazy): it can be large, and only a publish writes it. */
    script: p.text().lazy(),
    /** `{iv, tag, data}` (base64) of the JSON secrets map, or null when none were given. */
    secrets: p.json<{ iv: string; tag: string; data: string }>().nullable(),
    contentSecurityPolicy: p.json<string | Record<string, string>>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IntegrationRow = Plain<InferEntity<typeof Integration>>;

/** An integration installed on an organization, with the spaces and sites it works on. */
export const IntegrationInstallation = defineEntity({
  name: 'IntegrationInstallation',
  uniques: [{ properties: ['integration', 'organization'] }],
  indexes: [{ properties: ['organization'] }, { properties: ['integration', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    integration: () => p.manyToOne(Integration).mapToPk().deleteRule('cascade'),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    status: p.string(),
    /** `all` spaces of the organization, or the `selected` ones. */
    spaceSelection: p.string(),
    siteSelection: p.string(),
    /** Account-level configuration, valid against the integration's `configurations.account` schema. */
    configuration: p.json<Record<string, unknown>>(),
    /** Identifiers the integration gives the installation in its own system (at most 5). */
    externalIds: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IntegrationInstallationRow = Plain<InferEntity<typeof IntegrationInstallation>>;

/** What an installation keeps of itself on one space or site (0.202.0's `IntegrationContentInstallationBase`). */
function contentInstallationState() {
  return {
    /** Valid against the integration's `configurations.space` (or `site`) form; its status is read from it. */
    configuration: p.json<Record<string, unknown>>(),
    /** Identifiers the integration gives this space's (or site's) installation (at most 5). */
    externalIds: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  };
}

/**
 * An installation's own state on one space: the space is selected (selection `selected`), or, under
 * selection `all` (which covers every live space of the organization), the space has a configuration of
 * its own. Goes with the space.
 */
export const IntegrationSpaceInstallation = defineEntity({
  name: 'IntegrationSpaceInstallation',
  properties: {
    installation: () => p.manyToOne(IntegrationInstallation).mapToPk().deleteRule('cascade').primary(),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').primary().index(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    ...contentInstallationState(),
  },
});
export type IntegrationSpaceInstallationRow = Plain<InferEntity<typeof IntegrationSpaceInstallation>>;

/** The same for a site: selected, or configured under selection `all`. Goes with the site. */
export const IntegrationSiteInstallation = defineEntity({
  name: 'IntegrationSiteInstallation',
  properties: {
    installation: () => p.manyToOne(IntegrationInstallation).mapToPk().deleteRule('cascade').primary(),
    site: () => p.manyToOne(Site).mapToPk().deleteRule('cascade').primary().index(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    ...contentInstallationState(),
  },
});
export type IntegrationSiteInstallationRow = Plain<InferEntity<typeof IntegrationSiteInstallation>>;

declare module '../../kernel/rows.js' {
  interface Rows {
    Integration: IntegrationRow;
  }
}
