import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw, type Sql } from 'sql-template-tag';
import type { Policy } from '../../kernel/policy.js';
import { visibleContent, visibleCounts, type CountedParent } from '../../auth/visibility.js';
import { pageLoader, type PartitionedList, type SortKey } from '../../db/pages.js';
import { tableOf } from '../../db/statements.js';
import type { Counter } from '../../db/row-counts.js';
import { Collection, type CollectionRow } from './entities.js';

const byPosition: SortKey<CollectionRow>[] = [
  { sql: 'c.position', of: (c) => c.position },
  { sql: 'c.id', of: (c) => c.id },
];

/** Depth first, by position: the database's `tree_path` (positions and ids from the top down). */
const inTreeOrder: SortKey<CollectionRow>[] = [{ sql: 'c.tree_path', array: true, of: (c) => c.treePath }];

/** Collections that the viewer can see among those of some parents, with `where` besides. */
async function visibleCollections(
  em: EntityManager,
  policy: Policy,
  parents: readonly CountedParent[],
  list: Pick<PartitionedList<CollectionRow>, 'partition' | 'order'> & { where?: Sql; counter: Counter },
): Promise<PartitionedList<CollectionRow>> {
  const reach = await policy.contentReach(parents.map((p) => p.organization));
  const visible = visibleContent(reach, 'collection', 'c');
  const where = list.where ? sql`${list.where} and ${visible}` : visible;
  const partition = raw(list.partition);
  const granted = (condition: Sql) => sql`select count(*) from ${tableOf(em, Collection)} c where ${partition} = k.key and ${where} and ${condition}`;
  return {
    entity: Collection,
    alias: 'c',
    // The tree order's key comes along: a cursor is made of a page's last row.
    extra: { treePath: 'c.tree_path' },
    where,
    partition: list.partition,
    order: list.order,
    counts: () => visibleCounts(reach, 'collection', list.counter, parents, 'c', granted),
  };
}

const ofOrganizations = (ids: readonly string[], counted: (id: string) => string = (id) => id): CountedParent[] =>
  ids.map((id) => ({ key: id, counted: counted(id), organization: id }));

/** The lists of collections, each page read in SQL with the viewer's filter, for many parents at once. */
export function collectionLists(em: EntityManager, policy: Policy) {
  return {
    /** Collections of an organization that the viewer can see, in tree order. */
    collectionsOfOrganization: pageLoader(
      em,
      (organizationId: string) => organizationId,
      (organizationIds) =>
        visibleCollections(em, policy, ofOrganizations(organizationIds), {
          partition: 'c.organization_id',
          counter: 'collections_of_organization',
          order: inTreeOrder,
        }),
    ),
    /** Top-level collections of an organization that the viewer can see, by position. */
    topCollectionsOfOrganization: pageLoader(
      em,
      (organizationId: string) => organizationId,
      (organizationIds) =>
        visibleCollections(
          em,
          policy,
          ofOrganizations(organizationIds, (id) => `top:${id}`),
          {
            partition: 'c.organization_id',
            where: sql`c.parent_id is null`,
            counter: 'collections_of_parent',
            order: byPosition,
          },
        ),
    ),
    /** Direct sub-collections of a collection that the viewer can see, by position. */
    collectionsOfCollection: pageLoader(
      em,
      (collection: CollectionRow) => collection.id,
      (collections) =>
        visibleCollections(
          em,
          policy,
          collections.map((c) => ({ key: c.id, counted: c.id, organization: c.organization })),
          {
            partition: 'c.parent_id',
            counter: 'collections_of_parent',
            order: byPosition,
          },
        ),
    ),
  };
}

declare module '../../kernel/request-lists.js' {
  interface Lists extends ReturnType<typeof collectionLists> {}
}
