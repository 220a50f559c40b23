import { found, whenLoaded } from '../../kernel/loader.js';
import { succeeded } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { IntegrationInstallationRow, IntegrationRow } from './entities.js';
import { installationOf, installIntegration, listInstallations, uninstallIntegration } from './installations.js';
import { integrationOf, listIntegrations, publishIntegration, unpublishIntegration } from './service.js';

export const integrationResolvers: Resolvers = {
  Query: {
    integrations: (_, { page, limit, ...filters }, ctx) => listIntegrations(ctx, filters, { page, limit }),
    integration: (_, { integrationName }, ctx) => integrationOf(ctx, integrationName),
    integrationInstallations: (_, { integrationName, externalId, ...args }, ctx) => listInstallations(ctx, integrationName, externalId, args),
    integrationInstallation: (_, { organizationId, integrationName }, ctx) => installationOf(ctx, organizationId, integrationName),
  },
  Mutation: {
    publishIntegration: (_, { integrationName, input }, ctx) => publishIntegration(ctx, integrationName, input),
    unpublishIntegration: (_, { integrationName }, ctx) => succeeded(unpublishIntegration(ctx, integrationName)),
    installIntegration: (_, { organizationId, integrationName, input }, ctx) => installIntegration(ctx, organizationId, integrationName, input),
    uninstallIntegration: (_, { organizationId, integrationName }, ctx) => uninstallIntegration(ctx, organizationId, integrationName),
  },
  Integration: {
    object: () => 'integration',
    // A self-hosted server has no review process that could vouch for an integration.
    verified: () => false,
    owner: (i, _, ctx) => found(ctx.loaders.organization.get(i.organization), 'Organization'),
    configurations: (i) => i.configurations,
    urls: (i, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/integrations/${i.name}`,
      icon: i.icon,
      app: `${ctx.config.appUrl}/integrations/${i.name}`,
      assets: `${ctx.config.publicUrl}/integrations/${i.name}/assets`,
      publicEndpoint: `${ctx.config.publicUrl}/integrations/${i.name}`,
    }),
    permissions: (i, _, ctx) => whenLoaded(ctx.policy.integrationRole(i), (role) => ({ admin: role === 'admin', install: role !== undefined })),
  },
  IntegrationInstallation: {
    space_selection: (i) => i.spaceSelection,
    site_selection: (i) => i.siteSelection,
    spaces: (i, _, ctx) => ctx.loaders.installationSpaceCount.get(i.id),
    urls: (i, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/integrations/${i.integration}/installations/${i.id}`,
      app: `${ctx.config.appUrl}/o/${i.organization}/integrations/${i.integration}`,
      publicEndpoint: `${ctx.config.publicUrl}/integrations/${i.integration}/installations/${i.id}`,
    }),
    target: (i) => ({ organization: i.organization }),
    integration: (i, _, ctx) => found(ctx.loaders.integration.get(i.integration), 'Integration'),
    selectedSpaces: async (i, _, ctx) => {
      const selections = await ctx.loaders.spaceSelectionsByInstallation.load(i.id);
      const spaces = await Promise.all(selections.map((s) => ctx.loaders.space.load(s.space)));
      const visible = await Promise.all(
        spaces.map(async (space) =>
          space && !space.deletedAt && space.organization === i.organization && (await ctx.policy.spaceRole(space)) !== null ? space : null,
        ),
      );
      return visible.filter((space) => space !== null);
    },
    selectedSites: async (i, _, ctx) => {
      if (!(await ctx.policy.isMember(i.organization))) return [];
      const selections = await ctx.loaders.siteSelectionsByInstallation.load(i.id);
      return (await Promise.all(selections.map((s) => ctx.loaders.site.load(s.site)))).filter((site) => site !== null);
    },
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Integration: IntegrationRow;
    IntegrationInstallation: IntegrationInstallationRow;
  }
}
