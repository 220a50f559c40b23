import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { creationOrder } from '../../../db/creation-order.js';
import { pageLoader } from '../../../db/pages.js';
import { ShareLink, type ShareLinkRow } from '../index.js';

/** The lists of share links: one page of each site's, oldest first, read in SQL for many sites at once. */
export function shareLinkLists(em: EntityManager) {
  return {
    shareLinksOfSite: pageLoader(
      em,
      (siteId: string) => siteId,
      async () => ({
        entity: ShareLink,
        alias: 'l',
        partition: 'l.site_id',
        where: sql`true`,
        order: creationOrder<ShareLinkRow>('l'),
      }),
    ),
  };
}

declare module '../../../kernel/request-lists.js' {
  interface Lists extends ReturnType<typeof shareLinkLists> {}
}
