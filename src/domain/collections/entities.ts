import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from '../organizations/entities.js';

export const Collection = defineEntity({
  name: 'Collection',
  indexes: [
    { properties: ['organization', 'parent', 'position'] },
    // The order of the top level: `parent_id is null` leaves the index above unable to give it.
    { name: 'collection_top_level_position_index', properties: ['organization', 'position'], where: 'parent_id is null' },
    { properties: ['organization', 'createdAt', 'id'] },
  ],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    parent: () => p.manyToOne(Collection).mapToPk().nullable().deleteRule('cascade'),
    title: p.string(),
    description: p.string().nullable(),
    /** A role, `inherit`, or null (no default access). */
    defaultLevel: p.string().nullable(),
    /** Fractional ordering key among the siblings (collections and spaces of the same parent). */
    position: p.string().collation('C'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type CollectionRow = InferEntity<typeof Collection>;
