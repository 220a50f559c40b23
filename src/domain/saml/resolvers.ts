import type { Context } from '../../graphql/context.js';
import { type OrganizationId, createInOrganization, listInOrganization, succeeded } from '../common/resolvers.js';
import type { Resolvers } from '../../graphql/resolver-types.js';
import type { SamlProviderRow } from './entities.js';
import { isActive, serviceUrls } from './service-provider.js';
import {
  createSamlProvider,
  deleteSamlProvider,
  listSamlProviders,
  samlProviderOf,
  ssoProviderLogins,
  updateSamlProvider,
} from './service.js';

type ProviderId = OrganizationId & { id: string };

/** SAML providers and the login page's list of SSO logins. */
export const samlResolvers: Resolvers = {
  Query: {
    samlProviders: listInOrganization(listSamlProviders),
    samlProvider: (_: unknown, { organizationId, id }: ProviderId, ctx: Context) => samlProviderOf(ctx, organizationId, id),
    ssoProviderLogins: (_: unknown, { organizationId }: OrganizationId, ctx: Context) => ssoProviderLogins(ctx, organizationId),
  },
  Mutation: {
    createSAMLProvider: createInOrganization(createSamlProvider),
    updateSAMLProvider: (_: unknown, { organizationId, id, input }: ProviderId & { input: unknown }, ctx: Context) =>
      updateSamlProvider(ctx, organizationId, id, input),
    deleteSAMLProvider: (_: unknown, { organizationId, id }: ProviderId, ctx: Context) =>
      succeeded(deleteSamlProvider(ctx, organizationId, id)),
  },
  SAMLProvider: {
    object: () => 'saml-provider',
    defaultTeam: (p: SamlProviderRow, _: unknown, ctx: Context) => (p.defaultTeam ? ctx.loaders.team.get(p.defaultTeam) : null),
    status: (p: SamlProviderRow) => (isActive(p) ? 'active' : 'pending'),
    service: (p: SamlProviderRow, _: unknown, ctx: Context) => serviceUrls(ctx.config, p.id),
    urls: (p: SamlProviderRow, _: unknown, ctx: Context) => ({ location: `${ctx.config.publicUrl}/v1/orgs/${p.organization}/saml/${p.id}` }),
    owningOrganization: (p: SamlProviderRow, _: unknown, ctx: Context) => ctx.loaders.organization.load(p.organization),
  },
};
