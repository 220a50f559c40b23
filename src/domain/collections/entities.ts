import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';

export const Collection = defineEntity({
  name: 'Collection',
  indexes: [
    { properties: ['organization', 'parent', 'position'] },
    // The order of the top level: `parent_id is null` leaves the index above unable to give it.
    { name: 'collection_top_level_position_index', properties: ['organization', 'position'], where: 'parent_id is null' },
    { properties: ['organization', 'createdAt', 'id'] },
    { name: 'collection_ancestors_index', properties: ['ancestors'], type: 'gin' },
    { name: 'collection_organization_id_tree_path_index', properties: ['organization', 'treePath'] },
    { name: 'collection_parent_id_position_id_index', properties: ['parent', 'position', 'id'] },
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
    /** Kept by the database (see Migration20261124120000): ids of the collections above, root first. */
    ancestors: p.array().lazy().default([]),
    /** Kept by the database: what the default-level chain gives a non-guest member here (a role, `none` or `member`). */
    accessLevel: p.text().lazy().default('member'),
    /** Kept by the database: position and id of each collection from the top down to this one (tree order). */
    treePath: p.array().lazy().default([]),
  },
});
export type CollectionRow = Plain<InferEntity<typeof Collection>>;

declare module '../../kernel/rows.js' {
  interface Rows {
    Collection: CollectionRow;
  }
}
