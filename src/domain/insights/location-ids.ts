import type { EntityManager } from '@mikro-orm/postgresql';
import { columnOf, readRows, tableOf } from '../../db/statements.js';
import { ShareLink, SiteSection, SiteSpace } from '../sites/index.js';
import type { LocationIds } from './batch.js';

/** The statement text per ORM metadata (a cache that can be lost: it is built again from the metadata). */
const statements = new WeakMap<object, string>();

/**
 * The ids a site's events may name in their location, as lists, in one short statement. Every ingest
 * reads them: the site's layout loader would also read whole rows, its spaces and their counts, whose
 * planning alone cost a small batch more than storing it (figures: docs/performance.md).
 */
export async function locationIdsOf(em: EntityManager, siteId: string): Promise<LocationIds> {
  const metadata = em.getMetadata();
  let statement = statements.get(metadata);
  if (statement === undefined) {
    const ids = (entity: typeof SiteSection | typeof SiteSpace | typeof ShareLink, property = 'id') =>
      `array(select ${columnOf(em, entity, property)} from ${tableOf(em, entity)} where ${columnOf(em, entity, 'site')} = $1)`;
    statement = `select ${ids(SiteSection)} as "siteSection", ${ids(SiteSpace)} as "siteSpace", ${ids(ShareLink)} as "siteShareKey", ${ids(SiteSpace, 'space')} as "space"`;
    statements.set(metadata, statement);
  }
  const [row] = await readRows<Record<keyof LocationIds, string[]>>(em, statement, [siteId]);
  return {
    siteSection: new Set(row.siteSection),
    siteSpace: new Set(row.siteSpace),
    siteShareKey: new Set(row.siteShareKey),
    space: new Set(row.space),
  };
}
