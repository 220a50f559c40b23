import type { EntityManager } from '@mikro-orm/postgresql';
import { rowLoader } from '../common/loader.js';
import { Member } from '../organizations/entities.js';
import { memberKey, splitMemberKeys } from './keys.js';

export function memberLoaders(em: EntityManager) {
  return {
    /** A user's membership of an organization, by member key (null when not a member). */
    membership: rowLoader(
      (keys: string[]) => {
        const { organizations, users } = splitMemberKeys(keys);
        return em.find(Member, { organization: { $in: organizations }, user: { $in: users } });
      },
      (m) => memberKey(m.organization, m.user),
    ),
  };
}

declare module '../common/request-loaders.js' {
  interface Loaders extends ReturnType<typeof memberLoaders> {}
}
