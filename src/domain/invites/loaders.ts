import type { EntityManager } from '@mikro-orm/postgresql';
import { rowLoader } from '../../kernel/loader.js';
import { InviteLink } from './entities.js';

export function inviteLoaders(em: EntityManager) {
  return {
    inviteLink: rowLoader(
      (ids: string[]) => em.find(InviteLink, { id: { $in: ids } }),
      (l) => l.id,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof inviteLoaders> {}
}
