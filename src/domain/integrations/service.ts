import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { changedFields } from '../../events/changes.js';
import { withinTokenOrganization } from '../../auth/visibility.js';
import sql, { empty, raw, type Sql } from 'sql-template-tag';
import { z } from 'zod';
import { readPage, type SortKey } from '../../db/pages.js';
import { containsIgnoringCase } from '../../db/text-match.js';
import type { Context } from '../../kernel/context.js';
import { conflict } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput } from '../../kernel/validation.js';
import { Integration, type IntegrationRow } from './entities.js';
import { recordIntegrationEvent } from './events.js';
import { INTEGRATION_CATEGORIES, INTEGRATION_SCOPES, INTEGRATION_TARGETS, integrationName, PublishIntegrationInput } from './inputs.js';
import { sealSecrets } from './secrets.js';

export type IntegrationFilters = {
  search?: string | null;
  category?: string | null;
  blockDomain?: string | null;
  blocks?: boolean | null;
  contentSources?: boolean | null;
  owner?: string | null;
  scope?: string | null;
  target?: string | null;
};

const Filters = z.object({
  search: z.string().max(100, { error: 'must be at most 100 characters' }).nullish(),
  category: oneOf(INTEGRATION_CATEGORIES).nullish(),
  blockDomain: integrationName.nullish(),
  blocks: z.boolean().nullish(),
  contentSources: z.boolean().nullish(),
  owner: z.string().nullish(),
  scope: oneOf(INTEGRATION_SCOPES).nullish(),
  target: oneOf(INTEGRATION_TARGETS).nullish(),
});

/**
 * `and` a block of the integration unfurls URLs of `domain` (or of a subdomain a wildcard covers): the
 * host of each `urlUnfurl` pattern (`https://*.example.com/*` → `*.example.com`), lower-cased.
 */
function unfurlsDomain(domain: string) {
  const wanted = domain.toLowerCase();
  return sql`and exists (
    select 1 from jsonb_array_elements(i.blocks) b(block)
      cross join jsonb_array_elements_text(coalesce(b.block -> 'urlUnfurl', '[]')) u(pattern)
      cross join lateral (select lower(substring(u.pattern from '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#:]+)')) as host) h
    where h.host = ${wanted}
      or (left(h.host, 2) = '*.' and (substr(h.host, 3) = ${wanted} or right(${wanted}, length(h.host) - 1) = substr(h.host, 2))))`;
}

const byName: SortKey<IntegrationRow>[] = [{ sql: 'i.name', of: (i) => i.name }];

/** `and` the JSON list is empty or not, as `nonEmpty` asks (when it does). */
const hasItems = (column: string, nonEmpty: boolean | null | undefined) =>
  nonEmpty === undefined || nonEmpty === null ? empty : sql`and (jsonb_array_length(${raw(column)}) > 0) = ${nonEmpty}`;

/**
 * Integrations the viewer can see, by name: the public ones and every one published by an organization
 * they belong to (or those `among` selects: alias `i`), narrowed by the filters.
 */
export async function listIntegrations(ctx: Context, filters: IntegrationFilters, args: PageArgs, among?: Sql) {
  const f = parseInput(Filters, filters);
  const visible =
    among ??
    sql`(i.visibility = 'public' or i.organization_id in (select m.organization_id from member m where m.user_id = ${ctx.viewer!.user.id} and not m.disabled${withinTokenOrganization(ctx.viewer, sql`m.organization_id`)}))`;
  const where = sql`${visible}
    ${f.owner ? sql`and i.organization_id = ${f.owner}` : empty}
    ${f.scope ? sql`and i.scopes @> jsonb_build_array(${f.scope}::text)` : empty}
    ${f.target ? sql`and i.target = ${f.target}` : empty}
    ${f.search ? sql`and (${containsIgnoringCase('i.name', f.search)} or ${containsIgnoringCase('i.title', f.search)})` : empty}
    ${f.category ? sql`and i.categories @> jsonb_build_array(${f.category}::text)` : empty}
    ${f.blockDomain ? unfurlsDomain(f.blockDomain) : empty}
    ${hasItems('i.blocks', f.blocks)}
    ${hasItems('i.content_sources', f.contentSources)}`;
  const page = await readPage(ctx.em, { entity: Integration, alias: 'i', where, order: byName }, args);
  for (const row of page.items) {
    // Sealed secrets are never shown: they leave the page as the graph's rows never hold them. The rows
    // are this read's own plain objects (nothing managed or stored changes), so the one write they get
    // lifts their read-only typing for this key alone.
    delete (row as { secrets?: IntegrationRow['secrets'] }).secrets;
    ctx.loaders.integration.remember(row.name, row);
  }
  return page;
}

