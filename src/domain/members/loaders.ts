import type { EntityManager } from '@mikro-orm/postgresql';
import { rowLoader } from '../../kernel/loader.js';
import { Member } from '../organizations/index.js';
import { byMemberKeys } from '../../kernel/member-keys.js';

export function memberLoaders(em: EntityManager) {
  return {
    /** A user's membership of an organization, by member key (null when not a member). */
    membership: rowLoader(...byMemberKeys(em, Member)),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof memberLoaders> {}
}
