import { Migration } from '@mikro-orm/migrations';

const ROLLUPS = {
  traffic: ['type', 'browser', 'device', 'os', 'bot', 'country', 'language'],
  content: ['type', 'url', 'space', 'page', 'site_section', 'site_space'],
};
const DIMENSIONS = [...new Set(Object.values(ROLLUPS).flat())];
const quoted = (columns: string[]) => columns.map((c) => `"${c}"`).join(', ');

/**
 * Insights rollups per UTC hour beside the daily ones, all four the list partitions of one table
 * (`insight_rollup`, by its `rollup` column, with the columns of both dimension sets) so that an ingest
 * writes them with one COPY. Rollups are now written by appending each ingest's counts (a `delta` row)
 * instead of upserting through a unique key: readers sum a key's rows, and a durable job merges each
 * touched bucket's rows into one per key (delta = false). The daily counts move over as they are; the
 * hourly ones are computed from the events already stored. Written by hand, like the tables it changes.
 */
export class Migration20261122090000 extends Migration {
  override name = 'Migration20261122090000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "insight_rollup" ("rollup" text not null, "site_id" text not null, "time" timestamptz not null, ${DIMENSIONS.map((d) => `"${d}" text`).join(', ')}, "events" bigint not null, "delta" boolean not null default true) partition by list ("rollup")`,
    );
    this.addSql(`create index "insight_rollup_site_id_time_index" on "insight_rollup" ("site_id", "time")`);
    this.addSql(`create index "insight_rollup_delta_index" on "insight_rollup" ("site_id", "time") where "delta"`);
    for (const [name, dimensions] of Object.entries(ROLLUPS)) {
      const day = `insight_rollup_${name}_day`;
      this.addSql(`alter table "${day}" rename to "${day}_old"`);
      for (const grain of ['hour', 'day']) {
        this.addSql(`create table "insight_rollup_${name}_${grain}" partition of "insight_rollup" for values in ('${name}_${grain}')`);
      }
      this.addSql(`insert into "insight_rollup" ("rollup", "site_id", "time", ${quoted(dimensions)}, "events", "delta")
        select '${name}_day', "site_id", "time", ${quoted(dimensions)}, "events", false from "${day}_old"`);
      this.addSql(`drop table "${day}_old"`);
      this.addSql(`insert into "insight_rollup" ("rollup", "site_id", "time", ${quoted(dimensions)}, "events", "delta")
        select '${name}_hour', "site_id", date_trunc('hour', "time", 'UTC'), ${quoted(dimensions)}, count(*), false from "insight_event"
        group by "site_id", date_trunc('hour', "time", 'UTC'), ${quoted(dimensions)}`);
    }
  }

  override down(): void | Promise<void> {
    for (const [name, dimensions] of Object.entries(ROLLUPS)) {
      const day = `insight_rollup_${name}_day`;
      this.addSql(
        `create table "${day}_new" ("site_id" text not null, "time" timestamptz not null, ${dimensions.map((d) => `"${d}" text`).join(', ')}, "events" bigint not null)`,
      );
      this.addSql(
        `insert into "${day}_new" select "site_id", "time", ${quoted(dimensions)}, sum("events") from "${day}" group by "site_id", "time", ${quoted(dimensions)}`,
      );
    }
    this.addSql(`drop table "insight_rollup"`);
    for (const [name, dimensions] of Object.entries(ROLLUPS)) {
      const day = `insight_rollup_${name}_day`;
      this.addSql(`alter table "${day}_new" rename to "${day}"`);
      this.addSql(`create unique index "${day}_key" on "${day}" ("site_id", "time", ${quoted(dimensions)}) nulls not distinct`);
    }
  }
}
