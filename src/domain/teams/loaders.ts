import { byMemberKeys } from '../../kernel/member-keys.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { columnOf, countsByKey, tableOf } from '../../db/statements.js';
import { batchLoader, groupLoader, rowLoader } from '../../kernel/loader.js';
import { Team, TeamMember } from './entities.js';

export function teamLoaders(em: EntityManager) {
  return {
    team: rowLoader(
      (ids: string[]) => em.find(Team, { id: { $in: ids } }),
      (t) => t.id,
    ),
    /** How many members each team has: one grouped count for all the teams asked. */
    teamMemberCount: batchLoader(async (teamIds: string[]) => {
      const team = columnOf(em, TeamMember, 'team');
      const counts = await countsByKey(
        em,
        sql`select ${team} as "key", count(*) as "n" from ${tableOf(em, TeamMember)} where ${team} = any(${teamIds}) group by 1`,
      );
      return teamIds.map((id) => counts.get(id) ?? 0);
    }),
    /** A user's team memberships in an organization, by member key. */
    teamMembershipsOf: groupLoader(...byMemberKeys(em, TeamMember)),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof teamLoaders> {}
}
