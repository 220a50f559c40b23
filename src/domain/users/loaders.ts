import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsWhereIn } from '../../db/statements.js';
import { rowLoader } from '../../kernel/loader.js';
import { User } from './entities.js';

export function userLoaders(em: EntityManager) {
  return {
    /** A user by id, as a plain row (authors and creators shown next to content). */
    user: rowLoader(
      (ids: string[]) => rowsWhereIn(em, User, 'id', ids),
      (u) => u.id,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof userLoaders> {}
}
