import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, raw, type Sql } from 'sql-template-tag';
import { executeReturning, readRows } from '../../db/statements.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, conflict, notFound } from '../../kernel/errors.js';
import { decodeCursor, encodeCursor, pageSize, type Page, type PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import type { ContentKind } from './checks.js';
import { checkConfiguration } from './configurations.js';
import {
  IntegrationInstallation,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  type IntegrationInstallationRow,
  type IntegrationRow,
} from './entities.js';
import { recordInstallationEvent, type ContentInstallationPayload } from './events.js';
import { UpdateIntegrationSiteInstallationInput, UpdateIntegrationSpaceInstallationInput } from './inputs.js';

/*
 * An installation on one space or site (0.202.0's IntegrationSpaceInstallation and
 * IntegrationSiteInstallation). An installation works on every live space (every site) of its
 * organization under selection `all`, and on the selected ones under `selected`; a selected space, or one
 * configured under `all`, has a row of its own (its configuration and external ids). A space without a
 * row under `all` has the configuration the integration's space form gives `{}` (its defaults).
 */

/** One installation on one space or site, as its resolvers read it. */
export type ContentInstallationView = {
  kind: ContentKind;
  installation: string;
  integration: string;
  organization: string;
  /** The space's (or site's) id. */
  content: string;
  configuration: Record<string, unknown>;
  externalIds: readonly string[];
  /** `pending` while a property the integration's space (or site) form requires is missing. */
  status: 'active' | 'pending';
};

/** What differs between spaces and sites: their rows, tables and the installation's selection of them. */
const KINDS = {
  space: {
    entity: IntegrationSpaceInstallation,
    rows: raw('"integration_space_installation"'),
    column: raw('"space_id"'),
    content: raw('"space"'),
    live: raw('and c.deleted_at is null'),
    selection: raw('space_selection'),
    field: 'spaces',
    input: UpdateIntegrationSpaceInstallationInput,
  },
  site: {
    entity: IntegrationSiteInstallation,
    rows: raw('"integration_site_installation"'),
    column: raw('"site_id"'),
    content: raw('"site"'),
    live: empty,
    selection: raw('site_selection'),
    field: 'sites',
    input: UpdateIntegrationSiteInstallationInput,
  },
} as const;

const selectionOf = (installation: IntegrationInstallationRow, kind: ContentKind) =>
  kind === 'space' ? installation.spaceSelection : installation.siteSelection;

/**
 * The configuration and status of an integration's installations on spaces (or sites) from what their
 * rows hold (null: no row, the form's defaults): each distinct configuration is checked once.
 */
export function contentStates(integration: IntegrationRow, kind: ContentKind) {
  const checked = new Map<string, { configuration: Record<string, unknown>; status: 'active' | 'pending' }>();
  return (stored: Record<string, unknown> | null) => {
    const key = stored ? JSON.stringify(stored) : '';
    let state = checked.get(key);
    if (!state) {
      const check = checkConfiguration(integration.configurations, stored ?? {}, kind);
      // A configuration the integration's form no longer accepts (republished since) waits for a new one.
      state =
        'problem' in check
          ? { configuration: stored ?? {}, status: 'pending' }
          : { configuration: stored ? stored : check.value, status: check.complete ? 'active' : 'pending' };
      checked.set(key, state);
    }
    return state;
  };
}

/** A page row of the content installations' statement. */
type PairRow = {
  installation: string;
  integration: string;
  organization: string;
  content: string;
  at: number;
  configuration: Record<string, unknown> | null;
  externalIds: string[] | null;
};

/** `and` the row of the pair comes after the cursor: a page identifier this list handed out, else a 400. */
function afterPair(page: string | null | undefined): Sql {
  if (!page) return empty;
  const parts = decodeCursor(page);
  const [at, content, installation] = parts;
  // Epoch milliseconds PostgreSQL and JavaScript both hold, and ids without NUL (which text cannot hold).
  const fits =
    parts.length === 3 &&
    typeof at === 'number' &&
    at >= -210_866_803_200_000 &&
    at <= 8_640_000_000_000_000 &&
    [content, installation].every((id) => typeof id === 'string' && !id.includes('\u0000'));
  if (!fits) throw badRequest('page: not a page identifier returned by this list');
  return sql`and (c.created_at, c.id, n.id) > (to_timestamp(${at}::float8 / 1000), ${content}, ${installation})`;
}

/**
 * One page of installations on spaces (or sites): the pairs of an installation that `where` selects
 * (alias `n`, its row of the content `x`, null without one) and a live space of its organization that it
 * works on (alias `c`), by the space's creation then the installation's id; and their exact count. One
 * statement, as readPage reads its lists.
 */
export async function readContentInstallations(ctx: Context, kind: ContentKind, where: Sql, args: PageArgs): Promise<Page<PairRow>> {
  const { rows, column, content, live, selection } = KINDS[kind];
  const limit = pageSize(args.limit);
  const from = sql`"integration_installation" n join ${content} c on c.organization_id = n.organization_id ${live}
    left join ${rows} x on x.installation_id = n.id and x.${column} = c.id`;
  const condition = sql`(n.${selection} = 'all' or x.installation_id is not null) and ${where}`;
  const page = sql`select n.id as "installation", n.integration_name as "integration", n.organization_id as "organization", c.id as "content",
      floor(extract(epoch from c.created_at) * 1000)::float8 as "at", x.configuration as "configuration", x.external_ids as "externalIds"
    from ${from} where ${condition} ${afterPair(args.page)} order by c.created_at, c.id, n.id limit ${limit + 1}`;
  const found = await readRows<PairRow & { count: string | number }>(
    ctx.em,
    sql`select (select count(*) from ${from} where ${condition}) as "count", p.* from (select) as one left join lateral (${page}) p on true`,
  );
  const pairs = found.filter((row) => row.installation !== null);
  const items = pairs.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    count: Number(found[0]?.count ?? 0),
    next: pairs.length > limit && last ? { page: encodeCursor([Number(last.at), last.content, last.installation]) } : null,
  };
}

