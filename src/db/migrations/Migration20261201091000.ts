import { Migration } from '@mikro-orm/migrations';

/**
 * Search that reads only what it answers. Sections get a tsvector of their title alone under a GIN
 * index (the first kind of search candidates, see src/domain/search/ranking.ts). A space's index
 * record gets a `stale` flag, set with every change of the space's main revision and cleared by the
 * rebuild, under a partial index: a search looks up its organization's stale spaces (usually none)
 * instead of comparing every space's revision. Spaces whose index is behind their content now are
 * marked stale, with a rebuild job each.
 */
export class Migration20261201091000 extends Migration {
  override name = 'Migration20261201091000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "search_section" add column "heading" tsvector generated always as (to_tsvector('english', coalesce("title", ''))) stored null`);
    this.addSql(`create index "search_section_heading_index" on "search_section" using gin("heading")`);
    this.addSql(`alter table "search_indexed_space" add column "stale" boolean not null default false`);
    this.addSql(`create index "search_indexed_space_stale_index" on "search_indexed_space" ("organization_id") where "stale"`);
    this.addSql(`insert into "search_indexed_space" ("space_id", "organization_id", "revision", "stale")
      select s."id", s."organization_id", '', true from "space" s join "revision" r on r."id" = s."revision" where r."tree" is not null
      on conflict ("space_id") do nothing`);
    this.addSql(`update "search_indexed_space" i set "stale" = true from "space" s where s."id" = i."space_id" and i."revision" <> s."revision"`);
    this.addSql(`insert into "job" ("id", "kind", "payload", "run_at", "attempts", "created_at")
      select md5(i."space_id" || clock_timestamp()::text), 'search.index', jsonb_build_object('spaceId', i."space_id"), now(), 0, now()
      from "search_indexed_space" i where i."stale"`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "job" where "kind" = 'search.index'`);
    this.addSql(`drop index "search_indexed_space_stale_index"`);
    this.addSql(`alter table "search_indexed_space" drop column "stale"`);
    this.addSql(`drop index "search_section_heading_index"`);
    this.addSql(`alter table "search_section" drop column "heading"`);
  }
}
