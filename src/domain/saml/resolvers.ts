import { found } from '../../kernel/loader.js';
import { createInOrganization, deleteOrganizationItem, listInOrganization, onOrganizationItem, updateOrganizationItem } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { SamlProviderRow } from './entities.js';
import { isActive, serviceUrls } from './service-provider.js';
import { createSamlProvider, deleteSamlProvider, listSamlProviders, samlProviderOf, ssoProviderLogins, updateSamlProvider } from './service.js';

/** SAML providers and the login page's list of SSO logins. */
export const samlResolvers: Resolvers = {
  Query: {
    samlProviders: listInOrganization(listSamlProviders),
    samlProvider: onOrganizationItem('id', samlProviderOf),
    ssoProviderLogins: (_, { organizationId }, ctx) => ssoProviderLogins(ctx, organizationId),
  },
  Mutation: {
    createSAMLProvider: createInOrganization(createSamlProvider),
    updateSAMLProvider: updateOrganizationItem('id', updateSamlProvider),
    deleteSAMLProvider: deleteOrganizationItem('id', deleteSamlProvider),
  },
  SAMLProvider: {
    object: () => 'saml-provider',
    defaultTeam: (p, _, ctx) => (p.defaultTeam ? ctx.loaders.team.get(p.defaultTeam) : null),
    status: (p) => (isActive(p) ? 'active' : 'pending'),
    service: (p, _, ctx) => serviceUrls(ctx.config, p.id),
    urls: (p, _, ctx) => ({ location: `${ctx.config.publicUrl}/v1/orgs/${p.organization}/saml/${p.id}` }),
    owningOrganization: (p, _, ctx) => found(ctx.loaders.organization.get(p.organization), 'Organization'),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    SAMLProvider: SamlProviderRow;
  }
}
