import { Migration } from '@mikro-orm/migrations';

export class Migration20261122043811 extends Migration {
  override name = 'Migration20261122043811';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "invite_link" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "role" varchar(255) null, "space_id" varchar(255) null, "collection_id" varchar(255) null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "invite_link_organization_id_created_at_id_index" on "invite_link" ("organization_id", "created_at", "id")`);
    this.addSql(
      `alter table "invite_link" add constraint "invite_link_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "invite_link" add constraint "invite_link_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`);
    this.addSql(
      `alter table "invite_link" add constraint "invite_link_collection_id_foreign" foreign key ("collection_id") references "collection" ("id") on delete cascade`,
    );
    this.addSql(`alter table "invite_link" add constraint "invite_link_at_most_one_target" check (num_nonnulls(space_id, collection_id) <= 1)`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "invite_link" cascade`);
  }
}