/** The views of a page of pairs, their states checked once per integration and configuration. */
export async function viewsOf(ctx: Context, kind: ContentKind, page: Page<PairRow>): Promise<Page<ContentInstallationView>> {
  // The page's integrations in one loader batch, then each one's states once.
  const names = [...new Set(page.items.map((pair) => pair.integration))];
  const integrations = await ctx.loaders.integration.loadMany(names);
  const states = new Map(names.map((name, i) => [name, contentStates(integrations[i] as IntegrationRow, kind)]));
  const items: ContentInstallationView[] = [];
  for (const pair of page.items) {
    const { configuration, status } = states.get(pair.integration)!(pair.configuration);
    const { installation, integration, organization, content } = pair;
    items.push({ kind, installation, integration, organization, content, configuration, externalIds: pair.externalIds ?? [], status });
  }
  return { ...page, items };
}

/** The spaces (or sites) an installation works on, by creation. */
export async function listInstallationContent(ctx: Context, kind: ContentKind, installationId: string, args: PageArgs) {
  return viewsOf(ctx, kind, await readContentInstallations(ctx, kind, sql`n.id = ${installationId}`, args));
}

/** An integration's installations on spaces (or sites) in every organization; `externalId` keeps those carrying it. */
export async function listIntegrationContentInstallations(
  ctx: Context,
  kind: ContentKind,
  integrationName: string,
  externalId: string | null | undefined,
  args: PageArgs,
) {
  const carrying = externalId ? sql`and x.external_ids @> jsonb_build_array(${externalId}::text)` : empty;
  return viewsOf(ctx, kind, await readContentInstallations(ctx, kind, sql`n.integration_name = ${integrationName} ${carrying}`, args));
}

/** The installation on that space (or site), or 404 when it does not work there. */
export async function contentInstallationOf(ctx: Context, kind: ContentKind, installationId: string, contentId: string): Promise<ContentInstallationView> {
  const page = await readContentInstallations(ctx, kind, sql`n.id = ${installationId} and c.id = ${contentId}`, { limit: 1 });
  if (!page.items.length) throw notFound(`Integration ${kind} installation`);
  return (await viewsOf(ctx, kind, page)).items[0];
}

