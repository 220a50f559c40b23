import { Migration } from '@mikro-orm/migrations';

export class Migration20261122022134 extends Migration {
  override name = 'Migration20261122022134';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "job" ("id" varchar(255) not null, "kind" varchar(255) not null, "payload" jsonb not null, "run_at" timestamptz not null, "attempts" int not null, "locked_until" timestamptz null, "last_error" text null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "job_run_at_index" on "job" ("run_at")`);
    this.addSql(
      `create table "organization" ("id" varchar(255) not null, "title" varchar(255) not null, "created_at" timestamptz not null, "email_domains" text[] not null, "hostname" varchar(255) null, "type" varchar(255) not null, "use_case" varchar(255) null, "community_type" varchar(255) null, "default_role" varchar(255) null, "default_content" jsonb null, "logo" text null, "sso" boolean not null, "ai" boolean not null, "invite_links" boolean not null, "plan" varchar(255) not null, primary key ("id"))`,
    );
    this.addSql(`alter table "organization" add constraint "organization_hostname_unique" unique ("hostname")`);
    this.addSql(
      `create table "collection" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "parent_id" varchar(255) null, "title" varchar(255) not null, "description" varchar(255) null, "default_level" varchar(255) null, "position" varchar(255) collate "C" not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "collection_organization_id_parent_id_position_index" on "collection" ("organization_id", "parent_id", "position")`);
    this.addSql(`create index "collection_organization_id_created_at_id_index" on "collection" ("organization_id", "created_at", "id")`);
    this.addSql(`create table "server_secret" ("name" varchar(255) not null, "value" text not null, "created_at" timestamptz not null, primary key ("name"))`);
    this.addSql(
      `create table "space" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "parent_id" varchar(255) null, "title" varchar(255) not null, "emoji" varchar(255) null, "visibility" varchar(255) not null, "edit_mode" varchar(255) not null, "default_level" varchar(255) null, "position" varchar(255) collate "C" not null, "revision" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"))`,
    );
    this.addSql(`create index "space_organization_id_parent_id_position_index" on "space" ("organization_id", "parent_id", "position")`);
    this.addSql(`create index "space_organization_id_created_at_id_index" on "space" ("organization_id", "created_at", "id")`);
    this.addSql(`create index "space_deleted_at_index" on "space" ("deleted_at")`);
    this.addSql(
      `create table "revision" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "parents" jsonb not null, "type" varchar(255) not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "revision_space_id_index" on "revision" ("space_id")`);
    this.addSql(
      `create table "app_user" ("id" varchar(255) not null, "email" varchar(255) not null, "display_name" varchar(255) not null, "photo_url" text null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email")`);
    this.addSql(
      `create table "member" ("organization_id" varchar(255) not null, "user_id" varchar(255) not null, "role" varchar(255) null, "joined_at" timestamptz not null, "last_seen_at" timestamptz null, "disabled" boolean not null, "sso" boolean not null, primary key ("organization_id", "user_id"))`,
    );
    this.addSql(`create index "member_user_id_index" on "member" ("user_id")`);
    this.addSql(
      `create table "api_token" ("id" varchar(255) not null, "user_id" varchar(255) not null, "secret_hash" varchar(255) not null, "label" varchar(255) not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("id"))`,
    );
    this.addSql(`create index "api_token_user_id_index" on "api_token" ("user_id")`);
    this.addSql(`alter table "api_token" add constraint "api_token_secret_hash_unique" unique ("secret_hash")`);
    this.addSql(
      `alter table "collection" add constraint "collection_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "collection" add constraint "collection_parent_id_foreign" foreign key ("parent_id") references "collection" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "space" add constraint "space_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "space" add constraint "space_parent_id_foreign" foreign key ("parent_id") references "collection" ("id") on delete set null`);
    this.addSql(
      `alter table "revision" add constraint "revision_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "revision" add constraint "revision_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`);
    this.addSql(
      `alter table "member" add constraint "member_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "member" add constraint "member_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade`,
    );
    this.addSql(`alter table "api_token" add constraint "api_token_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "collection" drop constraint "collection_organization_id_foreign"`);
    this.addSql(`alter table "space" drop constraint "space_organization_id_foreign"`);
    this.addSql(`alter table "revision" drop constraint "revision_organization_id_foreign"`);
    this.addSql(`alter table "member" drop constraint "member_organization_id_foreign"`);
    this.addSql(`alter table "collection" drop constraint "collection_parent_id_foreign"`);
    this.addSql(`alter table "space" drop constraint "space_parent_id_foreign"`);
    this.addSql(`alter table "revision" drop constraint "revision_space_id_foreign"`);
    this.addSql(`alter table "member" drop constraint "member_user_id_foreign"`);
    this.addSql(`alter table "api_token" drop constraint "api_token_user_id_foreign"`);
    this.addSql(`drop table if exists "job" cascade`);
    this.addSql(`drop table if exists "organization" cascade`);
    this.addSql(`drop table if exists "collection" cascade`);
    this.addSql(`drop table if exists "server_secret" cascade`);
    this.addSql(`drop table if exists "space" cascade`);
    this.addSql(`drop table if exists "revision" cascade`);
    this.addSql(`drop table if exists "app_user" cascade`);
    this.addSql(`drop table if exists "member" cascade`);
    this.addSql(`drop table if exists "api_token" cascade`);
  }
}
