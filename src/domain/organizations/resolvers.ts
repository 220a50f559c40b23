import type { Context } from '../../kernel/context.js';
import { whenLoaded } from '../../kernel/loader.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { updateById, type Id } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { OrganizationRow } from './entities.js';
import { createOrganization, listViewerOrganizations, organizationsForEmailDomain, ping, updateOrganization } from './service.js';

export const organizationResolvers: Resolvers = {
  Query: {
    organizations: (_: unknown, args: PageArgs, ctx: Context) => listViewerOrganizations(ctx, args),
    organization: (_: unknown, { id }: Id, ctx: Context) => ctx.loaders.organization.get(id),
    organizationsForEmailDomain: async (_: unknown, { emailDomain }: { emailDomain: string }, ctx: Context) => ({
      organizations: await organizationsForEmailDomain(ctx, emailDomain),
    }),
  },
  Mutation: {
    createOrganization: (_: unknown, { input }: { input: { title: string } }, ctx: Context) =>
      createOrganization(ctx.em, ctx.clock, ctx.viewer!.user.id, input, ctx),
    updateOrganization: updateById(updateOrganization),
    pingOrganization: (_: unknown, { id }: Id, ctx: Context) => ping(ctx, id),
  },
  Organization: {
    object: () => 'organization',
    urls: (o: OrganizationRow, _: unknown, ctx: Context) => ({
      location: `${ctx.config.publicUrl}/v1/orgs/${o.id}`,
      app: `${ctx.config.appUrl}/o/${o.id}`,
      logo: o.logo ?? null,
    }),
    // A self-hosted organization has no trial to run.
    trial: () => ({ status: 'notapplicable' }),
    customHostname: () => null,
    permissions: (o: OrganizationRow, _: unknown, ctx: Context) => ctx.policy.organizationPermissions(o.id),
    viewerRole: (o: OrganizationRow, _: unknown, ctx: Context) => whenLoaded(ctx.policy.organizationRole(o.id), (role) => role ?? null),
  },
};
