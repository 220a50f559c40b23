import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader, rowLoader } from '../../graphql/loader.js';
import { Team } from '../teams/entities.js';
import { SamlProvider } from './entities.js';

export function samlLoaders(em: EntityManager) {
  return {
    /** SAML providers of each organization, oldest first. */
    samlProvidersByOrganization: groupLoader(
      (organizationIds: string[]) => em.find(SamlProvider, { organization: { $in: organizationIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (provider) => provider.organization,
    ),
    // ─── Team placeholder (until the teams area lands): drop this loader when merging, use its team loader ───
    samlTeam: rowLoader((ids: string[]) => em.find(Team, { id: { $in: ids } }), (team) => team.id),
  };
}
