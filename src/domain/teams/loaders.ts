import { byMemberKeys } from '../../kernel/member-keys.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { columnOf, countsByKey, readRows, tableOf } from '../../db/statements.js';
import { batchLoader, groupLoader, rowLoader } from '../../kernel/loader.js';
import { ContentGrant } from '../grants/index.js';
import { Space } from '../spaces/index.js';
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
      const counts = await countsByKey(em, `select ${team} as "key", count(*) as "n" from ${tableOf(em, TeamMember)} where ${team} = any($1) group by 1`, [
        teamIds,
      ]);
      return teamIds.map((id) => counts.get(id) ?? 0);
    }),
    /**
     * How many live spaces of its organization each team's grants reach (on the space or a collection
     * above it): one statement for all the teams asked, through the indexes on space ids and ancestors.
     */
    teamSpaceCount: batchLoader(async (teamIds: string[]) => {
      const grant = tableOf(em, ContentGrant);
      const rows = await readRows<{ team: string; count: string | number }>(
        em,
        `select t.id as "team", (select count(*) from ${tableOf(em, Space)} s where s.organization_id = t.organization_id and s.deleted_at is null
           and (s.id in (select g.space_id from ${grant} g where g.team_id = t.id)
                or s.ancestors && array(select g.collection_id from ${grant} g where g.team_id = t.id and g.collection_id is not null)::text[])) as "count"
         from ${tableOf(em, Team)} t where t.id = any($1)`,
        [teamIds],
      );
      const counts = new Map(rows.map((row) => [row.team, Number(row.count)]));
      return teamIds.map((id) => counts.get(id) ?? 0);
    }),
    /** A user's team memberships in an organization, by member key. */
    teamMembershipsOf: groupLoader(...byMemberKeys(em, TeamMember)),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof teamLoaders> {}
}
