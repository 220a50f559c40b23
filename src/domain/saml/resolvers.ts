import { found } from '../../kernel/loader.js';
import { createInOrganization, listInOrganization, onOrganizationItem } from '../../kernel/resolvers.js';
import { deleteOrganizationItemIfMatch, etagOfResource, updateOrganizationItemIfMatch, organizationItemResource } from '../../graphql/conditional-writes.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { SamlProvider, type SamlProviderRow } from './entities.js';
import { isActive, serviceUrls } from './service-provider.js';
import { createSamlProvider, deleteSamlProvider, listSamlProviders, samlProviderOf, ssoProviderLogins, updateSamlProvider } from './service.js';

/** A SAML provider as conditional writes name it (graphql/conditional-writes.ts). */
const samlProviderResource = organizationItemResource('getOrganizationSAMLProviderById', 'samlProviderId', SamlProvider);

/** SAML providers and the login page's list of SSO logins. */
export const samlResolvers: Resolvers = {
  Query: {
    samlProviders: listInOrganization(listSamlProviders),
    samlProvider: onOrganizationItem('id', samlProviderOf),
    ssoProviderLogins: (_, { organizationId }, ctx) => ssoProviderLogins(ctx, organizationId),
  },
  Mutation: {
    createSAMLProvider: createInOrganization(createSamlProvider),
    updateSAMLProvider: updateOrganizationItemIfMatch('id', samlProviderResource, updateSamlProvider),
    deleteSAMLProvider: deleteOrganizationItemIfMatch('id', samlProviderResource, deleteSamlProvider),
  },
  SAMLProvider: {
    object: () => 'saml-provider',
    etag: (p, _, ctx) => etagOfResource(ctx, samlProviderResource(p.organization, p.id)),
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
