import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Collection } from '../collections/index.js';

export const Space = defineEntity({
  name: 'Space',
  indexes: [
    { properties: ['organization', 'parent', 'position'] },
    // The order of the top level: `parent_id is null` leaves the index above unable to give it.
    { name: 'space_top_level_position_index', properties: ['organization', 'position'], where: 'parent_id is null' },
    { properties: ['organization', 'createdAt', 'id'] },
    { properties: ['deletedAt'] },
    { name: 'space_ancestors_index', properties: ['ancestors'], type: 'gin' },
    { name: 'space_parent_id_position_id_index', properties: ['parent', 'position', 'id'] },
  ],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    /** Parent collection. A space whose collection is deleted keeps no parent (see collections service). */
    parent: () => p.manyToOne(Collection).mapToPk().nullable().deleteRule('set null'),
    title: p.string(),
    emoji: p.string().nullable(),
    visibility: p.string(),
    editMode: p.string(),
    defaultLevel: p.string().nullable(),
    position: p.string().collation('C'),
    /** Id of the active revision (content area). */
    revision: p.string(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
    /** Kept by the database (see Migration20261124120000): ids of the collections above, root first. */
    ancestors: p.array().lazy().default([]),
    /** Kept by the database: what the default-level chain gives a non-guest member here (a role, `none` or `member`). */
    accessLevel: p.text().lazy().default('member'),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `SpaceRow`. */
export type SpaceEntity = InferEntity<typeof Space>;
export type SpaceRow = Plain<SpaceEntity>;

declare module '../../kernel/rows.js' {
  interface Rows {
    Space: SpaceRow;
  }
}
