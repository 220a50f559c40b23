import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader } from '../../kernel/loader.js';
import { SamlProvider } from './entities.js';

export function samlLoaders(em: EntityManager) {
  return {
    /** SAML providers of each organization, oldest first. */
    samlProvidersByOrganization: groupLoader(
      (organizationIds: string[]) => em.find(SamlProvider, { organization: { $in: organizationIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (provider) => provider.organization,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof samlLoaders> {}
}
