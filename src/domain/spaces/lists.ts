import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import type { Policy } from '../../auth/policy.js';
import { visibleContent } from '../../auth/visibility.js';
import { creationOrder } from '../../db/creation-order.js';
import { pageLoader, type SortKey } from '../../db/pages.js';
import type { CollectionRow } from '../collections/entities.js';
import { Space, type SpaceRow } from './entities.js';

export const spacesByCreation = creationOrder<SpaceRow>('s');

export const spacesByPosition: SortKey<SpaceRow>[] = [
  { sql: 's.position', of: (s) => s.position },
  { sql: 's.id', of: (s) => s.id },
];

/** The lists of spaces, each page read in SQL with the viewer's filter, for many parents at once. */
export function spaceLists(em: EntityManager, policy: Policy) {
  return {
    /** Live spaces of an organization that the viewer can see, oldest first. */
    spacesOfOrganization: pageLoader(
      em,
      (organizationId: string) => organizationId,
      async (organizationIds) => ({
        entity: Space,
        alias: 's',
        partition: 's.organization_id',
        where: sql`s.deleted_at is null and ${visibleContent(await policy.contentReach(organizationIds), 'space', 's')}`,
        order: spacesByCreation,
      }),
    ),
    /** Live spaces directly in a collection that the viewer can see, by position. */
    spacesOfCollection: pageLoader(
      em,
      (collection: CollectionRow) => collection.id,
      async (collections) => ({
        entity: Space,
        alias: 's',
        partition: 's.parent_id',
        where: sql`s.deleted_at is null and ${visibleContent(await policy.contentReach(collections.map((c) => c.organization)), 'space', 's')}`,
        order: spacesByPosition,
      }),
    ),
  };
}
