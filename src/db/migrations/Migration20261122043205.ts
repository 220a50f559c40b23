import { Migration } from '@mikro-orm/migrations';

export class Migration20261122043205 extends Migration {
  override name = 'Migration20261122043205';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "team" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "title" varchar(64) not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "team_organization_id_created_at_id_index" on "team" ("organization_id", "created_at", "id")`);
    this.addSql(
      `create table "team_member" ("team_id" varchar(255) not null, "user_id" varchar(255) not null, "organization_id" varchar(255) not null, "role" varchar(255) not null, "added_at" timestamptz not null, primary key ("team_id", "user_id"))`,
    );
    this.addSql(`create index "team_member_organization_id_user_id_index" on "team_member" ("organization_id", "user_id")`);
    this.addSql(
      `create table "content_grant" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) null, "collection_id" varchar(255) null, "team_id" varchar(255) null, "user_id" varchar(255) null, "role" varchar(255) not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "content_grant_organization_id_user_id_index" on "content_grant" ("organization_id", "user_id")`);
    this.addSql(`create index "content_grant_organization_id_team_id_index" on "content_grant" ("organization_id", "team_id")`);
    this.addSql(`alter table "content_grant" add constraint "content_grant_space_team_unique" unique ("space_id", "team_id")`);
    this.addSql(`alter table "content_grant" add constraint "content_grant_space_user_unique" unique ("space_id", "user_id")`);
    this.addSql(`alter table "content_grant" add constraint "content_grant_collection_team_unique" unique ("collection_id", "team_id")`);
    this.addSql(`alter table "content_grant" add constraint "content_grant_collection_user_unique" unique ("collection_id", "user_id")`);
    this.addSql(
      `alter table "team" add constraint "team_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "team_member" add constraint "team_member_team_id_foreign" foreign key ("team_id") references "team" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "team_member" add constraint "team_member_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "team_member" add constraint "team_member_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "content_grant" add constraint "content_grant_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "content_grant" add constraint "content_grant_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "content_grant" add constraint "content_grant_collection_id_foreign" foreign key ("collection_id") references "collection" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "content_grant" add constraint "content_grant_team_id_foreign" foreign key ("team_id") references "team" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "content_grant" add constraint "content_grant_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade`,
    );
    this.addSql(`alter table "content_grant" add constraint "content_grant_one_target" check (num_nonnulls(space_id, collection_id) = 1)`);
    this.addSql(`alter table "content_grant" add constraint "content_grant_one_grantee" check (num_nonnulls(team_id, user_id) = 1)`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "team_member" drop constraint "team_member_team_id_foreign"`);
    this.addSql(`alter table "content_grant" drop constraint "content_grant_team_id_foreign"`);
    this.addSql(`drop table if exists "team" cascade`);
    this.addSql(`drop table if exists "team_member" cascade`);
    this.addSql(`drop table if exists "content_grant" cascade`);
  }
}
