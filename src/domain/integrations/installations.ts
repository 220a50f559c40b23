import { LockMode } from '@mikro-orm/postgresql';
import sql, { empty } from 'sql-template-tag';
import { z } from 'zod';
import { creationOrder } from '../../db/creation-order.js';
import { readPage } from '../../db/pages.js';
import type { Context } from '../../graphql/context.js';
import { badRequest, forbidden, notFound } from '../common/errors.js';
import type { PageArgs } from '../common/pagination.js';
import { oneOf, parseInput, text } from '../common/validation.js';
import { newId } from '../../ids.js';
import { Site } from '../sites/entities.js';
import { Space } from '../spaces/entities.js';
import { checkConfiguration, type ConfigurationsValue } from './configurations.js';
import {
  IntegrationInstallation,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  type IntegrationInstallationRow,
  type IntegrationRow,
} from './entities.js';

const SELECTIONS = ['all', 'selected'] as const;

const InstallInput = z.object({
  space_selection: oneOf(SELECTIONS).nullish(),
  spaces: z.array(z.string()).max(1000).nullish(),
  site_selection: oneOf(SELECTIONS).nullish(),
  sites: z.array(z.string()).max(1000).nullish(),
  configuration: z.record(z.string(), z.unknown(), { error: 'must be an object' }).nullish(),
  externalIds: z.array(text({ min: 1, max: 255 })).max(5, { error: 'must hold at most 5 ids' }).nullish(),
});

/**
 * A selection of spaces or sites: `all` (the default without ids) or `selected` (the default with ids).
 * Ids are only for `selected`.
 */
function selectionOf(field: string, selection: 'all' | 'selected' | null | undefined, ids: string[] | null | undefined) {
  const chosen = selection ?? (ids?.length ? 'selected' : 'all');
  if (chosen === 'all' && ids?.length) throw badRequest(`${field}: only with ${field === 'spaces' ? 'space' : 'site'}_selection "selected"`);
  return { selection: chosen, ids: [...new Set(ids ?? [])] };
}

/** The installation of the integration on the organization, or null. */
function findInstallation(ctx: Context, organizationId: string, integrationName: string) {
  return ctx.em.findOne(IntegrationInstallation, { organization: organizationId, integration: integrationName });
}

/** The integration's installation on the organization; 404 when it is not installed there. */
export async function installationOf(ctx: Context, organizationId: string, integrationName: string): Promise<IntegrationInstallationRow> {
  const installation = await findInstallation(ctx, organizationId, integrationName);
  if (!installation) throw notFound('Integration installation');
  return installation;
}

/**
 * The integration, when it installs on the organization; that the caller administers the organization
 * and reads the integration is the guard's (`readsTheIntegration`).
 */
async function installableIntegration(ctx: Context, organizationId: string, integrationName: string): Promise<IntegrationRow> {
  const integration = (await ctx.loaders.integration.load(integrationName))!;
  if (integration.visibility === 'private' && integration.organization !== organizationId) {
    throw forbidden('Integration: a private integration installs only on the organization that publishes it');
  }
  return integration;
}

/** Checks that every id names a live space (or a site) of the organization; a 400 naming the first that does not. */
async function checkOwnership(ctx: Context, organizationId: string, field: 'spaces' | 'sites', ids: string[]) {
  if (!ids.length) return;
  const found =
    field === 'spaces'
      ? await ctx.em.find(Space, { id: { $in: ids }, organization: organizationId, deletedAt: null }, { fields: ['id'] })
      : await ctx.em.find(Site, { id: { $in: ids }, organization: organizationId }, { fields: ['id'] });
  const known = new Set(found.map((row) => row.id));
  const missing = ids.find((id) => !known.has(id));
  if (missing) throw badRequest(`${field}: no ${field === 'spaces' ? 'space' : 'site'} "${missing}" in this organization`);
}

/**
 * Installs the integration on the organization, or changes its installation there: the space and site
 * selections and the account configuration (checked against the integration's form; the installation
 * is `pending` while a required property is missing, else `active`). Everything is checked before
 * anything changes.
 */
export async function installIntegration(ctx: Context, organizationId: string, integrationName: string, input: unknown): Promise<IntegrationInstallationRow> {
  const fields = parseInput(InstallInput, input);
  const integration = await installableIntegration(ctx, organizationId, integrationName);
  const spaces = selectionOf('spaces', fields.space_selection, fields.spaces);
  const sites = selectionOf('sites', fields.site_selection, fields.sites);
  if (integration.target === 'site' && spaces.ids.length) throw badRequest('spaces: this integration installs on sites only');
  if (integration.target === 'space' && sites.ids.length) throw badRequest('sites: this integration installs on spaces only');
  await checkOwnership(ctx, organizationId, 'spaces', spaces.ids);
  await checkOwnership(ctx, organizationId, 'sites', sites.ids);
  const existing = await findInstallation(ctx, organizationId, integrationName);
  const configured = checkConfiguration(integration.configurations as ConfigurationsValue, fields.configuration ?? existing?.configuration ?? {});
  if ('problem' in configured) {
    const { problem } = configured;
    throw badRequest(/^[\w.-]+: /.test(problem) ? `configuration.${problem}` : `configuration: ${problem}`);
  }
  const now = ctx.clock.now();
  const state = {
    status: configured.complete ? 'active' : 'pending',
    spaceSelection: spaces.selection,
    siteSelection: sites.selection,
    configuration: configured.value,
    ...(fields.externalIds ? { externalIds: [...new Set(fields.externalIds)] } : {}),
    updatedAt: now,
  };
  return ctx.em.transactional(async (tx) => {
    // INSERT … ON CONFLICT DO NOTHING, then the row locked: concurrent installs end in one installation.
    await tx
      .createQueryBuilder(IntegrationInstallation)
      .insert({ id: newId(), integration: integrationName, organization: organizationId, externalIds: [], createdAt: now, ...state })
      .onConflict(['integration', 'organization'])
      .ignore()
      .execute();
    const row = await tx.findOneOrFail(
      IntegrationInstallation,
      { integration: integrationName, organization: organizationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    tx.assign(row, state);
    await tx.flush();
    await tx.nativeDelete(IntegrationSpaceInstallation, { installation: row.id });
    await tx.nativeDelete(IntegrationSiteInstallation, { installation: row.id });
    for (const space of spaces.ids) tx.create(IntegrationSpaceInstallation, { installation: row.id, space, organization: organizationId });
    for (const site of sites.ids) tx.create(IntegrationSiteInstallation, { installation: row.id, site, organization: organizationId });
    return row;
  });
}

/** Removes the integration's installation from the organization; false when there was none. */
export async function uninstallIntegration(ctx: Context, organizationId: string, integrationName: string): Promise<boolean> {
  return (await ctx.em.nativeDelete(IntegrationInstallation, { organization: organizationId, integration: integrationName })) > 0;
}

/** Installations of an integration in every organization, oldest first; `externalId` keeps those carrying it. */
export async function listInstallations(ctx: Context, integrationName: string, externalId: string | null | undefined, args: PageArgs) {
  const where = sql`n.integration_name = ${integrationName} ${externalId ? sql`and n.external_ids @> jsonb_build_array(${externalId}::text)` : empty}`;
  return readPage(ctx.em, { entity: IntegrationInstallation, alias: 'n', where, order: creationOrder<IntegrationInstallationRow>('n') }, args);
}
