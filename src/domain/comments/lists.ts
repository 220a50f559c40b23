import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { pageLoader } from '../../db/pages.js';
import { countsStatement } from '../../db/row-counts.js';
import type { ChangeRequestRow } from '../change-requests/index.js';
import { Comment } from './entities.js';
import { byPosting } from './service.js';

/** The lists of comments that GraphQL answers nest under their discussion, read for many at once. */
export function commentLists(em: EntityManager) {
  return {
    /**
     * A change request's comments, newest first (as `comments(spaceId, changeRequestId)` lists them by
     * default), as `ChangeRequest.commentList` pages them: every change request of a level in one statement.
     */
    commentsOfChangeRequest: pageLoader(
      em,
      (changeRequest: ChangeRequestRow) => changeRequest.id,
      () =>
        Promise.resolve({
          entity: Comment,
          alias: 'c',
          partition: 'c.change_request_id',
          where: sql`true`,
          order: byPosting('c', true),
          counts: (keys) => countsStatement('comments_of_thread', keys),
        }),
    ),
  };
}

declare module '../../kernel/request-lists.js' {
  interface Lists extends ReturnType<typeof commentLists> {}
}
