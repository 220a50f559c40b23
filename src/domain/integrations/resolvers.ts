import type { Context } from '../../kernel/context.js';
import { found, whenLoaded } from '../../kernel/loader.js';
import { succeeded } from '../../kernel/resolvers.js';
import { createInstallationToken } from './installation-tokens.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { Integration, IntegrationInstallation, type IntegrationInstallationRow, type IntegrationRow } from './entities.js';
import { etagOfResource, writeIfMatch } from '../../graphql/conditional-writes.js';
import {
  contentInstallationOf,
  installOnContent,
  listInstallationContent,
  listIntegrationContentInstallations,
  uninstallFromContent,
  updateContentInstallation,
  type ContentInstallationView,
} from './content-installations.js';
import {
  createInstallation,
  installationById,
  installationOf,
  installIntegration,
  listInstallations,
  uninstallById,
  uninstallIntegration,
  updateInstallationById,
} from './installations.js';
import {
  installationStatusOf,
  listContentIntegrations,
  listInstallationStatuses,
  listOrganizationInstallations,
  listOrganizationIntegrations,
  listSpaceIntegrationBlocks,
  type InstalledIntegration,
} from './organization-lists.js';
import { integrationOf, listIntegrations, publishIntegration, unpublishIntegration } from './service.js';

/*
 * Integrations, installations and their installations on one space or site as conditional writes name
 * them (graphql/conditional-writes.ts). An installation on a space or site may have no row of its own
 * (under `all` it has the defaults), so its writers queue on the installation's row.
 */
const integrationResource = (integrationName: string) => ({
  representation: 'getIntegrationByName',
  variables: { integrationName },
  row: [Integration, { name: integrationName }] as const,
});
const installationResource = (integrationName: string, installationId: string) => ({
  representation: 'getIntegrationInstallationById',
  variables: { integrationName, installationId },
  row: [IntegrationInstallation, installationId] as const,
});
const contentInstallationResource = (kind: 'space' | 'site', integrationName: string, installationId: string, contentId: string) => ({
  representation: kind === 'space' ? 'getIntegrationSpaceInstallation' : 'getIntegrationSiteInstallation',
  variables: { integrationName, installationId, [`${kind}Id`]: contentId },
  row: [IntegrationInstallation, installationId] as const,
});
/** A write of an installation on one space or site (`contentId`), when `ifMatch` holds. */
const writeContentInstallation = <T>(
  ctx: Context,
  kind: 'space' | 'site',
  { integrationName, installationId, ifMatch }: { integrationName: string; installationId: string; ifMatch?: string | null },
  contentId: string,
  write: (ctx: Context) => Promise<T>,
) => writeIfMatch(ctx, ifMatch, contentInstallationResource(kind, integrationName, installationId, contentId), write);

