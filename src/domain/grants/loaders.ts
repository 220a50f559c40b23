import { memberKey, splitMemberKeys } from '../../kernel/member-keys.js';
import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { readRows, rowsWhere, tableOf } from '../../db/statements.js';
import { batchLoader, groupLoader } from '../../kernel/loader.js';
import { Team, TeamMember, type TeamMemberRow } from '../teams/index.js';
import { Space } from '../spaces/index.js';
import { ContentGrant, type ContentGrantRow } from './entities.js';

export function grantLoaders(em: EntityManager, teamMembershipsOf: DataLoader<string, TeamMemberRow[]>) {
  return {
    /**
     * How many live spaces of its organization each team's grants reach (on the space or a collection
     * above it): one statement for all the teams asked, through the indexes on space ids and ancestors.
     */
    teamSpaceCount: batchLoader(async (teamIds: string[]) => {
      const grant = tableOf(em, ContentGrant);
      const rows = await readRows<{ team: string; count: string | number }>(
        em,
        sql`select t.id as "team", (select count(*) from ${tableOf(em, Space)} s where s.organization_id = t.organization_id and s.deleted_at is null
           and (s.id in (select g.space_id from ${grant} g where g.team_id = t.id)
                or s.ancestors && array(select g.collection_id from ${grant} g where g.team_id = t.id and g.collection_id is not null)::text[])) as "count"
         from ${tableOf(em, Team)} t where t.id = any(${teamIds})`,
      );
      const counts = new Map(rows.map((row) => [row.team, Number(row.count)]));
      return teamIds.map((id) => counts.get(id) ?? 0);
    }),
    /**
     * Every grant that reaches a user in an organization (given to them or to one of their teams), by
     * member key. One statement for the whole batch, beside the team memberships it shares with
     * `teamMembershipsOf`; the policy then works in memory.
     */
    grantsReaching: batchLoader(async (keys: string[]): Promise<ContentGrantRow[][]> => {
      const { organizations, users } = splitMemberKeys(keys);
      const teamsOfUsers = em
        .createQueryBuilder(TeamMember)
        .select('team')
        .where({ organization: { $in: organizations }, user: { $in: users } });
      const [memberships, grants] = await Promise.all([
        teamMembershipsOf.loadMany(keys),
        rowsWhere(em, ContentGrant, { organization: { $in: organizations }, $or: [{ user: { $in: users } }, { team: { $in: teamsOfUsers } }] }),
      ]);
      return keys.map((key, i) => {
        const teams = new Set((memberships[i] as TeamMemberRow[]).map((m) => m.team));
        return grants.filter((g) => (g.user ? memberKey(g.organization, g.user) === key : teams.has(g.team!)));
      });
    }),
    /** Grants given to each team. */
    grantsByTeam: groupLoader(
      (teamIds: string[]) => rowsWhere(em, ContentGrant, { team: { $in: teamIds } }),
      (g) => g.team!,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof grantLoaders> {}
}
