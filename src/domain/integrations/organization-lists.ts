import sql, { empty, type Sql } from 'sql-template-tag';
import { z } from 'zod';
import { visibleContent } from '../../auth/visibility.js';
import { creationOrder } from '../../db/creation-order.js';
import { readPage } from '../../db/pages.js';
import { readRows } from '../../db/statements.js';
import { containsIgnoringCase } from '../../db/text-match.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput } from '../../kernel/validation.js';
import type { ContentKind } from './checks.js';
import { readContentInstallations, viewsOf } from './content-installations.js';
import { IntegrationInstallation, type IntegrationInstallationRow } from './entities.js';
import { listIntegrations, type IntegrationFilters } from './service.js';

/*
 * What an organization, a space or a site has of integrations: the organization's installations, the
 * integrations it may install, its installations' statuses, and the integrations (and their blocks)
 * installed on a space or a site.
 */

const Search = z.object({ search: z.string().max(100, { error: 'must be at most 100 characters' }).nullish() });

/** `and` the integration named by `column` has `search` in its name or title (any case). */
function integrationMatches(column: Sql, search: string | null | undefined): Sql {
  if (!search) return empty;
  return sql`and exists (select 1 from "integration" i where i.name = ${column} and (${containsIgnoringCase('i.name', search)} or ${containsIgnoringCase('i.title', search)}))`;
}

/** The organization's installations with their integrations, oldest first; `search` keeps integrations whose name or title has it. */
export async function listOrganizationInstallations(ctx: Context, organizationId: string, search: string | null | undefined, args: PageArgs) {
  const { search: text } = parseInput(Search, { search });
  const where = sql`n.organization_id = ${organizationId} ${integrationMatches(sql`n.integration_name`, text)}`;
  const page = await readPage(ctx.em, { entity: IntegrationInstallation, alias: 'n', where, order: creationOrder<IntegrationInstallationRow>('n') }, args);
  return { ...page, items: page.items.map((installation) => ({ installation })) };
}

/** The integrations the organization may install, by name: every public one and the organization's own, narrowed by the filters. */
export function listOrganizationIntegrations(ctx: Context, organizationId: string, filters: IntegrationFilters, args: PageArgs) {
  return listIntegrations(ctx, filters, args, sql`(i.visibility = 'public' or i.organization_id = ${organizationId})`);
}

/** `exists` an installation of integration `i` in the organization that works on that space (or site). */
function installedOn(kind: ContentKind, organizationId: string, contentId: string): Sql {
  const [rows, column, selection] =
    kind === 'space'
      ? [sql`"integration_space_installation"`, sql`x.space_id`, sql`n.space_selection`]
      : [sql`"integration_site_installation"`, sql`x.site_id`, sql`n.site_selection`];
  return sql`exists (select 1 from "integration_installation" n where n.integration_name = i.name and n.organization_id = ${organizationId}
    and (${selection} = 'all' or exists (select 1 from ${rows} x where x.installation_id = n.id and ${column} = ${contentId})))`;
}

/** The integrations installed on a space (or site) of the organization, by name; `search` keeps names or titles containing it. */
export function listContentIntegrations(
  ctx: Context,
  kind: ContentKind,
  content: { id: string; organization: string },
  search: string | null | undefined,
  args: PageArgs,
) {
  return listIntegrations(ctx, { search }, args, installedOn(kind, content.organization, content.id));
}

/** The blocks of the integrations installed on a space, by integration name (those publishing none left out). */
export async function listSpaceIntegrationBlocks(ctx: Context, space: { id: string; organization: string }) {
  return readRows<{ name: string; blocks: { id: string; title: string }[] }>(
    ctx.em,
    sql`select i.name, i.blocks from "integration" i where ${installedOn('space', space.organization, space.id)} and jsonb_array_length(i.blocks) > 0 order by i.name`,
  );
}

const StatusFilters = z.object({
  target: oneOf(['organization', 'space', 'site'] as const).nullish(),
  space: z.string().nullish(),
  site: z.string().nullish(),
});

/** What an installation status says it is installed on. */
export type InstalledTarget = { type: 'organization' | ContentKind; organizationId?: string; spaceId?: string; siteId?: string };
export type InstalledIntegration = { status: string; integration: string; target: InstalledTarget };

/**
 * The statuses of the organization's installations, on the organization (the default `target`), or on
 * its spaces (those the viewer can read) or sites: one per installation and space (site), `space` (`site`)
 * keeping one.
 */
export async function listInstallationStatuses(
  ctx: Context,
  organizationId: string,
  filters: { target?: string | null; space?: string | null; site?: string | null },
  args: PageArgs,
) {
  const f = parseInput(StatusFilters, filters);
  const target = f.target ?? 'organization';
  if (f.space && target !== 'space') throw badRequest('space: only with target "space"');
  if (f.site && target !== 'site') throw badRequest('site: only with target "site"');
  if (target === 'organization') {
    const page = await readPage(
      ctx.em,
      { entity: IntegrationInstallation, alias: 'n', where: sql`n.organization_id = ${organizationId}`, order: creationOrder<IntegrationInstallationRow>('n') },
      args,
    );
    const items = page.items.map((n): InstalledIntegration => ({
      status: n.status,
      integration: n.integration,
      target: { type: 'organization', organizationId },
    }));
    return { ...page, items };
  }
  let readable = sql`true`;
  if (target === 'space') {
    const reach = await ctx.policy.contentReach([organizationId]);
    if (!reach.everything.includes(organizationId)) readable = visibleContent(reach, 'space', 'c');
  }
  const one = f.space ?? f.site;
  const page = await viewsOf(
    ctx,
    target,
    await readContentInstallations(ctx, target, sql`n.organization_id = ${organizationId} ${one ? sql`and c.id = ${one}` : empty} and ${readable}`, args),
  );
  const items = page.items.map((view): InstalledIntegration => ({
    status: view.status,
    integration: view.integration,
    target: target === 'space' ? { type: 'space', spaceId: view.content } : { type: 'site', siteId: view.content },
  }));
  return { ...page, items };
}

/** The status of the integration's installation on the organization; 404 when it is not installed there. */
export async function installationStatusOf(ctx: Context, organizationId: string, integrationName: string) {
  const installation = await ctx.em.findOne(IntegrationInstallation, { organization: organizationId, integration: integrationName }, { fields: ['status'] });
  if (!installation) throw notFound('Integration installation');
  return { status: installation.status };
}
