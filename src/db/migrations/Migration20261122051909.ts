import { Migration } from '@mikro-orm/migrations';

export class Migration20261122051909 extends Migration {
  override name = 'Migration20261122051909';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "page_version" ("key" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "page" varchar(255) not null, "title" varchar(255) not null, "emoji" varchar(255) null, "icon" varchar(255) null, "description" text null, "markdown" text not null, "layout" jsonb null, "cover" jsonb null, "hidden" boolean not null, "no_index" boolean not null, "no_robots_index" boolean not null, "oid" varchar(255) not null, "created_at" timestamptz not null, "created_by" varchar(255) null, "updated_at" timestamptz not null, "updated_by" varchar(255) null, primary key ("key"))`,
    );
    this.addSql(`create index "page_version_space_id_index" on "page_version" ("space_id")`);
    this.addSql(
      `create table "file_blob" ("key" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "bytes" bytea not null, primary key ("key"))`,
    );
    this.addSql(`create index "file_blob_space_id_index" on "file_blob" ("space_id")`);
    this.addSql(
      `create table "content_file" ("key" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "file" varchar(255) not null, "name" varchar(255) not null, "content_type" varchar(255) not null, "size" int not null, "width" int null, "height" int null, "oid" varchar(255) not null, "created_at" timestamptz not null, "created_by" varchar(255) null, primary key ("key"))`,
    );
    this.addSql(`create index "content_file_space_id_index" on "content_file" ("space_id")`);
    this.addSql(
      `create table "change_request" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "number" int not null, "status" varchar(255) not null, "subject" varchar(255) not null, "created_by" varchar(255) not null, "contributors" jsonb not null, "revision" varchar(255) not null, "revision_initial" varchar(255) not null, "revision_merged_ancestor" varchar(255) null, "revision_merged" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "change_request_space_id_status_index" on "change_request" ("space_id", "status")`);
    this.addSql(`alter table "change_request" add constraint "change_request_space_id_number_unique" unique ("space_id", "number")`);
    this.addSql(
      `alter table "revision" add "change_request" varchar(255) null, add "created_by" varchar(255) null, add "pages" jsonb not null default '[]', add "files" jsonb not null default '[]'`,
    );
    this.addSql(
      `alter table "page_version" add constraint "page_version_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "page_version" add constraint "page_version_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "file_blob" add constraint "file_blob_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "file_blob" add constraint "file_blob_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`);
    this.addSql(
      `alter table "content_file" add constraint "content_file_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "content_file" add constraint "content_file_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "change_request" add constraint "change_request_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "change_request" add constraint "change_request_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "page_version" cascade`);
    this.addSql(`drop table if exists "file_blob" cascade`);
    this.addSql(`drop table if exists "content_file" cascade`);
    this.addSql(`drop table if exists "change_request" cascade`);
    this.addSql(`alter table "revision" drop column "change_request", drop column "created_by", drop column "pages", drop column "files"`);
  }
}
