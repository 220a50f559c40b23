import { Migration } from '@mikro-orm/migrations';

const ROLLUPS = {
  traffic: ['type', 'browser', 'device', 'os', 'bot', 'country', 'language'],
  content: ['type', 'url', 'space', 'page', 'site_section', 'site_space'],
};
const quoted = (columns: string[]) => columns.map((c) => `"${c}"`).join(', ');

/**
 * Insights rollups computed by a job from raw rows as hours end instead of at ingest: each site's
 * watermark (`insight_rollup_state.rolled_up_to`) says how far rollups hold every event. Every event
 * stored so far has its counts in the rollups already (appended at ingest), so each site with events or
 * rollups starts with a watermark past any event it may hold (events may be up to five minutes ahead of
 * the clock). Down puts back the counts of events after the watermark, which the old design expects
 * rollups to hold (from raw rows, replacing what rollups hold from there on). Written by hand, like the tables it changes.
 */
export class Migration20261122100000 extends Migration {
  override name = 'Migration20261122100000';

  override up(): void | Promise<void> {
    this.addSql(`create table "insight_rollup_state" ("site_id" text not null primary key, "rolled_up_to" timestamptz not null)`);
    this.addSql(`insert into "insight_rollup_state" ("site_id", "rolled_up_to")
      select "site_id", date_trunc('hour', now(), 'UTC') + interval '2 hours' from (select distinct "site_id" from "insight_rollup" union select distinct "site_id" from "insight_event") sites`);
  }

  override down(): void | Promise<void> {
    // What rollups may hold from the watermark on (daily rows left of the day holding it) is counted again.
    this.addSql(`delete from "insight_rollup" r using "insight_rollup_state" s where r."site_id" = s."site_id"
      and r."time" >= case when r."rollup" like '%_day' then date_trunc('day', s."rolled_up_to", 'UTC') else s."rolled_up_to" end`);
    this.addSql(`delete from "insight_rollup" where "site_id" not in (select "site_id" from "insight_rollup_state")`);
    for (const [name, dimensions] of Object.entries(ROLLUPS)) {
      for (const grain of ['hour', 'day']) {
        // Days are rolled up only once they have ended: the day holding the watermark has no daily rows.
        const since = grain === 'hour' ? `s."rolled_up_to"` : `date_trunc('day', s."rolled_up_to", 'UTC')`;
        this.addSql(`insert into "insight_rollup" ("rollup", "site_id", "time", ${quoted(dimensions)}, "events", "delta")
          select '${name}_${grain}', e."site_id", date_trunc('${grain}', e."time", 'UTC'), ${dimensions.map((d) => `e."${d}"`).join(', ')}, count(*), true
          from "insight_event" e left join "insight_rollup_state" s on s."site_id" = e."site_id"
          where s."site_id" is null or e."time" >= ${since}
          group by e."site_id", date_trunc('${grain}', e."time", 'UTC'), ${dimensions.map((d) => `e."${d}"`).join(', ')}`);
      }
    }
    this.addSql(`drop table "insight_rollup_state"`);
  }
}
