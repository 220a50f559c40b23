import { memberKey, splitMemberKeys } from '../../kernel/member-keys.js';
import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsWhere } from '../../db/statements.js';
import { batchLoader, groupLoader } from '../../kernel/loader.js';
import { TeamMember, type TeamMemberRow } from '../teams/index.js';
import { ContentGrant, type ContentGrantRow } from './entities.js';

export function grantLoaders(em: EntityManager, teamMembershipsOf: DataLoader<string, TeamMemberRow[]>) {
  return {
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