/**
 * Every live space (site) of the installation's organization without a row gets one, with the form's
 * defaults: the spaces an installation works on stay the same when its selection goes from `all` to
 * `selected`.
 */
export async function selectEvery(
  tx: EntityManager,
  kind: ContentKind,
  installation: IntegrationInstallationRow,
  configuration: Record<string, unknown>,
  now: Date,
) {
  const { rows, column, content, live } = KINDS[kind];
  await executeReturning(
    tx,
    sql`insert into ${rows} (installation_id, ${column}, organization_id, configuration, external_ids, created_at, updated_at)
      select ${installation.id}, c.id, c.organization_id, ${JSON.stringify(configuration)}::jsonb, '[]'::jsonb, ${now}, ${now}
      from ${content} c where c.organization_id = ${installation.organization} ${live}
      on conflict do nothing returning installation_id`,
  );
}

/** The installation, locked for the rest of the transaction: changes of its spaces and sites go one at a time. */
async function lockedInstallation(tx: EntityManager, installationId: string) {
  const installation = await tx.findOne(IntegrationInstallation, { id: installationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!installation) throw notFound('Integration installation');
  return installation;
}

/** The installation's view on one space (site) in the state given. */
const viewOn = (
  kind: ContentKind,
  installation: IntegrationInstallationRow,
  content: string,
  state: Pick<ContentInstallationView, 'configuration' | 'externalIds' | 'status'>,
): ContentInstallationView => ({
  kind,
  installation: installation.id,
  integration: installation.integration,
  organization: installation.organization,
  content,
  ...state,
});

const payloadOf = (view: ContentInstallationView): ContentInstallationPayload => ({
  [view.kind]: view.content,
  status: view.status,
  configuration: view.configuration,
  externalIds: view.externalIds,
});

/** The row of a content installation, as an insert takes it. */
function rowOf(kind: ContentKind, view: ContentInstallationView, createdAt: Date, updatedAt: Date) {
  return {
    installation: view.installation,
    [kind]: view.content,
    organization: view.organization,
    configuration: view.configuration,
    externalIds: [...view.externalIds],
    createdAt,
    updatedAt,
  } as { installation: string; organization: string; configuration: Record<string, unknown>; externalIds: string[]; createdAt: Date; updatedAt: Date } & Record<
    ContentKind,
    string
  >;
}

/**
 * Installs an installation of the organization on one of its spaces (or sites), with the configuration
 * the integration's form gives `{}`: the installation must select its spaces (`selected`); one already
 * there, or an installation working on all of them, is a 409. Concurrent installs make one row.
 */
export async function installOnContent(ctx: Context, kind: ContentKind, integrationName: string, installationId: string, contentId: string) {
  const integration = (await ctx.loaders.integration.load(integrationName))!;
  if (integration.target === (kind === 'space' ? 'site' : 'space')) {
    throw badRequest(`Integration: this integration installs on ${kind === 'space' ? 'sites' : 'spaces'} only`);
  }
  const { configuration, status } = contentStates(integration, kind)(null);
  const now = ctx.clock.now();
  return ctx.em.transactional(async (tx) => {
    const installation = await lockedInstallation(tx, installationId);
    if (selectionOf(installation, kind) === 'all') {
      throw conflict(`Integration installation: it works on every ${kind} (${kind}_selection "all"); select its ${KINDS[kind].field} to install on one`);
    }
    const view = viewOn(kind, installation, contentId, { configuration, externalIds: [], status });
    const inserted = await tx
      .createQueryBuilder(KINDS[kind].entity as typeof IntegrationSpaceInstallation)
      .insert(rowOf(kind, view, now, now) as never)
      .onConflict(['installation', kind] as never)
      .ignore()
      .execute<{ affectedRows: number }>('run');
    if (!inserted.affectedRows) throw conflict(`Integration installation: already installed on this ${kind}`);
    tx.assign(installation, { updatedAt: now });
    recordInstallationEvent(ctx, tx, 'integration.updated', installation, { changes: [KINDS[kind].field], content: payloadOf(view) });
    return view;
  });
}

/**
 * Changes the configuration (checked against the integration's space or site form) or the external ids
 * of the installation on one space (or site). Under selection `all` the first change gives the space a
 * row of its own. The same values again change nothing.
 */
export async function updateContentInstallation(
  ctx: Context,
  kind: ContentKind,
  integrationName: string,
  installationId: string,
  contentId: string,
  input: unknown,
) {
  const fields = parseInput(KINDS[kind].input, input);
  const integration = (await ctx.loaders.integration.load(integrationName))!;
  const configured = fields.configuration && checkConfiguration(integration.configurations, fields.configuration, kind);
  if (configured && 'problem' in configured) {
    const { problem } = configured;
    throw badRequest(/^[\w.-]+: /.test(problem) ? `configuration.${problem}` : `configuration: ${problem}`);
  }
  const states = contentStates(integration, kind);
  const now = ctx.clock.now();
  return ctx.em.transactional(async (tx) => {
    const installation = await lockedInstallation(tx, installationId);
    const entity = KINDS[kind].entity as typeof IntegrationSpaceInstallation;
    const row = await tx.findOne(entity, { installation: installation.id, [kind]: contentId });
    if (!row && selectionOf(installation, kind) !== 'all') throw notFound(`Integration ${kind} installation`);
    const stored = row ? { configuration: row.configuration, externalIds: row.externalIds } : { configuration: null, externalIds: [] };
    const before = states(stored.configuration);
    const configuration = configured ? configured.value : before.configuration;
    const externalIds = fields.externalIds ? [...new Set(fields.externalIds)] : stored.externalIds;
    const changes = [
      ...(JSON.stringify(configuration) !== JSON.stringify(before.configuration) ? [`${kind}.configuration`] : []),
      ...(JSON.stringify(externalIds) !== JSON.stringify(stored.externalIds) ? [`${kind}.externalIds`] : []),
    ];
    const view = viewOn(kind, installation, contentId, { configuration, externalIds, status: changes.length ? states(configuration).status : before.status });
    if (!changes.length) return view;
    if (row) tx.assign(row, { configuration, externalIds: [...externalIds], updatedAt: now });
    else tx.create(entity, rowOf(kind, view, now, now) as never);
    recordInstallationEvent(ctx, tx, 'integration.updated', installation, { changes, content: payloadOf(view) });
    return view;
  });
}

/**
 * Uninstalls the installation from one of its selected spaces (or sites); false when it was not
 * installed there. An installation working on all of them is a 409: its selection must change first.
 */
export async function uninstallFromContent(ctx: Context, kind: ContentKind, installationId: string, contentId: string): Promise<boolean> {
  const { rows, column } = KINDS[kind];
  const now = ctx.clock.now();
  return ctx.em.transactional(async (tx) => {
    const installation = await lockedInstallation(tx, installationId);
    if (selectionOf(installation, kind) === 'all') {
      throw conflict(`Integration installation: it works on every ${kind} (${kind}_selection "all"); select its ${KINDS[kind].field} to uninstall from one`);
    }
    const [removed] = await executeReturning<{ configuration: Record<string, unknown>; externalIds: string[] }>(
      tx,
      sql`delete from ${rows} where installation_id = ${installation.id} and ${column} = ${contentId} returning configuration, external_ids as "externalIds"`,
    );
    if (!removed) return false;
    const integration = (await ctx.loaders.integration.load(installation.integration))!;
    const { status } = contentStates(integration, kind)(removed.configuration);
    tx.assign(installation, { updatedAt: now });
    const view = viewOn(kind, installation, contentId, { status, ...removed });
    recordInstallationEvent(ctx, tx, 'integration.updated', installation, { changes: [KINDS[kind].field], content: payloadOf(view) });
    return true;
  });
}
