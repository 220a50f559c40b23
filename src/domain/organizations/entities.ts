import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { User } from '../users/index.js';

export const Organization = defineEntity({
  name: 'Organization',
  properties: {
    id: p.string().primary(),
    title: p.string(),
    createdAt: p.datetime(),
    emailDomains: p.array(),
    hostname: p.string().nullable().unique(),
    type: p.string(),
    useCase: p.string().nullable(),
    communityType: p.string().nullable(),
    /** Role given to members who join without one; null means they join as guests. */
    defaultRole: p.string().nullable(),
    defaultContent: p.json<{ type: 'site'; site: string }>().nullable(),
    logo: p.text().nullable(),
    sso: p.boolean(),
    ai: p.boolean(),
    inviteLinks: p.boolean(),
    plan: p.string(),
  },
});
export type OrganizationRow = Plain<InferEntity<typeof Organization>>;

/** A user's membership of an organization. `role` null means guest. */
export const Member = defineEntity({
  name: 'Member',
  indexes: [{ properties: ['organization', 'joinedAt', 'user'] }, { properties: ['organization', 'lastSeenAt', 'user'] }],
  properties: {
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade').primary(),
    user: () => p.manyToOne(User).mapToPk().deleteRule('cascade').primary().index(),
    role: p.string().nullable(),
    joinedAt: p.datetime(),
    lastSeenAt: p.datetime().nullable(),
    disabled: p.boolean(),
    sso: p.boolean(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `MemberRow`. */
export type MemberEntity = InferEntity<typeof Member>;
export type MemberRow = Plain<MemberEntity>;

declare module '../../kernel/rows.js' {
  interface Rows {
    Organization: OrganizationRow;
    Member: MemberRow;
  }
}
