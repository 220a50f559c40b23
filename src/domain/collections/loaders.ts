import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader, rowLoader } from '../../graphql/loader.js';
import { Collection } from './entities.js';

export function collectionLoaders(em: EntityManager) {
  return {
    collection: rowLoader((ids: string[]) => em.find(Collection, { id: { $in: ids } }), (c) => c.id),
    /** Every collection of an organization, in position order within each parent. */
    collectionsByOrganization: groupLoader(
      (organizationIds: string[]) =>
        em.find(Collection, { organization: { $in: organizationIds } }, { orderBy: { position: 'asc', id: 'asc' } }),
      (c) => c.organization,
    ),
  };
}
