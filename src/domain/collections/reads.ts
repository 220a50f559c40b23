import sql, { type Sql } from 'sql-template-tag';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readModel, readModelExtension, type NestedSortKey } from '../../kernel/read-models.js';
import { ROLE_COLUMNS } from '../../kernel/policy.js';
import { viewerContentPage, type ContentList } from '../../auth/visibility.js';
import { tableOf } from '../../db/statements.js';

/** By position, then id (lists.ts `byPosition`). */
const byPosition = (c: Sql): NestedSortKey[] => [{ sql: sql`${c}.position` }, { sql: sql`${c}.id` }];

/** Depth first, by position (lists.ts `inTreeOrder`). */
const inTreeOrder = (c: Sql): NestedSortKey[] => [{ sql: sql`${c}.tree_path`, array: true }];

/** The collections the viewer sees among those the list selects, as lists.ts `visibleCollections` pages and counts them. */
const visibleCollections = (em: EntityManager, item: Sql, list: ContentList) => viewerContentPage('collection', tableOf(em, 'Collection'), item, list);

/**
 * How collections are read (kernel/read-models.ts). A collection's own lists (sub-collections, spaces)
 * are pages of their own, read per level with the viewer's filter; they need its organization.
 * Its roles read the columns the policy names (ROLE_COLUMNS). Where the database writes the answer, its
 * sub-collections are a page nested in its row, filtered for the viewer in SQL.
 */
export const CollectionReads = readModel({
  type: 'Collection',
  entity: 'Collection',
  key: 'id',
  always: ['organization'],
  needs: {
    object: [],
    etag: [],
    urls: [],
    owningOrganization: [],
    parentCollection: ['parent'],
    permissions: ROLE_COLUMNS,
    viewerRole: ROLE_COLUMNS,
    collections: [],
    spaces: [],
  },
  pages: {
    /** Direct sub-collections that the viewer can see, by position (the collectionsOfCollection list). */
    collections: {
      many: 'Collection',
      readable: true,
      list: (c, parent, em) =>
        visibleCollections(em, c, {
          where: (row) => sql`${row}.parent_id = ${parent}`,
          order: byPosition(c),
          counter: 'collections_of_parent',
          counted: parent,
          organization: sql`(select p.organization_id from ${tableOf(em, 'Collection')} p where p.id = ${parent})`,
        }),
    },
  },
});

/** An organization's collections (Organization.collections), where the database writes the answer. */
export const OrganizationCollectionReads = readModelExtension({
  type: 'Organization',
  pages: {
    /**
     * The collections that the viewer can see: the top level by position with `nested: false`
     * (topCollectionsOfOrganization), else all in tree order (collectionsOfOrganization).
     */
    collections: {
      many: 'Collection',
      arguments: ['nested'],
      readable: true,
      list: (c, organization, em, { nested }) =>
        nested === false
          ? visibleCollections(em, c, {
              where: (row) => sql`${row}.organization_id = ${organization} and ${row}.parent_id is null`,
              order: byPosition(c),
              counter: 'collections_of_parent',
              counted: sql`'top:' || ${organization}`,
              organization,
            })
          : visibleCollections(em, c, {
              where: (row) => sql`${row}.organization_id = ${organization}`,
              order: inTreeOrder(c),
              counter: 'collections_of_organization',
              counted: organization,
              organization,
            }),
    },
  },
});
