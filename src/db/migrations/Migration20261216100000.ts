import { Migration } from '@mikro-orm/migrations';

/** The columns that lead from a site to its parts, whose per-site share the planner must not take from the largest site. */
const SITE_PARTS = ['site_section', 'site_space', 'site_section_group'] as const;

/**
 * A site's layout statement and the pages of its lists read each part of a site through
 * `site_id = <the site>`, a value the planner does not know when it plans (it comes from the
 * statement's own CTE or lateral join). It then estimates a site's rows as the table's rows over the
 * number of distinct sites: on a server whose few sites include one of 100,000 sections, that is tens
 * of thousands of rows per site, and the layout of a site of ten scanned the whole table. Declaring
 * the number of distinct sites as a fraction of the rows fixes the estimate at about 200 rows per site,
 * whatever the table's size: few enough that a site's whole layout is read through an index, enough
 * that a page of 100 is read in index order rather than by gathering and sorting all of a large site's
 * rows (which an estimate of 20 did on the embedded database). docs/performance.md has the figures.
 */
export class Migration20261216100000 extends Migration {
  override name = 'Migration20261216100000';

  override up(): void | Promise<void> {
    for (const table of SITE_PARTS) this.addSql(`alter table "${table}" alter column "site_id" set (n_distinct = -0.005)`);
    // The setting takes effect at the next ANALYZE: now for tables that hold rows. An empty table is left
    // unanalyzed, as a new database's are: statistics of zero rows would plan sequential scans (even
    // in the row triggers' cached plans) for rows inserted before autovacuum next analyzes it.
    for (const table of SITE_PARTS) this.addSql(`do $$ begin if exists (select 1 from "${table}") then analyze "${table}"; end if; end $$`);
  }

  override down(): void | Promise<void> {
    for (const table of SITE_PARTS) this.addSql(`alter table "${table}" alter column "site_id" reset (n_distinct)`);
  }
}
