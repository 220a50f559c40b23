import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsWhereIn } from '../../db/statements.js';
import { groupLoader, rowLoader } from '../../kernel/loader.js';
import { Space } from './entities.js';

export function spaceLoaders(em: EntityManager) {
  return {
    /** A space by id, deleted or not (callers decide what a deleted space means to them). */
    space: rowLoader(
      (ids: string[]) => em.find(Space, { id: { $in: ids } }),
      (s) => s.id,
    ),
    /**
     * The same as a plain row, for graph fields that only read it (a site tree shows hundreds of
     * spaces; entities cost far more to build). Never change these rows: changes go through `space`.
     */
    spaceToRead: rowLoader(
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
