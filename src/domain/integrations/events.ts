import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../events/record.js';
import type { Context } from '../../kernel/context.js';
import type { IntegrationInstallationRow, IntegrationRow } from './entities.js';

/*
 * The payloads of integration events, in the contract's field names. An integration's script and sealed
 * secrets stay out (the one is large, the other secret); an installation carries its selections and
 * configuration as admins of its organization read them.
 */

export const integrationPayload = (integration: IntegrationRow) => ({
  object: 'integration',
  name: integration.name,
  organization: integration.organization,
  version: integration.version,
  title: integration.title,
  description: integration.description,
  summary: integration.summary,
  visibility: integration.visibility,
  target: integration.target,
  scopes: integration.scopes,
  categories: integration.categories,
  createdAt: integration.createdAt.toISOString(),
  updatedAt: integration.updatedAt.toISOString(),
});

export const installationPayload = (installation: IntegrationInstallationRow, selected: { spaces: string[]; sites: string[] } | null) => ({
  object: 'integration-installation',
  id: installation.id,
  integration: installation.integration,
  organization: installation.organization,
  status: installation.status,
  space_selection: installation.spaceSelection,
  site_selection: installation.siteSelection,
  ...(selected ? { spaces: selected.spaces, sites: selected.sites } : {}),
  configuration: installation.configuration,
  externalIds: installation.externalIds,
  createdAt: installation.createdAt.toISOString(),
  updatedAt: installation.updatedAt.toISOString(),
});

/** Records the publication (or a new version) of an integration, or its withdrawal, in its publisher's organization. */
export function recordIntegrationEvent(
  ctx: Context,
  em: EntityManager,
  type: 'integration.published' | 'integration.unpublished',
  integration: IntegrationRow,
) {
  recordEvent(ctx, em, {
    type,
    organizationId: integration.organization,
    target: { integrationName: integration.name },
    payload: integrationPayload(integration),
  });
}

type InstallationEventType = 'integration.installed' | 'integration.updated' | 'integration.uninstalled';

/** An installation's state on one space or site, as its admins read it. */
export type ContentInstallationPayload = {
  space?: string;
  site?: string;
  status: string;
  configuration: Record<string, unknown>;
  externalIds: readonly string[];
};

/**
 * Records a change of an installation in its organization; an update names the fields that changed. A
 * change on one space or site (installed there, its configuration, uninstalled) is an update of the
 * installation carrying that space's (or site's) installation.
 */
export function recordInstallationEvent(
  ctx: Context,
  em: EntityManager,
  type: InstallationEventType,
  installation: IntegrationInstallationRow,
  details: { selected?: { spaces: string[]; sites: string[] }; changes?: string[]; content?: ContentInstallationPayload } = {},
) {
  const payload = {
    ...installationPayload(installation, details.selected ?? null),
    ...(details.changes ? { changes: details.changes } : {}),
    ...(details.content ? { [details.content.space ? 'space_installation' : 'site_installation']: details.content } : {}),
  };
  const target = { integrationName: installation.integration, installationId: installation.id };
  recordEvent(ctx, em, { type, organizationId: installation.organization, target, payload });
}
