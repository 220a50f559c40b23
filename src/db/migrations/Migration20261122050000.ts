import { Migration } from '@mikro-orm/migrations';

/**
 * Site insights storage, written by hand: the generator cannot express a partitioned table or a BRIN
 * index, and these tables are no entities (reached with raw SQL), so it ignores them. Monthly
 * partitions of insight_event are created on demand at ingest.
 */
export class Migration20261122050000 extends Migration {
  override name = 'Migration20261122050000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "insight_event" ("site_id" text not null, "organization_id" text not null, "time" timestamptz not null, "type" text not null, "visitor_id" text not null, "session_id" text not null, "url" text not null, "site_section" text, "site_space" text, "site_share_key" text, "space" text, "revision" text, "page" text, "language" text, "referrer" text, "referrer_domain" text, "utm_source" text, "utm_medium" text, "utm_campaign" text, "utm_term" text, "utm_content" text, "browser" text not null, "device" text not null, "os" text not null, "bot" text, "country" text, "claims" jsonb, "search_query" text, "search_result_space" text, "search_result_page" text, "feedback_rating" text, "feedback_comment" text, "ask_rating" smallint, "ask_response_id" text, "link_target" jsonb, "link_target_kind" text, "link_target_domain" text, "link_position" text, "api_operation_path" text, "api_operation_method" text, "ad_domain" text, "ad_zone_id" text, "ad_placement" text, "trademark_placement" text) partition by range ("time")`,
    );
    this.addSql(`create index "insight_event_time_brin" on "insight_event" using brin ("time")`);
    this.addSql(`create index "insight_event_site_id_time_index" on "insight_event" ("site_id", "time")`);
    this.addSql(
      `create table "insight_rollup_traffic_day" ("site_id" text not null, "time" timestamptz not null, "type" text, "browser" text, "device" text, "os" text, "bot" text, "country" text, "language" text, "events" bigint not null)`,
    );
    this.addSql(
      `create unique index "insight_rollup_traffic_day_key" on "insight_rollup_traffic_day" ("site_id", "time", "type", "browser", "device", "os", "bot", "country", "language") nulls not distinct`,
    );
    this.addSql(
      `create table "insight_rollup_content_day" ("site_id" text not null, "time" timestamptz not null, "type" text, "url" text, "space" text, "page" text, "site_section" text, "site_space" text, "events" bigint not null)`,
    );
    this.addSql(
      `create unique index "insight_rollup_content_day_key" on "insight_rollup_content_day" ("site_id", "time", "type", "url", "space", "page", "site_section", "site_space") nulls not distinct`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "insight_event" cascade`);
    this.addSql(`drop table if exists "insight_rollup_traffic_day"`);
    this.addSql(`drop table if exists "insight_rollup_content_day"`);
  }
}
