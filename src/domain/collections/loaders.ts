import type { EntityManager } from '@mikro-orm/postgresql';
import { rowLoader } from '../../kernel/loader.js';
import { Collection } from './entities.js';

export function collectionLoaders(em: EntityManager) {
  return {
    collection: rowLoader(
      (ids: string[]) => em.find(Collection, { id: { $in: ids } }),
      (c) => c.id,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof collectionLoaders> {}
}
