import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { Member } from '../organizations/entities.js';
import type { Context } from '../../graphql/context.js';
import { conflict } from '../../graphql/errors.js';
import { paginateRows, type PageArgs } from '../../graphql/pagination.js';
import { oneOf, parseInput } from '../../graphql/validation.js';
import { Integration, type IntegrationRow } from './entities.js';
import { INTEGRATION_CATEGORIES, integrationName, PublishIntegrationInput } from './publishing.js';
import { sealSecrets } from './secrets.js';

/** Columns never read by lists and graph fields: the script can be large, the secrets are never shown. */
const NOT_SHOWN = ['script', 'secrets'] as const;

export type IntegrationFilters = {
  search?: string | null;
  category?: string | null;
  blockDomain?: string | null;
  blocks?: boolean | null;
  contentSources?: boolean | null;
  owner?: string | null;
};

const Filters = z.object({
  search: z.string().max(100, { error: 'must be at most 100 characters' }).nullish(),
  category: oneOf(INTEGRATION_CATEGORIES).nullish(),
  blockDomain: integrationName.nullish(),
  blocks: z.boolean().nullish(),
  contentSources: z.boolean().nullish(),
  owner: z.string().nullish(),
});

/** The host a block unfurls URLs of (`https://*.example.com/*` → `*.example.com`). */
const unfurlHost = (pattern: string) => /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(pattern)?.[1]?.toLowerCase() ?? null;

/** True when a block of the integration unfurls URLs of `domain` (or of a subdomain a wildcard covers). */
function unfurlsDomain(integration: IntegrationRow, domain: string): boolean {
  const wanted = domain.toLowerCase();
  return integration.blocks.some((block) =>
    ((block.urlUnfurl as string[] | undefined) ?? []).some((pattern) => {
      const host = unfurlHost(pattern);
      if (!host) return false;
      if (host.startsWith('*.')) return wanted === host.slice(2) || wanted.endsWith(host.slice(1));
      return wanted === host;
    }),
  );
}

/**
 * Integrations the viewer can see, by name: the public ones and every one published by an organization
 * they belong to, narrowed by the filters.
 */
export async function listIntegrations(ctx: Context, filters: IntegrationFilters, args: PageArgs) {
  const f = parseInput(Filters, filters);
  const memberships = await ctx.em.find(Member, { user: ctx.viewer!.user.id, disabled: false }, { fields: ['organization'] });
  const visible = await ctx.em.find(
    Integration,
    { $or: [{ visibility: 'public' }, { organization: { $in: memberships.map((m) => m.organization) } }], ...(f.owner ? { organization: f.owner } : {}) },
    { exclude: NOT_SHOWN, orderBy: { name: 'asc' } },
  );
  const search = f.search?.toLowerCase();
  const rows = visible.filter(
    (i) =>
      (!search || i.name.toLowerCase().includes(search) || i.title.toLowerCase().includes(search)) &&
      (!f.category || i.categories.includes(f.category)) &&
      (!f.blockDomain || unfurlsDomain(i as IntegrationRow, f.blockDomain)) &&
      (f.blocks === undefined || f.blocks === null || f.blocks === i.blocks.length > 0) &&
      (f.contentSources === undefined || f.contentSources === null || f.contentSources === i.contentSources.length > 0),
  );
  for (const row of rows) ctx.loaders.integration.remember(row.name, row as IntegrationRow);
  return paginateRows(rows as IntegrationRow[], (i) => [i.name], args);
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
    fields.secrets === undefined ? undefined : fields.secrets && Object.keys(fields.secrets).length ? await sealSecrets(ctx.em, ctx.clock, name, fields.secrets) : null;
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
    const integration = await tx.findOneOrFail(Integration, { name }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (integration.organization !== organization.id) throw conflict(`integrationName: "${name}" is published by another organization`);
    if (!inserted.affectedRows) tx.assign(integration, { ...definition, version: integration.version + 1, ...(secrets === undefined ? {} : { secrets }) });
    return integration;
  });
  ctx.loaders.integration.clear(name);
  return published;
}

/** Unpublishes an integration; its installations go with it. */
export async function unpublishIntegration(ctx: Context, name: string): Promise<void> {
  await ctx.em.nativeDelete(Integration, { name });
  ctx.loaders.integration.clear(name);
}
