import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@mikro-orm/core';
import { batchLoader, groupLoader, rowLoader } from '../../graphql/loader.js';
import { memberKey, splitMemberKeys } from '../members/keys.js';
import { Team, TeamMember } from './entities.js';

export function teamLoaders(em: EntityManager) {
  return {
    team: rowLoader((ids: string[]) => em.find(Team, { id: { $in: ids } }), (t) => t.id),
    /** How many members each team has: one grouped count for all the teams asked. */
    teamMemberCount: batchLoader(async (teamIds: string[]) => {
      const rows: { team: string; count: string | number }[] = await em
        .createQueryBuilder(TeamMember)
        .select(['team', sql`count(*)`.as('count')])
        .where({ team: { $in: teamIds } })
        .groupBy('team')
        .execute('all', true);
      const counts = new Map(rows.map((row) => [row.team, Number(row.count)]));
      return teamIds.map((id) => counts.get(id) ?? 0);
    }),
    /** A user's team memberships in an organization, by member key. */
    teamMembershipsOf: groupLoader(
      (keys: string[]) => {
        const { organizations, users } = splitMemberKeys(keys);
        return em.find(TeamMember, { organization: { $in: organizations }, user: { $in: users } });
      },
      (m) => memberKey(m.organization, m.user),
    ),
  };
}
