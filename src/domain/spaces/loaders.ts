import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsWhereIn } from '../../db/statements.js';
import { groupLoader, rowLoader } from '../../kernel/loader.js';
import { Space } from './entities.js';

export function spaceLoaders(em: EntityManager) {
  return {
    /**
     * A space by id as a plain row, deleted or not (callers decide what a deleted space means to them).
     * A change loads the space's entity itself.
     */
    space: rowLoader(
      (ids: string[]) => rowsWhereIn(em, Space, 'id', ids),
      (s) => s.id,
    ),
    /** Live spaces of each organization, oldest first. */
    spacesByOrganization: groupLoader(
      (organizationIds: string[]) => em.find(Space, { organization: { $in: organizationIds }, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (s) => s.organization,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof spaceLoaders> {}
}
