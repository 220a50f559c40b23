import { Migration } from '@mikro-orm/migrations';

/**
 * What lists need to read one page in SQL, kept by the database itself (triggers), so that no write path
 * can forget it — moves, transfers, default-level changes, and a deleted collection's spaces losing their
 * parent through the foreign key's `set null` all keep it right:
 * - `ancestors` (collections and spaces): the ids of the collections above, root first. The viewer's grants
 *   reach an item when they name it or one of its ancestors (`ancestors && <granted collections>`).
 * - `access_level` (collections and spaces): what the `defaultLevel` chain gives a non-guest member here:
 *   the nearest `defaultLevel` other than `inherit` (a role, or `none` for null), or `member` (the member's
 *   organization role) when every level above inherits. See Policy.spaceRole, which reads the same rules
 *   row by row.
 * - `tree_path` (collections): position and id of every collection from the top down to this one, the sort
 *   key of the depth-first tree order of an organization's collections.
 */
export class Migration20261124120000 extends Migration {
  override name = 'Migration20261124120000';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "collection" add column "ancestors" text[] not null default '{}', add column "access_level" text not null default 'member', add column "tree_path" text[] collate "C" not null default '{}'`,
    );
    this.addSql(`alter table "space" add column "ancestors" text[] not null default '{}', add column "access_level" text not null default 'member'`);

    this.addSql(`create function "content_access_level"(default_level text, inherited text) returns text language sql immutable as $$
      select case when default_level = 'inherit' then inherited when default_level is null then 'none' else default_level end
    $$`);

    // Each row from its parent's values; the parent is always right before its children change.
    this.addSql(`create function "collection_derive"() returns trigger language plpgsql as $$
      declare parent record;
      begin
        select p.id, p.ancestors, p.access_level, p.tree_path into parent from collection p where p.id = new.parent_id;
        if found then
          new.ancestors := parent.ancestors || parent.id::text;
          new.access_level := content_access_level(new.default_level, parent.access_level);
          new.tree_path := parent.tree_path || array[new.position::text, new.id::text];
        else
          new.ancestors := '{}';
          new.access_level := content_access_level(new.default_level, 'member');
          new.tree_path := array[new.position::text, new.id::text];
        end if;
        return new;
      end $$`);
    this.addSql(`create function "space_derive"() returns trigger language plpgsql as $$
      declare parent record;
      begin
        select p.id, p.ancestors, p.access_level into parent from collection p where p.id = new.parent_id;
        if found then
          new.ancestors := parent.ancestors || parent.id::text;
          new.access_level := content_access_level(new.default_level, parent.access_level);
        else
          new.ancestors := '{}';
          new.access_level := content_access_level(new.default_level, 'member');
        end if;
        return new;
      end $$`);
    // A collection whose derived values changed passes them on to its children, who pass them on in turn
    // (spaces only what they keep: a reordered collection leaves its spaces alone).
    this.addSql(`create function "collection_propagate"() returns trigger language plpgsql as $$
      begin
        update collection set parent_id = parent_id where parent_id = new.id;
        if old.ancestors is distinct from new.ancestors or old.access_level is distinct from new.access_level then
          update space set parent_id = parent_id where parent_id = new.id;
        end if;
        return null;
      end $$`);

    this.addSql(
      `create trigger "collection_derive" before insert or update of "parent_id", "default_level", "position" on "collection" for each row execute function collection_derive()`,
    );
    this.addSql(`create trigger "collection_propagate" after update on "collection" for each row
      when (old.ancestors is distinct from new.ancestors or old.access_level is distinct from new.access_level or old.tree_path is distinct from new.tree_path)
      execute function collection_propagate()`);
    this.addSql(
      `create trigger "space_derive" before insert or update of "parent_id", "default_level" on "space" for each row execute function space_derive()`,
    );

    // Every existing row, top down: the roots, whose changes reach their descendants.
    this.addSql(`update "collection" set "parent_id" = "parent_id" where "parent_id" is null`);
    this.addSql(`update "space" set "parent_id" = "parent_id" where "parent_id" is null`);

    this.addSql(`create index "collection_ancestors_index" on "collection" using gin ("ancestors")`);
    this.addSql(`create index "space_ancestors_index" on "space" using gin ("ancestors")`);
    this.addSql(`create index "collection_organization_id_tree_path_index" on "collection" ("organization_id", "tree_path")`);
    // A collection's children in position order (pages of several collections' children in one statement).
    this.addSql(`create index "collection_parent_id_position_id_index" on "collection" ("parent_id", "position", "id")`);
    this.addSql(`create index "space_parent_id_position_id_index" on "space" ("parent_id", "position", "id")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "space_parent_id_position_id_index"`);
    this.addSql(`drop index "collection_parent_id_position_id_index"`);
    this.addSql(`drop index "collection_organization_id_tree_path_index"`);
    this.addSql(`drop index "space_ancestors_index"`);
    this.addSql(`drop index "collection_ancestors_index"`);
    this.addSql(`drop trigger "space_derive" on "space"`);
    this.addSql(`drop trigger "collection_propagate" on "collection"`);
    this.addSql(`drop trigger "collection_derive" on "collection"`);
    this.addSql(`drop function "collection_propagate"()`);
    this.addSql(`drop function "space_derive"()`);
    this.addSql(`drop function "collection_derive"()`);
    this.addSql(`drop function "content_access_level"(text, text)`);
    this.addSql(`alter table "space" drop column "ancestors", drop column "access_level"`);
    this.addSql(`alter table "collection" drop column "ancestors", drop column "access_level", drop column "tree_path"`);
  }
}
