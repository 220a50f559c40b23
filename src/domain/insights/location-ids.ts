import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { type Sql } from 'sql-template-tag';
import { columnOf, readRows, tableOf } from '../../db/statements.js';
import { ShareLink, SiteSection, SiteSpace } from '../sites/index.js';
import type { LocationIds } from './batch.js';

/** The statement's lists per ORM metadata (a cache that can be lost: it is built again from the metadata). */
const statements = new WeakMap<object, (siteId: string) => Sql>();

/**
 * The ids a site's events may name in their location, as lists, in one short statement. Every ingest
 * reads them: the site's layout loader would also read whole rows, its spaces and their counts, whose
 * planning alone cost a small batch more than storing it (figures: docs/performance.md).
 */
export async function locationIdsOf(em: EntityManager, siteId: string): Promise<LocationIds> {
  const metadata = em.getMetadata();
  let statement = statements.get(metadata);
  if (statement === undefined) {
    const ids = (entity: typeof SiteSection | typeof SiteSpace | typeof ShareLink, property = 'id') => {
      const list = sql`array(select ${columnOf(em, entity, property)} from ${tableOf(em, entity)} where ${columnOf(em, entity, 'site')} =`;
      return (site: string) => sql`${list} ${site})`;
    };
    const [sections, siteSpaces, shareKeys, spaces] = [ids(SiteSection), ids(SiteSpace), ids(ShareLink), ids(SiteSpace, 'space')];
    statement = (site) =>
      sql`select ${sections(site)} as "siteSection", ${siteSpaces(site)} as "siteSpace", ${shareKeys(site)} as "siteShareKey", ${spaces(site)} as "space"`;
    statements.set(metadata, statement);
  }
  const [row] = await readRows<Record<keyof LocationIds, string[]>>(em, statement(siteId));
  return {
    siteSection: new Set(row.siteSection),
    siteSpace: new Set(row.siteSpace),
    siteShareKey: new Set(row.siteShareKey),
    space: new Set(row.space),
  };
}
