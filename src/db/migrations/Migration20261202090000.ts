import { Migration } from '@mikro-orm/migrations';

/**
 * A site's sections and site spaces in navigation order, kept by the database (triggers) as each row's
 * `nav_key`, so that their lists read one page through an index instead of the whole site:
 * - a section: its group's position and id, then its own (`[group position, group id, position, id]`), or
 *   `[position, id]` at the top level (a section of a missing group counts as top-level);
 * - a site space: its section's key padded to four parts (`''` for a section outside any group; all four
 *   `''` at the root level), then its own position and id.
 * A group's new position passes on to its sections, a section's new key to its site spaces.
 */
export class Migration20261202090000 extends Migration {
  override name = 'Migration20261202090000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "site_section" add column "nav_key" text[] collate "C" not null default '{}'`);
    this.addSql(`alter table "site_space" add column "nav_key" text[] collate "C" not null default '{}'`);

    this.addSql(`create function "site_section_derive"() returns trigger language plpgsql as $$
      declare grp record;
      begin
        select g.id, g.position into grp from site_section_group g where g.id = new.section_group_id;
        if found then
          new.nav_key := array[grp.position::text, grp.id::text, new.position::text, new.id::text];
        else
          new.nav_key := array[new.position::text, new.id::text];
        end if;
        return new;
      end $$`);
    this.addSql(`create function "site_space_derive"() returns trigger language plpgsql as $$
      declare section_key text[];
      begin
        select s.nav_key into section_key from site_section s where s.id = new.section_id;
        if not found then section_key := array[]::text[]; end if;
        new.nav_key := (section_key || array_fill(''::text, array[4 - coalesce(array_length(section_key, 1), 0)])) || array[new.position::text, new.id::text];
        return new;
      end $$`);
    this.addSql(`create function "site_section_group_propagate"() returns trigger language plpgsql as $$
      begin
        update site_section set section_group_id = section_group_id where section_group_id = new.id;
        return null;
      end $$`);
    this.addSql(`create function "site_section_propagate"() returns trigger language plpgsql as $$
      begin
        update site_space set section_id = section_id where section_id = new.id;
        return null;
      end $$`);

    this.addSql(
      `create trigger "site_section_derive" before insert or update of "section_group_id", "position" on "site_section" for each row execute function site_section_derive()`,
    );
    this.addSql(
      `create trigger "site_space_derive" before insert or update of "section_id", "position" on "site_space" for each row execute function site_space_derive()`,
    );
    this.addSql(`create trigger "site_section_group_propagate" after update of "position" on "site_section_group" for each row
      when (old.position is distinct from new.position) execute function site_section_group_propagate()`);
    this.addSql(`create trigger "site_section_propagate" after update on "site_section" for each row
      when (old.nav_key is distinct from new.nav_key) execute function site_section_propagate()`);

    this.addSql(`update "site_section" set "section_group_id" = "section_group_id"`);
    this.addSql(`update "site_space" set "section_id" = "section_id" where "section_id" is null`);

    this.addSql(`create index "site_section_site_id_nav_key_index" on "site_section" ("site_id", "nav_key")`);
    this.addSql(`create index "site_space_site_id_nav_key_index" on "site_space" ("site_id", "nav_key")`);
    this.addSql(`create index "site_section_group_site_id_position_id_index" on "site_section_group" ("site_id", "position", "id")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "site_section_group_site_id_position_id_index"`);
    this.addSql(`drop trigger "site_section_propagate" on "site_section"`);
    this.addSql(`drop trigger "site_section_group_propagate" on "site_section_group"`);
    this.addSql(`drop trigger "site_space_derive" on "site_space"`);
    this.addSql(`drop trigger "site_section_derive" on "site_section"`);
    this.addSql(`drop function "site_section_propagate"()`);
    this.addSql(`drop function "site_section_group_propagate"()`);
    this.addSql(`drop function "site_space_derive"()`);
    this.addSql(`drop function "site_section_derive"()`);
    this.addSql(`alter table "site_space" drop column "nav_key"`);
    this.addSql(`alter table "site_section" drop column "nav_key"`);
  }
}
