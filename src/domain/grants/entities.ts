import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Collection } from '../collections/index.js';
import { Space } from '../spaces/index.js';
import { Team } from '../teams/index.js';
import { User } from '../users/index.js';

/**
 * A content role given explicitly on one space or one collection (and through it to its contents), to
 * a team or to a single user. Exactly one of `space`/`collection` and one of `team`/`user` is set.
 * The policy module joins these with membership roles and `defaultLevel`s.
 */
export const ContentGrant = defineEntity({
  name: 'ContentGrant',
  indexes: [
    { properties: ['organization', 'user'] },
    { properties: ['organization', 'team'] },
    { properties: ['team'] },
    { properties: ['space', 'createdAt', 'id'] },
    { properties: ['collection', 'createdAt', 'id'] },
  ],
  uniques: [
    { name: 'content_grant_space_team_unique', properties: ['space', 'team'] },
    { name: 'content_grant_space_user_unique', properties: ['space', 'user'] },
    { name: 'content_grant_collection_team_unique', properties: ['collection', 'team'] },
    { name: 'content_grant_collection_user_unique', properties: ['collection', 'user'] },
  ],
  checks: [
    { name: 'content_grant_one_target', expression: 'num_nonnulls(space_id, collection_id) = 1' },
    { name: 'content_grant_one_grantee', expression: 'num_nonnulls(team_id, user_id) = 1' },
  ],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().nullable().deleteRule('cascade'),
    collection: () => p.manyToOne(Collection).mapToPk().nullable().deleteRule('cascade'),
    team: () => p.manyToOne(Team).mapToPk().nullable().deleteRule('cascade'),
    user: () => p.manyToOne(User).mapToPk().nullable().deleteRule('cascade'),
    /** A content role (read … admin). */
    role: p.string(),
    createdAt: p.datetime(),
  },
});
export type ContentGrantRow = Plain<InferEntity<typeof ContentGrant>>;

declare module '../../kernel/rows.js' {
  interface Rows {
    ContentGrant: ContentGrantRow;
  }
}
