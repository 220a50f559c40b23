import type { Context } from '../../kernel/context.js';
import { whenLoaded } from '../../kernel/loader.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { succeeded } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { IntegrationInstallationRow, IntegrationRow } from './entities.js';
import { installationOf, installIntegration, listInstallations, uninstallIntegration } from './installations.js';
import { integrationOf, listIntegrations, publishIntegration, unpublishIntegration, type IntegrationFilters } from './service.js';

type Name = { integrationName: string };
type Installation = Name & { organizationId: string };

export const integrationResolvers: Resolvers = {
  Query: {
    integrations: (_: unknown, { page, limit, ...filters }: IntegrationFilters & PageArgs, ctx: Context) => listIntegrations(ctx, filters, { page, limit }),
    integration: (_: unknown, { integrationName }: Name, ctx: Context) => integrationOf(ctx, integrationName),
    integrationInstallations: (_: unknown, { integrationName, externalId, ...args }: Name & { externalId?: string | null } & PageArgs, ctx: Context) =>
      listInstallations(ctx, integrationName, externalId, args),
    integrationInstallation: (_: unknown, { organizationId, integrationName }: Installation, ctx: Context) =>
      installationOf(ctx, organizationId, integrationName),
  },
  Mutation: {
    publishIntegration: (_: unknown, { integrationName, input }: Name & { input: unknown }, ctx: Context) => publishIntegration(ctx, integrationName, input),
    unpublishIntegration: (_: unknown, { integrationName }: Name, ctx: Context) => succeeded(unpublishIntegration(ctx, integrationName)),
    installIntegration: (_: unknown, { organizationId, integrationName, input }: Installation & { input: unknown }, ctx: Context) =>
      installIntegration(ctx, organizationId, integrationName, input),
    uninstallIntegration: (_: unknown, { organizationId, integrationName }: Installation, ctx: Context) =>
      uninstallIntegration(ctx, organizationId, integrationName),
  },
  Integration: {
    object: () => 'integration',
    // A self-hosted server has no review process that could vouch for an integration.
    verified: () => false,
    owner: (i: IntegrationRow, _: unknown, ctx: Context) => ctx.loaders.organization.get(i.organization),
    configurations: (i: IntegrationRow) => i.configurations,
    urls: (i: IntegrationRow, _: unknown, ctx: Context) => ({
      location: `${ctx.config.publicUrl}/v1/integrations/${i.name}`,
      icon: i.icon,
      app: `${ctx.config.appUrl}/integrations/${i.name}`,
      assets: `${ctx.config.publicUrl}/integrations/${i.name}/assets`,
      publicEndpoint: `${ctx.config.publicUrl}/integrations/${i.name}`,
    }),
    permissions: (i: IntegrationRow, _: unknown, ctx: Context) =>
      whenLoaded(ctx.policy.integrationRole(i), (role) => ({ admin: role === 'admin', install: role !== undefined })),
  },
  IntegrationInstallation: {
    space_selection: (i: IntegrationInstallationRow) => i.spaceSelection,
    site_selection: (i: IntegrationInstallationRow) => i.siteSelection,
    spaces: (i: IntegrationInstallationRow, _: unknown, ctx: Context) => ctx.loaders.installationSpaceCount.get(i.id),
    urls: (i: IntegrationInstallationRow, _: unknown, ctx: Context) => ({
      location: `${ctx.config.publicUrl}/v1/integrations/${i.integration}/installations/${i.id}`,
      app: `${ctx.config.appUrl}/o/${i.organization}/integrations/${i.integration}`,
      publicEndpoint: `${ctx.config.publicUrl}/integrations/${i.integration}/installations/${i.id}`,
    }),
    target: (i: IntegrationInstallationRow) => ({ organization: i.organization }),
    integration: (i: IntegrationInstallationRow, _: unknown, ctx: Context) => ctx.loaders.integration.get(i.integration),
    selectedSpaces: async (i: IntegrationInstallationRow, _: unknown, ctx: Context) => {
      const selections = await ctx.loaders.spaceSelectionsByInstallation.load(i.id);
      const spaces = await Promise.all(selections.map((s) => ctx.loaders.space.load(s.space)));
      const visible = await Promise.all(
        spaces.map(async (space) => space && !space.deletedAt && space.organization === i.organization && (await ctx.policy.spaceRole(space)) !== null),
      );
      return spaces.filter((_space, index) => visible[index]);
    },
    selectedSites: async (i: IntegrationInstallationRow, _: unknown, ctx: Context) => {
      if (!(await ctx.policy.isMember(i.organization))) return [];
      const selections = await ctx.loaders.siteSelectionsByInstallation.load(i.id);
      return (await Promise.all(selections.map((s) => ctx.loaders.site.load(s.site)))).filter(Boolean);
    },
  },
};
