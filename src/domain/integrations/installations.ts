import { LockMode } from '@mikro-orm/postgresql';
import sql, { empty } from 'sql-template-tag';
import { creationOrder } from '../../db/creation-order.js';
import { readPage } from '../../db/pages.js';
import { executeReturning } from '../../db/statements.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, forbidden, notFound } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { InstallIntegrationInput } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { Site } from '../sites/index.js';
import { Space } from '../spaces/index.js';
import { checkConfiguration } from './configurations.js';
import { recordInstallationEvent } from './events.js';
import {
  IntegrationInstallation,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  type IntegrationInstallationRow,
  type IntegrationRow,
} from './entities.js';

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
  const fields = parseInput(InstallIntegrationInput, input);
  const integration = await installableIntegration(ctx, organizationId, integrationName);
  const spaces = selectionOf('spaces', fields.space_selection, fields.spaces);
  const sites = selectionOf('sites', fields.site_selection, fields.sites);
  if (integration.target === 'site' && spaces.ids.length) throw badRequest('spaces: this integration installs on sites only');
  if (integration.target === 'space' && sites.ids.length) throw badRequest('sites: this integration installs on spaces only');
  await checkOwnership(ctx, organizationId, 'spaces', spaces.ids);
  await checkOwnership(ctx, organizationId, 'sites', sites.ids);
  const existing = await findInstallation(ctx, organizationId, integrationName);
  const configured = checkConfiguration(integration.configurations, fields.configuration ?? existing?.configuration ?? {});
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
    const inserted = await tx
      .createQueryBuilder(IntegrationInstallation)
      .insert({ id: newId(), integration: integrationName, organization: organizationId, externalIds: [], createdAt: now, ...state })
      .onConflict(['integration', 'organization'])
      .ignore()
      .execute('run');
    const row = await tx.findOneOrFail(
      IntegrationInstallation,
      { integration: integrationName, organization: organizationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const selectedBefore = {
      spaces: (await tx.find(IntegrationSpaceInstallation, { installation: row.id })).map((selected) => selected.space),
      sites: (await tx.find(IntegrationSiteInstallation, { installation: row.id })).map((selected) => selected.site),
    };
    const changes = inserted.affectedRows > 0 ? undefined : changedFields(row, state, selectedBefore, { spaces: spaces.ids, sites: sites.ids });
    // The installation as it is: a no-op changes nothing, not even updatedAt.
    if (changes && !changes.length) return row;
    tx.assign(row, state);
    await tx.flush();
    await tx.nativeDelete(IntegrationSpaceInstallation, { installation: row.id });
    await tx.nativeDelete(IntegrationSiteInstallation, { installation: row.id });
    for (const space of spaces.ids) tx.create(IntegrationSpaceInstallation, { installation: row.id, space, organization: organizationId });
    for (const site of sites.ids) tx.create(IntegrationSiteInstallation, { installation: row.id, site, organization: organizationId });
    const selected = { spaces: spaces.ids, sites: sites.ids };
    if (!changes) recordInstallationEvent(ctx, tx, 'integration.installed', row, { selected });
    else if (changes.length > 0) recordInstallationEvent(ctx, tx, 'integration.updated', row, { selected, changes });
    return row;
  });
}

type Selected = { spaces: string[]; sites: string[] };

/** The fields of an installation that an install request changes: those whose stored value differs, the space and site lists included. */
function changedFields(row: IntegrationInstallationRow, state: Partial<IntegrationInstallationRow>, before: Selected, after: Selected): string[] {
  const changes: string[] = [];
  const sameIds = (a: string[], b: string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;
  if (state.status !== row.status) changes.push('status');
  if (state.spaceSelection !== row.spaceSelection) changes.push('space_selection');
  if (state.siteSelection !== row.siteSelection) changes.push('site_selection');
  if (!sameIds(before.spaces, after.spaces)) changes.push('spaces');
  if (!sameIds(before.sites, after.sites)) changes.push('sites');
  if (JSON.stringify(state.configuration) !== JSON.stringify(row.configuration)) changes.push('configuration');
  if (state.externalIds && JSON.stringify(state.externalIds) !== JSON.stringify(row.externalIds)) changes.push('externalIds');
  return changes;
}

/** Removes the integration's installation from the organization; false when there was none. */
export async function uninstallIntegration(ctx: Context, organizationId: string, integrationName: string): Promise<boolean> {
  return ctx.em.transactional(async (tx) => {
    // Deleted and read back in one statement: a concurrent uninstall removes it once and announces it once.
    const [removed] = await executeReturning<Record<string, unknown>>(
      tx,
      sql`delete from "integration_installation" where "organization_id" = ${organizationId} and "integration_name" = ${integrationName} returning *`,
    );
    if (!removed) return false;
    recordInstallationEvent(ctx, tx, 'integration.uninstalled', tx.map(IntegrationInstallation, removed));
    return true;
  });
}

/** Installations of an integration in every organization, oldest first; `externalId` keeps those carrying it. */
export async function listInstallations(ctx: Context, integrationName: string, externalId: string | null | undefined, args: PageArgs) {
  const where = sql`n.integration_name = ${integrationName} ${externalId ? sql`and n.external_ids @> jsonb_build_array(${externalId}::text)` : empty}`;
  return readPage(ctx.em, { entity: IntegrationInstallation, alias: 'n', where, order: creationOrder<IntegrationInstallationRow>('n') }, args);
}
