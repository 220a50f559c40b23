import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from '../organizations/entities.js';
import { Collection } from '../collections/entities.js';

export const Space = defineEntity({
  name: 'Space',
  indexes: [
    { properties: ['organization', 'parent', 'position'] },
    // The order of the top level: `parent_id is null` leaves the index above unable to give it.
    { name: 'space_top_level_position_index', properties: ['organization', 'position'], where: 'parent_id is null' },
    { properties: ['organization', 'createdAt', 'id'] },
    { properties: ['deletedAt'] },
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
  },
});
export type SpaceRow = InferEntity<typeof Space>;
