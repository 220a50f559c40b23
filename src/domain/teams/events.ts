import type { TeamRole, TeamRow } from './entities.js';

/** The payloads of team events: the team as the contract names its fields, members as user ids. */

export const teamPayload = (team: TeamRow) => ({ object: 'team', id: team.id, title: team.title, createdAt: team.createdAt.toISOString() });

export const teamTarget = (team: TeamRow) => ({ teamId: team.id });

/** Who joined, left or changed role in a team, by user id. */
export type TeamMembersChange = { added: string[]; removed: string[]; roles: Record<string, TeamRole> };

export const isEmptyChange = (change: TeamMembersChange) => !change.added.length && !change.removed.length && !Object.keys(change.roles).length;

export const teamMembersPayload = (team: TeamRow, change: TeamMembersChange) => ({ team: teamPayload(team), ...change });
