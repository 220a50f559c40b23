import type { GuardCheck, GuardedRequest } from '../../kernel/checks.js';
import type { Context } from '../../kernel/context.js';
import { forbidden, notFound } from '../../kernel/errors.js';
import type { Role } from '../../kernel/roles.js';
import type { IntegrationInstallationRow } from './entities.js';

/*
 * The checks of the fields that name an installation by its id (`installationId`, under the
 * integration's `integrationName`). Their guard judges the integration (`read`: it is visible); these
 * judge the installation: its organization's admins manage it, its publisher's admins may read it, and,
 * for one space or site of it, that space's (or site's) admins manage it there. Whoever may see the
 * installation but not do this gets a 403, anyone else a 404, as for an unknown id.
 */

export type ContentKind = 'space' | 'site';

/** The installation the request names, of the integration it names; 404 otherwise. */
export async function namedInstallation(ctx: Context, args: Record<string, unknown>): Promise<IntegrationInstallationRow> {
  const installation = await ctx.loaders.installationById.load(args.installationId as string);
  if (!installation || installation.integration !== args.integrationName) throw notFound('Integration installation');
  return installation;
}

/** Whether the caller administers the organization that publishes the installation's integration. */
async function publishes(ctx: Context, installation: IntegrationInstallationRow): Promise<boolean> {
  const integration = await ctx.loaders.integration.load(installation.integration);
  return !!integration && (await ctx.policy.integrationRole(integration)) === 'admin';
}

/** The caller administers the installation's organization, or, to read it, publishes its integration. */
async function judgeInstallation(ctx: Context, { args }: GuardedRequest, toRead: boolean): Promise<void> {
  const installation = await namedInstallation(ctx, args);
  const role = await ctx.policy.organizationRole(installation.organization);
  if (role === 'admin') return;
  const publisher = await publishes(ctx, installation);
  if (toRead && publisher) return;
  if (role !== undefined || publisher) throw forbidden('Integration installation: this operation needs the admin role in its organization');
  throw notFound('Integration installation');
}

/** The caller's role on the live space (or the site) the request names, of the installation's organization; 404 otherwise. */
async function roleOnContent(ctx: Context, kind: ContentKind, id: string, organization: string): Promise<Role | null> {
  if (kind === 'space') {
    const space = await ctx.loaders.space.load(id);
    if (!space || space.organization !== organization || space.deletedAt) throw notFound('Space');
    return ctx.policy.spaceRole(space);
  }
  const site = await ctx.loaders.site.load(id);
  if (!site || site.organization !== organization) throw notFound('Site');
  return ctx.policy.siteRole(site);
}

/** The caller administers the space (or site) the installation works on; to read, its publisher's admins too. */
async function judgeContentInstallation(ctx: Context, { args }: GuardedRequest, kind: ContentKind, toRead: boolean): Promise<void> {
  const installation = await namedInstallation(ctx, args);
  const role = await roleOnContent(ctx, kind, args[`${kind}Id`] as string, installation.organization);
  if (role === 'admin' || (toRead && (await publishes(ctx, installation)))) return;
  const what = kind === 'space' ? 'Space' : 'Site';
  if (role === null) throw notFound(what);
  throw forbidden(`${what}: this operation needs the admin role`);
}

const onInstallation = (description: string, toRead: boolean): GuardCheck => ({
  description,
  on: ['INTEGRATION'],
  reads: ['installationId'],
  run: (ctx, request) => judgeInstallation(ctx, request, toRead),
});

const onContent = (kind: ContentKind, description: string, toRead: boolean): GuardCheck => ({
  description,
  on: ['INTEGRATION'],
  reads: ['installationId', `${kind}Id`],
  run: (ctx, request) => judgeContentInstallation(ctx, request, kind, toRead),
});

/** The checks that installation fields name in their guards. */
export const installationChecks = {
  readsTheInstallation: onInstallation("admin of the installation's organization, or of the integration's publisher", true),
  managesTheInstallation: onInstallation("admin of the installation's organization", false),
  readsTheSpaceInstallation: onContent('space', "admin on the space (of the installation's organization), or of the integration's publisher", true),
  managesTheSpaceInstallation: onContent('space', "admin on the space (of the installation's organization)", false),
  readsTheSiteInstallation: onContent('site', "admin on the site (of the installation's organization), or of the integration's publisher", true),
  managesTheSiteInstallation: onContent('site', "admin on the site (of the installation's organization)", false),
} satisfies Record<string, GuardCheck>;
