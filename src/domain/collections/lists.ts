import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import type { Policy } from '../../auth/policy.js';
import { visibleContent } from '../../auth/visibility.js';
import { pageLoader, type PartitionedList, type SortKey } from '../../db/pages.js';
import { Collection, type CollectionRow } from './entities.js';

const byPosition: SortKey<CollectionRow>[] = [
  { sql: 'c.position', of: (c) => c.position },
  { sql: 'c.id', of: (c) => c.id },
];

/** Depth first, by position: the database's `tree_path` (positions and ids from the top down). */
const inTreeOrder: SortKey<CollectionRow>[] = [{ sql: 'c.tree_path', array: true, of: (c) => c.treePath }];

/** Collections that the viewer can see among those of some organizations, with `where` besides. */
async function visibleCollections(
  policy: Policy,
  organizationIds: readonly string[],
  list: Pick<PartitionedList<CollectionRow>, 'partition' | 'order'> & { where?: ReturnType<typeof sql> },
): Promise<PartitionedList<CollectionRow>> {
  const visible = visibleContent(await policy.contentReach(organizationIds), 'collection', 'c');
  return {
    entity: Collection,
    alias: 'c',
    // The tree order's key comes along: a cursor is made of a page's last row.
    extra: { treePath: 'c.tree_path' },
    where: list.where ? sql`${list.where} and ${visible}` : visible,
    partition: list.partition,
    order: list.order,
  };
}

/** The lists of collections, each page read in SQL with the viewer's filter, for many parents at once. */
export function collectionLists(em: EntityManager, policy: Policy) {
  return {
    /** Collections of an organization that the viewer can see, in tree order. */
    collectionsOfOrganization: pageLoader(em, (organizationId: string) => organizationId, (organizationIds) =>
      visibleCollections(policy, organizationIds, { partition: 'c.organization_id', order: inTreeOrder }),
    ),
    /** Top-level collections of an organization that the viewer can see, by position. */
    topCollectionsOfOrganization: pageLoader(em, (organizationId: string) => organizationId, (organizationIds) =>
      visibleCollections(policy, organizationIds, { partition: 'c.organization_id', where: sql`c.parent_id is null`, order: byPosition }),
    ),
    /** Direct sub-collections of a collection that the viewer can see, by position. */
    collectionsOfCollection: pageLoader(em, (collection: CollectionRow) => collection.id, (collections) =>
      visibleCollections(policy, collections.map((c) => c.organization), { partition: 'c.parent_id', order: byPosition }),
    ),
  };
}
