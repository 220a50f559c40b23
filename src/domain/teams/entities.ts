import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { User } from '../users/index.js';

/** A named group of an organization's members, granted access to content as a whole. */
export const Team = defineEntity({
  name: 'Team',
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    title: p.string().length(64),
    createdAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `TeamRow`. */
export type TeamEntity = InferEntity<typeof Team>;
export type TeamRow = Plain<TeamEntity>;

/** Team roles: an owner manages the team's members without being an organization admin. */
export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** A member's place in a team. Removing the member from the organization removes these rows. */
export const TeamMember = defineEntity({
  name: 'TeamMember',
  indexes: [{ properties: ['organization', 'user'] }, { properties: ['team', 'addedAt', 'user'] }],
  properties: {
    team: () => p.manyToOne(Team).mapToPk().deleteRule('cascade').primary(),
    user: () => p.manyToOne(User).mapToPk().deleteRule('cascade').primary(),
    /** Denormalized from the team so a member's teams in an organization are one index range. */
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    role: p.string().$type<TeamRole>(),
    addedAt: p.datetime(),
  },
});
export type TeamMemberRow = Plain<InferEntity<typeof TeamMember>>;

declare module '../../kernel/rows.js' {
  interface Rows {
    Team: TeamRow;
    TeamMember: TeamMemberRow;
  }
}
