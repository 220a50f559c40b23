import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, type Sql } from 'sql-template-tag';
import { creationOrder } from '../../db/creation-order.js';
import { readPage } from '../../db/pages.js';
import { executeReturning } from '../../db/statements.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../kernel/errors.js';
import { found } from '../../kernel/loader.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { InstallIntegrationInput, UpdateIntegrationInstallationInput } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { Site } from '../sites/index.js';
import { Space } from '../spaces/index.js';
import { checkConfiguration } from './configurations.js';
import { contentStates, selectEvery } from './content-installations.js';
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
    const stored = {
      spaces: (await tx.find(IntegrationSpaceInstallation, { installation: row.id }, { fields: ['space'] })).map((selected) => selected.space),
      sites: (await tx.find(IntegrationSiteInstallation, { installation: row.id }, { fields: ['site'] })).map((selected) => selected.site),
    };
    // Under `all`, rows are the configurations of single spaces (sites), not a selection.
    const selectedBefore = { spaces: row.spaceSelection === 'selected' ? stored.spaces : [], sites: row.siteSelection === 'selected' ? stored.sites : [] };
    const changes = inserted.affectedRows > 0 ? undefined : changedFields(row, state, selectedBefore, { spaces: spaces.ids, sites: sites.ids });
    // The installation as it is: a no-op changes nothing, not even updatedAt.
    if (changes && !changes.length) return row;
    tx.assign(row, state);
    await tx.flush();
    const defaults = (kind: 'space' | 'site') => contentStates(integration, kind)(null).configuration;
    await keepSelection(tx, IntegrationSpaceInstallation, 'space', row, spaces, stored.spaces, defaults('space'), now);
    await keepSelection(tx, IntegrationSiteInstallation, 'site', row, sites, stored.sites, defaults('site'), now);
    const selected = { spaces: spaces.ids, sites: sites.ids };
    if (!changes) recordInstallationEvent(ctx, tx, 'integration.installed', row, { selected });
    else if (changes.length > 0) recordInstallationEvent(ctx, tx, 'integration.updated', row, { selected, changes });
    return row;
  });
}

/**
 * Makes an installation's rows of spaces (or sites) its selection: under `selected`, the rows of the ids
 * given (those already there keep their configuration, new ones get the form's defaults) and no others;
 * under `all`, the rows stay as they are (the configurations of single spaces).
 */
