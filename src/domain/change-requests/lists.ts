import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { pageLoader } from '../../db/pages.js';
import { countsStatement } from '../../db/row-counts.js';
import type { SpaceRow } from '../spaces/index.js';
import { ChangeRequest } from './entities.js';
import { newestFirst } from './service.js';

/**
 * A space's change requests of one status, newest first, as `Space.changeRequestList` pages them: the
 * pages of every space of a GraphQL level in one statement, counted by the sizes the database keeps.
 */
function changeRequestsOfStatus(em: EntityManager, status: string) {
  return pageLoader(
    em,
    (space: SpaceRow) => space.id,
    () =>
      Promise.resolve({
        entity: ChangeRequest,
        alias: 'c',
        partition: 'c.space_id',
        where: sql`c.status = ${status}`,
        order: newestFirst,
        counts: (keys) => countsStatement('change_requests_of_space', keys, sql`kept.bucket = ${status}`),
      }),
  );
}

export function changeRequestLists(em: EntityManager) {
  const byStatus = new Map<string, ReturnType<typeof changeRequestsOfStatus>>();
  return {
    /** The loader of pages of spaces' change requests with `status`. */
    changeRequestsOfSpace(status: string) {
      let loader = byStatus.get(status);
      if (!loader) byStatus.set(status, (loader = changeRequestsOfStatus(em, status)));
      return loader;
    },
  };
}

declare module '../../kernel/request-lists.js' {
  interface Lists extends ReturnType<typeof changeRequestLists> {}
}