export const integrationResolvers: Resolvers = {
  Query: {
    integrations: (_, { page, limit, ...filters }, ctx) => listIntegrations(ctx, filters, { page, limit }),
    integration: (_, { integrationName }, ctx) => integrationOf(ctx, integrationName),
    integrationInstallations: (_, { integrationName, externalId, ...args }, ctx) => listInstallations(ctx, integrationName, externalId, args),
    integrationInstallation: (_, { organizationId, integrationName }, ctx) => installationOf(ctx, organizationId, integrationName),
    integrationInstallationById: (_, { installationId }, ctx) => installationById(ctx, installationId),
    integrationInstallationSpaces: (_, { installationId, ...args }, ctx) => listInstallationContent(ctx, 'space', installationId, args),
    integrationSpaceInstallation: (_, { installationId, spaceId }, ctx) => contentInstallationOf(ctx, 'space', installationId, spaceId),
    integrationInstallationSites: (_, { installationId, ...args }, ctx) => listInstallationContent(ctx, 'site', installationId, args),
    integrationSiteInstallation: (_, { installationId, siteId }, ctx) => contentInstallationOf(ctx, 'site', installationId, siteId),
    integrationSpaceInstallations: (_, { integrationName, externalId, ...args }, ctx) =>
      listIntegrationContentInstallations(ctx, 'space', integrationName, externalId, args),
    integrationSiteInstallations: (_, { integrationName, externalId, ...args }, ctx) =>
      listIntegrationContentInstallations(ctx, 'site', integrationName, externalId, args),
    organizationInstallations: (_, { organizationId, search, ...args }, ctx) => listOrganizationInstallations(ctx, organizationId, search, args),
    organizationIntegrations: (_, { organizationId, page, limit, ...filters }, ctx) =>
      listOrganizationIntegrations(ctx, organizationId, filters, { page, limit }),
    organizationIntegrationStatuses: (_, { organizationId, page, limit, ...filters }, ctx) =>
      listInstallationStatuses(ctx, organizationId, filters, { page, limit }),
    organizationIntegrationStatus: (_, { organizationId, integrationName }, ctx) => installationStatusOf(ctx, organizationId, integrationName),
    spaceIntegrations: async (_, { spaceId, search, ...args }, ctx) =>
      listContentIntegrations(ctx, 'space', await found(ctx.loaders.space.load(spaceId), 'Space'), search, args),
    spaceIntegrationBlocks: async (_, { spaceId }, ctx) => listSpaceIntegrationBlocks(ctx, await found(ctx.loaders.space.load(spaceId), 'Space')),
    siteIntegrations: async (_, { siteId, search, ...args }, ctx) =>
      listContentIntegrations(ctx, 'site', await found(ctx.loaders.site.load(siteId), 'Site'), search, args),
  },
  Mutation: {
    publishIntegration: (_, { integrationName, input }, ctx) => publishIntegration(ctx, integrationName, input),
    unpublishIntegration: (_, { integrationName, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, integrationResource(integrationName), (ctx) => succeeded(unpublishIntegration(ctx, integrationName))),
    installIntegration: (_, { organizationId, integrationName, input }, ctx) => installIntegration(ctx, organizationId, integrationName, input),
    uninstallIntegration: (_, { organizationId, integrationName }, ctx) => uninstallIntegration(ctx, organizationId, integrationName),
    createIntegrationInstallation: (_, { integrationName, organizationId }, ctx) => createInstallation(ctx, integrationName, organizationId),
    updateIntegrationInstallation: (_, { integrationName, installationId, input, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, installationResource(integrationName, installationId), (ctx) =>
        updateInstallationById(ctx, integrationName, installationId, input),
      ),
    removeIntegrationInstallation: (_, { integrationName, installationId, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, installationResource(integrationName, installationId), (ctx) => uninstallById(ctx, integrationName, installationId)),
    createIntegrationInstallationToken: (_, { integrationName, installationId }, ctx) => createInstallationToken(ctx, integrationName, installationId),
    installIntegrationOnSpace: (_, { integrationName, installationId, spaceId }, ctx) =>
      installOnContent(ctx, 'space', integrationName, installationId, spaceId),
    updateIntegrationSpaceInstallation: (_, { spaceId, input, ...args }, ctx) =>
      writeContentInstallation(ctx, 'space', args, spaceId, (ctx) =>
        updateContentInstallation(ctx, 'space', args.integrationName, args.installationId, spaceId, input),
      ),
    uninstallIntegrationFromSpace: (_, { spaceId, ...args }, ctx) =>
      writeContentInstallation(ctx, 'space', args, spaceId, (ctx) => uninstallFromContent(ctx, 'space', args.installationId, spaceId)),
    installIntegrationOnSite: (_, { integrationName, installationId, siteId }, ctx) => installOnContent(ctx, 'site', integrationName, installationId, siteId),
    updateIntegrationSiteInstallation: (_, { siteId, input, ...args }, ctx) =>
      writeContentInstallation(ctx, 'site', args, siteId, (ctx) =>
        updateContentInstallation(ctx, 'site', args.integrationName, args.installationId, siteId, input),
      ),
    uninstallIntegrationFromSite: (_, { siteId, ...args }, ctx) =>
      writeContentInstallation(ctx, 'site', args, siteId, (ctx) => uninstallFromContent(ctx, 'site', args.installationId, siteId)),
  },
  Integration: {
    object: () => 'integration',
    etag: (i, _, ctx) => etagOfResource(ctx, integrationResource(i.name)),
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
      publicContentEndpoint: `${ctx.config.publicUrl}/integrations/${i.name}`,
    }),
    permissions: (i, _, ctx) => whenLoaded(ctx.policy.integrationRole(i), (role) => ({ admin: role === 'admin', install: role !== undefined })),
  },
  IntegrationInstallation: {
    etag: (i, _, ctx) => etagOfResource(ctx, installationResource(i.integration, i.id)),
    space_selection: (i) => i.spaceSelection,
    site_selection: (i) => i.siteSelection,
    spaces: (i, _, ctx) => ctx.loaders.installationSpaceCount.get(i.id),
    urls: (i, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/integrations/${i.integration}/installations/${i.id}`,
      app: `${ctx.config.appUrl}/o/${i.organization}/integrations/${i.integration}`,
      publicEndpoint: `${ctx.config.publicUrl}/integrations/${i.integration}/installations/${i.id}`,
      publicContentEndpoint: `${ctx.config.publicUrl}/integrations/${i.integration}/installations/${i.id}`,
    }),
    target: (i) => ({ organization: i.organization }),
    integration: (i, _, ctx) => found(ctx.loaders.integration.get(i.integration), 'Integration'),
    selectedSpaces: async (i, _, ctx) => {
      // Under `all`, rows are single spaces' configurations, not a selection.
      if (i.spaceSelection !== 'selected') return [];
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
      if (i.siteSelection !== 'selected' || !(await ctx.policy.isMember(i.organization))) return [];
      const selections = await ctx.loaders.siteSelectionsByInstallation.load(i.id);
      return (await Promise.all(selections.map((s) => ctx.loaders.site.load(s.site)))).filter((site) => site !== null);
    },
  },
  OrganizationInstallation: {
    integration: (i, _, ctx) => found(ctx.loaders.integration.load(i.installation.integration), 'Integration'),
  },
  InstalledIntegration: {
    integration: (i, _, ctx) => found(ctx.loaders.integration.load(i.integration), 'Integration'),
  },
  IntegrationContentInstallation: {
    etag: (i, _, ctx) => etagOfResource(ctx, contentInstallationResource(i.kind, i.integration, i.installation, i.content)),
    urls: (i, _, ctx) => {
      const path = `/integrations/${i.integration}/installations/${i.installation}/${i.kind}s/${i.content}`;
      return {
        location: `${ctx.config.publicUrl}/v1${path}`,
        publicEndpoint: `${ctx.config.publicUrl}${path}`,
        publicContentEndpoint: `${ctx.config.publicUrl}${path}`,
      };
    },
    spaceId: (i) => (i.kind === 'space' ? i.content : null),
    space: (i, _, ctx) => (i.kind === 'space' ? found(ctx.loaders.space.load(i.content), 'Space') : null),
    siteId: (i) => (i.kind === 'site' ? i.content : null),
    site: (i, _, ctx) => (i.kind === 'site' ? found(ctx.loaders.site.load(i.content), 'Site') : null),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Integration: IntegrationRow;
    IntegrationInstallation: IntegrationInstallationRow;
    OrganizationInstallation: { installation: IntegrationInstallationRow };
    InstalledIntegration: InstalledIntegration;
    IntegrationContentInstallation: ContentInstallationView;
  }
}
