import { Migration } from '@mikro-orm/migrations';

/** One counter the database keeps: the rows of `table` that `live` selects, per parent (`parent`) and bucket (`bucket`). */
type Counter = { name: string; table: string; parent: string; bucket: string; live: string };

/**
 * The sizes of the long lists, kept by the database as rows change (`row_count`), so that a list's
 * exact `count` costs one index lookup per parent rather than a scan of the parent's rows: each list
 * counts the buckets its filter selects (statuses, access levels, roles). Statement-level triggers
 * read what changed from transition tables, so a statement that touches many rows (a cascade, a copy,
 * an access level passed down a tree) updates each counter once, in key order.
 *
 * Also indexes the foreign keys that deletes and per-parent reads follow and that no index led with:
 * without them a delete of a section, group, team, space, provider or reply scans the whole child table.
 */
export const COUNTERS: readonly Counter[] = [
  { name: 'spaces_of_organization', table: 'space', parent: 'r.organization_id', bucket: 'r.access_level', live: 'r.deleted_at is null' },
  { name: 'spaces_of_collection', table: 'space', parent: 'r.parent_id', bucket: 'r.access_level', live: 'r.deleted_at is null' },
  { name: 'collections_of_organization', table: 'collection', parent: 'r.organization_id', bucket: 'r.access_level', live: 'true' },
  { name: 'collections_of_parent', table: 'collection', parent: `coalesce(r.parent_id, 'top:' || r.organization_id)`, bucket: 'r.access_level', live: 'true' },
  { name: 'change_requests_of_space', table: 'change_request', parent: 'r.space_id', bucket: 'r.status', live: 'true' },
  { name: 'comments_of_thread', table: 'comment', parent: `coalesce(r.change_request_id, 'space:' || r.space_id)`, bucket: 'r.status', live: 'true' },
  { name: 'sections_of_site', table: 'site_section', parent: 'r.site_id', bucket: `''`, live: 'true' },
  { name: 'site_spaces_of_site', table: 'site_space', parent: 'r.site_id', bucket: `''`, live: 'true' },
  {
    name: 'members_of_organization',
    table: 'member',
    parent: 'r.organization_id',
    bucket: `coalesce(r.role, '') || case when r.last_seen_at is null then '' else ':seen' end`,
    live: 'true',
  },
];

const FOREIGN_KEY_INDEXES: readonly [name: string, table: string, columns: string][] = [
  ['site_section_section_group_id_position_id_index', 'site_section', '"section_group_id", "position", "id"'],
  ['site_space_section_id_position_id_index', 'site_space', '"section_id", "position", "id"'],
  ['content_grant_team_id_index', 'content_grant', '"team_id"'],
  ['saml_provider_default_team_id_index', 'saml_provider', '"default_team_id"'],
  ['saml_request_provider_id_index', 'saml_request', '"provider_id"'],
  ['invite_link_space_id_index', 'invite_link', '"space_id"'],
  ['invite_link_collection_id_index', 'invite_link', '"collection_id"'],
  ['comment_reaction_reply_id_index', 'comment_reaction', '"reply_id"'],
];

const EVENTS = [
  ['insert', 'referencing new table as new_rows'],
  ['update', 'referencing old table as old_rows new table as new_rows'],
  ['delete', 'referencing old table as old_rows'],
] as const;

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

export class Migration20261216090000 extends Migration {
  override name = 'Migration20261216090000';

  override up(): void | Promise<void> {
    this.addSql(`create table "row_count" (
      "counter" varchar(64) not null, "parent_id" varchar(255) not null, "bucket" varchar(255) not null, "n" bigint not null,
      constraint "row_count_pkey" primary key ("counter", "parent_id", "bucket"))`);
    this.addSql(`create function "row_count_maintain"() returns trigger language plpgsql as $$
      declare
        counter text := tg_argv[0];
        changes text;
        added text := format('select %s as parent_id, %s as bucket, 1 as d from new_rows r where %s', tg_argv[1], tg_argv[2], tg_argv[3]);
        removed text := format('select %s as parent_id, %s as bucket, -1 as d from old_rows r where %s', tg_argv[1], tg_argv[2], tg_argv[3]);
      begin
        changes := case tg_op when 'INSERT' then added when 'DELETE' then removed else added || ' union all ' || removed end;
        execute format('insert into row_count as c (counter, parent_id, bucket, n)
          select %L, parent_id, bucket, sum(d) from (%s) changes where parent_id is not null
          group by parent_id, bucket having sum(d) <> 0 order by parent_id, bucket
          on conflict (counter, parent_id, bucket) do update set n = c.n + excluded.n', counter, changes);
        return null;
      end $$`);
    for (const counter of COUNTERS) {
      const args = [counter.name, counter.parent, counter.bucket, counter.live].map(quoted).join(', ');
      for (const [event, transitions] of EVENTS) {
        this.addSql(`create trigger "${counter.name}_${event}" after ${event} on "${counter.table}" ${transitions}
          for each statement execute function row_count_maintain(${args})`);
      }
      this.addSql(`insert into "row_count" ("counter", "parent_id", "bucket", "n")
        select ${quoted(counter.name)}, ${counter.parent}, ${counter.bucket}, count(*) from "${counter.table}" r
        where ${counter.live} and ${counter.parent} is not null group by 2, 3`);
    }
    for (const [name, table, columns] of FOREIGN_KEY_INDEXES) this.addSql(`create index "${name}" on "${table}" (${columns})`);
  }

  override down(): void | Promise<void> {
    for (const [name] of FOREIGN_KEY_INDEXES) this.addSql(`drop index "${name}"`);
    for (const counter of COUNTERS) for (const [event] of EVENTS) this.addSql(`drop trigger "${counter.name}_${event}" on "${counter.table}"`);
    this.addSql(`drop function "row_count_maintain"()`);
    this.addSql(`drop table "row_count"`);
  }
}
