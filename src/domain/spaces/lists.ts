import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw, type Sql } from 'sql-template-tag';
import type { Policy } from '../../kernel/policy.js';
import { visibleContent, visibleCounts, type CountedParent } from '../../auth/visibility.js';
import { creationOrder } from '../../db/creation-order.js';
import { pageLoader, type PartitionedList, type SortKey } from '../../db/pages.js';
import { tableOf } from '../../db/statements.js';
import type { Counter } from '../../db/row-counts.js';
import type { CollectionRow } from '../collections/index.js';
import { Space, type SpaceRow } from './entities.js';

export const spacesByCreation = creationOrder<SpaceRow>('s');

export const spacesByPosition: SortKey<SpaceRow>[] = [
  { sql: 's.position', of: (s) => s.position },
  { sql: 's.id', of: (s) => s.id },
];

/** Live spaces that the viewer can see, of parents whose key (`partition`) and kept size (`counter`) are known. */
async function visibleSpaces(
  em: EntityManager,
  policy: Policy,
  parents: readonly CountedParent[],
  list: { partition: string; counter: Counter; order: SortKey<SpaceRow>[] },
): Promise<PartitionedList<SpaceRow>> {
  const reach = await policy.contentReach(parents.map((p) => p.organization));
  const where = sql`s.deleted_at is null and ${visibleContent(reach, 'space', 's')}`;
  const partition = raw(list.partition);
  const granted = (condition: Sql) => sql`select count(*) from ${tableOf(em, Space)} s where ${partition} = k.key and ${where} and ${condition}`;
  return {
    entity: Space,
    alias: 's',
    partition: list.partition,
    where,
    order: list.order,
    counts: () => visibleCounts(reach, 'space', list.counter, parents, 's', granted),
  };
}

/** The lists of spaces, each page read in SQL with the viewer's filter, for many parents at once. */
export function spaceLists(em: EntityManager, policy: Policy) {
  return {
    /** Live spaces of an organization that the viewer can see, oldest first. */
    spacesOfOrganization: pageLoader(
      em,
      (organizationId: string) => organizationId,
      (organizationIds) =>
        visibleSpaces(
          em,
          policy,
          organizationIds.map((id) => ({ key: id, counted: id, organization: id })),
          {
            partition: 's.organization_id',
            counter: 'spaces_of_organization',
            order: spacesByCreation,
          },
        ),
    ),
    /** Live spaces directly in a collection that the viewer can see, by position. */
    spacesOfCollection: pageLoader(
      em,
      (collection: CollectionRow) => collection.id,
      (collections) =>
        visibleSpaces(
          em,
          policy,
          collections.map((c) => ({ key: c.id, counted: c.id, organization: c.organization })),
          {
            partition: 's.parent_id',
            counter: 'spaces_of_collection',
            order: spacesByPosition,
          },
        ),
    ),
  };
}

declare module '../../kernel/request-lists.js' {
  interface Lists extends ReturnType<typeof spaceLists> {}
}
