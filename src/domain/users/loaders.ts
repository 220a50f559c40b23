import type { EntityManager } from '@mikro-orm/postgresql';
import { rowLoader } from '../../graphql/loader.js';
import { User } from './entities.js';

export function userLoaders(em: EntityManager) {
  return {
    user: rowLoader((ids: string[]) => em.find(User, { id: { $in: ids } }), (u) => u.id),
  };
}