async function keepSelection(
  tx: EntityManager,
  entity: typeof IntegrationSpaceInstallation | typeof IntegrationSiteInstallation,
  kind: 'space' | 'site',
  installation: IntegrationInstallationRow,
  chosen: { selection: string; ids: string[] },
  stored: string[],
  configuration: Record<string, unknown>,
  now: Date,
) {
  if (chosen.selection !== 'selected') return;
  const keep = new Set(chosen.ids);
  const gone = stored.filter((id) => !keep.has(id));
  if (gone.length) await tx.nativeDelete(entity as typeof IntegrationSpaceInstallation, { installation: installation.id, [kind]: { $in: gone } });
  const had = new Set(stored);
  for (const id of chosen.ids.filter((id) => !had.has(id))) {
    const row = {
      installation: installation.id,
      [kind]: id,
      organization: installation.organization,
      configuration,
      externalIds: [],
      createdAt: now,
      updatedAt: now,
    };
    tx.create(entity as typeof IntegrationSpaceInstallation, row as never);
  }
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
export function uninstallIntegration(ctx: Context, organizationId: string, integrationName: string): Promise<boolean> {
  return removeInstallation(ctx, sql`"organization_id" = ${organizationId} and "integration_name" = ${integrationName}`);
}

/** Removes the installation `where` selects; false when there was none. */
function removeInstallation(ctx: Context, where: Sql): Promise<boolean> {
  return ctx.em.transactional(async (tx) => {
    // Deleted and read back in one statement: a concurrent uninstall removes it once and announces it once.
    const [removed] = await executeReturning<Record<string, unknown>>(tx, sql`delete from "integration_installation" where ${where} returning *`);
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

/** The installation of that id (its guard has found it, of the integration named). */
export async function installationById(ctx: Context, installationId: string): Promise<IntegrationInstallationRow> {
  return found(ctx.loaders.installationById.load(installationId), 'Integration installation');
}

/**
 * Installs the integration on the organization (0.202.0's installIntegration): the installation that
 * space and site installations hang off, on no space or site yet (selections `selected`, empty), with the
 * account form's defaults. Installed already: a 409; concurrent installs make one installation.
 */
export async function createInstallation(ctx: Context, integrationName: string, organizationId: string): Promise<IntegrationInstallationRow> {
  const integration = await installableIntegration(ctx, organizationId, integrationName);
  const configured = checkConfiguration(integration.configurations, {});
  const value = 'problem' in configured ? {} : configured.value;
  const now = ctx.clock.now();
  return ctx.em.transactional(async (tx) => {
    const row = {
      id: newId(),
      integration: integrationName,
      organization: organizationId,
      status: 'problem' in configured || configured.complete ? 'active' : 'pending',
      spaceSelection: 'selected',
      siteSelection: 'selected',
      configuration: value,
      externalIds: [],
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await tx
      .createQueryBuilder(IntegrationInstallation)
      .insert(row)
      .onConflict(['integration', 'organization'])
      .ignore()
      .execute<{ affectedRows: number }>('run');
    if (!inserted.affectedRows) throw conflict('organization: the integration is already installed on this organization');
    const installation = await tx.findOneOrFail(IntegrationInstallation, { id: row.id });
    recordInstallationEvent(ctx, tx, 'integration.installed', installation, { selected: { spaces: [], sites: [] } });
    return installation;
  });
}

/**
 * Updates an installation by id (0.202.0's body): its account configuration (checked against the form,
 * which sets its status), external ids, and selections. From `all` to `selected`, every space (site) it
 * works on stays selected; from `selected` to `all`, the rows stay as the spaces' configurations. The
 * same values again change nothing.
 */
export async function updateInstallationById(
  ctx: Context,
  integrationName: string,
  installationId: string,
  input: unknown,
): Promise<IntegrationInstallationRow> {
  const fields = parseInput(UpdateIntegrationInstallationInput, input);
  const integration = (await ctx.loaders.integration.load(integrationName))!;
  const configured = fields.configuration && checkConfiguration(integration.configurations, fields.configuration);
  if (configured && 'problem' in configured) {
    const { problem } = configured;
    throw badRequest(/^[\w.-]+: /.test(problem) ? `configuration.${problem}` : `configuration: ${problem}`);
  }
  const now = ctx.clock.now();
  return ctx.em.transactional(async (tx) => {
    const row = await tx.findOne(
      IntegrationInstallation,
      { id: installationId, integration: integrationName },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!row) throw notFound('Integration installation');
    const state = {
      ...(configured ? { configuration: configured.value, status: configured.complete ? 'active' : 'pending' } : {}),
      ...(fields.externalIds ? { externalIds: [...new Set(fields.externalIds)] } : {}),
      ...(fields.space_selection ? { spaceSelection: fields.space_selection } : {}),
      ...(fields.site_selection ? { siteSelection: fields.site_selection } : {}),
    };
    const changes = changedOf(row, state);
    if (!changes.length) return row;
    const defaults = (kind: 'space' | 'site') => contentStates(integration, kind)(null).configuration;
    if (row.spaceSelection === 'all' && state.spaceSelection === 'selected') await selectEvery(tx, 'space', row, defaults('space'), now);
    if (row.siteSelection === 'all' && state.siteSelection === 'selected') await selectEvery(tx, 'site', row, defaults('site'), now);
    tx.assign(row, { ...state, updatedAt: now });
    recordInstallationEvent(ctx, tx, 'integration.updated', row, { changes });
    return row;
  });
}

/** The contract's names of the fields of an installation that an update changes. */
function changedOf(row: IntegrationInstallationRow, state: Partial<IntegrationInstallationRow>): string[] {
  const names: [keyof IntegrationInstallationRow, string][] = [
    ['status', 'status'],
    ['spaceSelection', 'space_selection'],
    ['siteSelection', 'site_selection'],
    ['configuration', 'configuration'],
    ['externalIds', 'externalIds'],
  ];
  return names.filter(([key]) => key in state && JSON.stringify(state[key]) !== JSON.stringify(row[key])).map(([, name]) => name);
}

/** Uninstalls an installation by id; false when it is gone already (a concurrent uninstall announced it). */
export function uninstallById(ctx: Context, integrationName: string, installationId: string): Promise<boolean> {
  return removeInstallation(ctx, sql`"id" = ${installationId} and "integration_name" = ${integrationName}`);
}