/** The integration of that name (its guard has checked that the viewer may see it). */
export async function integrationOf(ctx: Context, name: string): Promise<IntegrationRow> {
  return (await ctx.loaders.integration.load(name))!;
}

/**
 * Publishes an integration for the organization named in the input (id or subdomain; its guard has
 * checked that the viewer is an admin there): creates it at version 1, or replaces the definition of
 * the organization's integration of that name and bumps its version. A name another organization
 * publishes is refused (409). The row is locked while it changes, so concurrent publishes each get a
 * version of their own.
 */
export async function publishIntegration(ctx: Context, name: string, input: unknown): Promise<IntegrationRow> {
  parseInput(z.object({ integrationName }), { integrationName: name });
  const fields = parseInput(PublishIntegrationInput, input);
  const organization = (await ctx.loaders.organizationByIdOrSubdomain.load(fields.organization))!;
  // Omitted: the stored secrets stay; null or {}: none any more.
  const secrets =
    fields.secrets === undefined
      ? undefined
      : fields.secrets && Object.keys(fields.secrets).length
        ? await sealSecrets(ctx.em, ctx.clock, name, fields.secrets)
        : null;
  const now = ctx.clock.now();
  const definition = {
    title: fields.title,
    description: fields.description,
    summary: fields.summary ?? null,
    icon: fields.icon ?? null,
    previewImages: fields.previewImages ?? [],
    visibility: fields.visibility ?? 'public',
    target: fields.target ?? 'all',
    scopes: fields.scopes,
    categories: fields.categories ?? [],
    blocks: fields.blocks ?? [],
    contentSources: fields.contentSources ?? [],
    externalLinks: fields.externalLinks ?? [],
    configurations: fields.configurations ?? {},
    script: fields.script,
    contentSecurityPolicy: fields.contentSecurityPolicy ?? null,
    updatedAt: now,
  };
  const published = await ctx.em.transactional(async (tx: EntityManager) => {
    // INSERT … ON CONFLICT DO NOTHING, then the row locked: concurrent first publications of a name
    // create it once, and the others update it in turn.
    const inserted = await tx
      .createQueryBuilder(Integration)
      .insert({ name, organization: organization.id, version: 1, secrets: secrets ?? null, createdAt: now, ...definition })
      .onConflict(['name'])
      .ignore()
      .execute('run');
    // With its script (lazy elsewhere): a publish compares it.
    const integration = await tx.findOneOrFail(Integration, { name }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, populate: ['script'] });
    if (integration.organization !== organization.id) throw conflict(`integrationName: "${name}" is published by another organization`);
    if (!inserted.affectedRows) {
      const { updatedAt: _, ...published } = definition;
      // The same definition again (and no new secrets) is a no-op: no new version, no event.
      if (secrets === undefined && !changedFields(integration, published).length) return integration;
      tx.assign(integration, { ...definition, version: integration.version + 1, ...(secrets === undefined ? {} : { secrets }) });
    }
    recordIntegrationEvent(ctx, tx, 'integration.published', integration);
    return integration;
  });
  return published;
}

/** Unpublishes an integration; its installations go with it. */
export async function unpublishIntegration(ctx: Context, name: string): Promise<void> {
  const integration = await integrationOf(ctx, name);
  await ctx.em.transactional(async (tx) => {
    // A concurrent unpublish got there first: it announced it.
    if ((await tx.nativeDelete(Integration, { name })) > 0) recordIntegrationEvent(ctx, tx, 'integration.unpublished', integration);
  });
}
