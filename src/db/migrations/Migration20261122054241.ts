import { Migration } from '@mikro-orm/migrations';

export class Migration20261122054241 extends Migration {
  override name = 'Migration20261122054241';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "openapi_spec" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "slug" varchar(100) not null, "source_url" varchar(2048) null, "source_text" text null, "source_revision" int not null, "processing_state" varchar(255) not null, "last_version" varchar(255) null, "last_processed_at" timestamptz null, "last_process_error_code" varchar(255) null, "last_title" text null, "last_format" varchar(255) null, "operations" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "openapi_spec_organization_id_created_at_id_index" on "openapi_spec" ("organization_id", "created_at", "id")`);
    this.addSql(`alter table "openapi_spec" add constraint "openapi_spec_organization_id_slug_unique" unique ("organization_id", "slug")`);
    this.addSql(
      `create table "integration" ("name" varchar(100) not null, "organization_id" varchar(255) not null, "version" int not null, "title" varchar(30) not null, "description" varchar(100) not null, "summary" text null, "icon" text null, "preview_images" jsonb not null, "visibility" varchar(255) not null, "target" varchar(255) not null, "scopes" jsonb not null, "categories" jsonb not null, "blocks" jsonb not null, "content_sources" jsonb not null, "external_links" jsonb not null, "configurations" jsonb not null, "script" text not null, "secrets" jsonb null, "content_security_policy" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("name"))`,
    );
    this.addSql(`create index "integration_organization_id_index" on "integration" ("organization_id")`);
    this.addSql(
      `create table "integration_installation" ("id" varchar(255) not null, "integration_name" varchar(100) not null, "organization_id" varchar(255) not null, "status" varchar(255) not null, "space_selection" varchar(255) not null, "site_selection" varchar(255) not null, "configuration" jsonb not null, "external_ids" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "integration_installation_organization_id_index" on "integration_installation" ("organization_id")`);
    this.addSql(
      `alter table "integration_installation" add constraint "integration_installation_integration_name_organiz_c80a1_unique" unique ("integration_name", "organization_id")`,
    );
    this.addSql(
      `create table "integration_site_installation" ("installation_id" varchar(255) not null, "site_id" varchar(255) not null, "organization_id" varchar(255) not null, primary key ("installation_id", "site_id"))`,
    );
    this.addSql(`create index "integration_site_installation_site_id_index" on "integration_site_installation" ("site_id")`);
    this.addSql(
      `create table "integration_space_installation" ("installation_id" varchar(255) not null, "space_id" varchar(255) not null, "organization_id" varchar(255) not null, primary key ("installation_id", "space_id"))`,
    );
    this.addSql(`create index "integration_space_installation_space_id_index" on "integration_space_installation" ("space_id")`);
    this.addSql(
      `create table "translation_settings" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "title" varchar(100) not null, "languages" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "translation_settings_organization_id_created_at_id_index" on "translation_settings" ("organization_id", "created_at", "id")`);
    this.addSql(
      `alter table "openapi_spec" add constraint "openapi_spec_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "integration" add constraint "integration_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "integration_installation" add constraint "integration_installation_integration_name_foreign" foreign key ("integration_name") references "integration" ("name") on delete cascade`,
    );
    this.addSql(
      `alter table "integration_installation" add constraint "integration_installation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "integration_site_installation" add constraint "integration_site_installation_installation_id_foreign" foreign key ("installation_id") references "integration_installation" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "integration_site_installation" add constraint "integration_site_installation_site_id_foreign" foreign key ("site_id") references "site" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "integration_site_installation" add constraint "integration_site_installation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "integration_space_installation" add constraint "integration_space_installation_installation_id_foreign" foreign key ("installation_id") references "integration_installation" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "integration_space_installation" add constraint "integration_space_installation_space_id_foreign" foreign key ("space_id") references "space" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "integration_space_installation" add constraint "integration_space_installation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "translation_settings" add constraint "translation_settings_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "integration_installation" drop constraint "integration_installation_integration_name_foreign"`);
    this.addSql(`alter table "integration_site_installation" drop constraint "integration_site_installation_installation_id_foreign"`);
    this.addSql(`alter table "integration_space_installation" drop constraint "integration_space_installation_installation_id_foreign"`);
    this.addSql(`drop table if exists "openapi_spec" cascade`);
    this.addSql(`drop table if exists "integration" cascade`);
    this.addSql(`drop table if exists "integration_installation" cascade`);
    this.addSql(`drop table if exists "integration_site_installation" cascade`);
    this.addSql(`drop table if exists "integration_space_installation" cascade`);
    this.addSql(`drop table if exists "translation_settings" cascade`);
  }
}
