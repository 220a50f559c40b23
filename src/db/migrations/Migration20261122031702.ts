import { Migration } from '@mikro-orm/migrations';

export class Migration20261122031702 extends Migration {
  override name = 'Migration20261122031702';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "site" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "type" varchar(255) not null, "title" varchar(255) not null, "hostname" varchar(512) null, "basename" varchar(255) null, "proxy_origin" varchar(512) null, "visibility" varchar(255) not null, "published" boolean not null, "adaptive_content_enabled" boolean not null, "agents_context" varchar(255) not null, "default_section" varchar(255) null, "default_site_space" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "site_organization_id_created_at_id_index" on "site" ("organization_id", "created_at", "id")`);
    this.addSql(
      `create table "share_link" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "site_id" varchar(255) not null, "name" varchar(255) not null, "key" varchar(255) not null, "active" boolean not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`alter table "share_link" add constraint "share_link_key_unique" unique ("key")`);
    this.addSql(`create index "share_link_site_id_created_at_index" on "share_link" ("site_id", "created_at")`);
    this.addSql(
      `create table "site_adaptive_schema" ("site_id" varchar(255) not null, "organization_id" varchar(255) not null, "json_schema" jsonb not null, "updated_at" timestamptz not null, primary key ("site_id"))`,
    );
    this.addSql(
      `create table "site_section_group" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "site_id" varchar(255) not null, "title" varchar(255) not null, "icon" varchar(255) null, "position" varchar(255) collate "C" not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "site_section_group_site_id_position_index" on "site_section_group" ("site_id", "position")`);
    this.addSql(
      `create table "site_section" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "site_id" varchar(255) not null, "section_group_id" varchar(255) null, "title" varchar(255) not null, "description" text null, "path" varchar(255) not null, "condition" text null, "icon" varchar(255) null, "default_site_space" varchar(255) null, "position" varchar(255) collate "C" not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "site_section_site_id_position_index" on "site_section" ("site_id", "position")`);
    this.addSql(`alter table "site_section" add constraint "site_section_site_id_path_unique" unique ("site_id", "path")`);
    this.addSql(
      `create table "site_space" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "site_id" varchar(255) not null, "section_id" varchar(255) null, "space_id" varchar(255) not null, "path" varchar(255) not null, "condition" text null, "position" varchar(255) collate "C" not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "site_space_site_id_section_id_position_index" on "site_space" ("site_id", "section_id", "position")`);
    this.addSql(`create index "site_space_space_id_index" on "site_space" ("space_id")`);
    this.addSql(
      `alter table "site" add constraint "site_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "share_link" add constraint "share_link_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "share_link" add constraint "share_link_site_id_foreign" foreign key ("site_id") references "site" ("id") on delete cascade`);
    this.addSql(
      `alter table "site_adaptive_schema" add constraint "site_adaptive_schema_site_id_foreign" foreign key ("site_id") references "site" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "site_adaptive_schema" add constraint "site_adaptive_schema_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "site_section_group" add constraint "site_section_group_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "site_section_group" add constraint "site_section_group_site_id_foreign" foreign key ("site_id") references "site" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "site_section" add constraint "site_section_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "site_section" add constraint "site_section_site_id_foreign" foreign key ("site_id") references "site" ("id") on delete cascade`);
    this.addSql(
      `alter table "site_section" add constraint "site_section_section_group_id_foreign" foreign key ("section_group_id") references "site_section_group" ("id") on delete set null`,
    );
    this.addSql(
      `alter table "site_space" add constraint "site_space_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "site_space" add constraint "site_space_site_id_foreign" foreign key ("site_id") references "site" ("id") on delete cascade`);
    this.addSql(
      `alter table "site_space" add constraint "site_space_section_id_foreign" foreign key ("section_id") references "site_section" ("id") on delete cascade`,
    );
    this.addSql(`alter table "site_space" add constraint "site_space_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "share_link" drop constraint "share_link_site_id_foreign"`);
    this.addSql(`alter table "site_adaptive_schema" drop constraint "site_adaptive_schema_site_id_foreign"`);
    this.addSql(`alter table "site_section_group" drop constraint "site_section_group_site_id_foreign"`);
    this.addSql(`alter table "site_section" drop constraint "site_section_site_id_foreign"`);
    this.addSql(`alter table "site_space" drop constraint "site_space_site_id_foreign"`);
    this.addSql(`alter table "site_section" drop constraint "site_section_section_group_id_foreign"`);
    this.addSql(`alter table "site_space" drop constraint "site_space_section_id_foreign"`);
    this.addSql(`drop table if exists "site" cascade`);
    this.addSql(`drop table if exists "share_link" cascade`);
    this.addSql(`drop table if exists "site_adaptive_schema" cascade`);
    this.addSql(`drop table if exists "site_section_group" cascade`);
    this.addSql(`drop table if exists "site_section" cascade`);
    this.addSql(`drop table if exists "site_space" cascade`);
  }
}
