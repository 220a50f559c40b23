import type { Context } from '../../kernel/context.js';
import {
  createInOrganization,
  deleteOrganizationItem,
  listInOrganization,
  onOrganizationItem,
  updateOrganizationItem,
  type OrganizationId,
} from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { SamlProviderRow } from './entities.js';
import { isActive, serviceUrls } from './service-provider.js';
import { createSamlProvider, deleteSamlProvider, listSamlProviders, samlProviderOf, ssoProviderLogins, updateSamlProvider } from './service.js';

/** SAML providers and the login page's list of SSO logins. */
export const samlResolvers: Resolvers = {
  Query: {
    samlProviders: listInOrganization(listSamlProviders),
    samlProvider: onOrganizationItem('id', samlProviderOf),
    ssoProviderLogins: (_: unknown, { organizationId }: OrganizationId, ctx: Context) => ssoProviderLogins(ctx, organizationId),
  },
  Mutation: {
    createSAMLProvider: createInOrganization(createSamlProvider),
    updateSAMLProvider: updateOrganizationItem('id', updateSamlProvider),
    deleteSAMLProvider: deleteOrganizationItem('id', deleteSamlProvider),
  },
  SAMLProvider: {
    object: () => 'saml-provider',
    defaultTeam: (p: SamlProviderRow, _: unknown, ctx: Context) => (p.defaultTeam ? ctx.loaders.team.get(p.defaultTeam) : null),
    status: (p: SamlProviderRow) => (isActive(p) ? 'active' : 'pending'),
    service: (p: SamlProviderRow, _: unknown, ctx: Context) => serviceUrls(ctx.config, p.id),
    urls: (p: SamlProviderRow, _: unknown, ctx: Context) => ({ location: `${ctx.config.publicUrl}/v1/orgs/${p.organization}/saml/${p.id}` }),
    owningOrganization: (p: SamlProviderRow, _: unknown, ctx: Context) => ctx.loaders.organization.get(p.organization),
  },
};
