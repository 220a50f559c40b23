import { Migration } from '@mikro-orm/migrations';

export class Migration20261122055213 extends Migration {
  override name = 'Migration20261122055213';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "search_section" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "page" varchar(255) not null, "position" int not null, "anchor" varchar(255) not null, "page_title" varchar(255) not null, "page_path" varchar(255) not null, "title" varchar(255) not null, "body" text not null, "document" tsvector generated always as (setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("body", '')), 'B')) stored null, primary key ("id"))`,
    );
    this.addSql(`create index "search_section_space_id_index" on "search_section" ("space_id")`);
    this.addSql(`create index "search_section_document_index" on "search_section" using gin("document")`);
    this.addSql(
      `create table "search_indexed_space" ("space_id" varchar(255) not null, "organization_id" varchar(255) not null, "revision" varchar(255) not null, primary key ("space_id"))`,
    );
    this.addSql(`create index "search_indexed_space_organization_id_index" on "search_indexed_space" ("organization_id")`);
    this.addSql(
      `alter table "search_section" add constraint "search_section_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "search_section" add constraint "search_section_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "search_indexed_space" add constraint "search_indexed_space_space_id_foreign" foreign key ("space_id") references "space" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "search_indexed_space" add constraint "search_indexed_space_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "search_section" cascade`);
    this.addSql(`drop table if exists "search_indexed_space" cascade`);
  }
}
