import { Migration } from '@mikro-orm/migrations';

export class Migration20261122055324 extends Migration {
  override name = 'Migration20261122055324';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "comment" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "change_request_id" varchar(255) null, "posted_by" varchar(255) not null, "posted_at" timestamptz not null, "edited_at" timestamptz null, "markdown" text not null, "status" varchar(255) not null, "resolved_at" timestamptz null, "resolved_by" varchar(255) null, "revision" varchar(255) not null, "page" varchar(255) null, "page_version" varchar(255) null, "page_path" varchar(255) null, "node" varchar(255) null, "node_preview" text null, primary key ("id"))`,
    );
    this.addSql(`create index "comment_space_id_change_request_id_index" on "comment" ("space_id", "change_request_id")`);
    this.addSql(
      `create table "comment_reply" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "comment_id" varchar(255) not null, "posted_by" varchar(255) not null, "posted_at" timestamptz not null, "edited_at" timestamptz null, "markdown" text not null, primary key ("id"))`,
    );
    this.addSql(`create index "comment_reply_space_id_index" on "comment_reply" ("space_id")`);
    this.addSql(`create index "comment_reply_comment_id_index" on "comment_reply" ("comment_id")`);
    this.addSql(
      `create table "comment_reaction" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "comment_id" varchar(255) not null, "reply_id" varchar(255) null, "target" varchar(255) not null, "user" varchar(255) not null, "emoji" varchar(255) not null, "reacted_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "comment_reaction_space_id_index" on "comment_reaction" ("space_id")`);
    this.addSql(`create index "comment_reaction_comment_id_index" on "comment_reaction" ("comment_id")`);
    this.addSql(`alter table "comment_reaction" add constraint "comment_reaction_target_user_emoji_unique" unique ("target", "user", "emoji")`);
    this.addSql(
      `alter table "comment" add constraint "comment_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(`alter table "comment" add constraint "comment_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`);
    this.addSql(
      `alter table "comment" add constraint "comment_change_request_id_foreign" foreign key ("change_request_id") references "change_request" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "comment_reply" add constraint "comment_reply_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "comment_reply" add constraint "comment_reply_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "comment_reply" add constraint "comment_reply_comment_id_foreign" foreign key ("comment_id") references "comment" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "comment_reaction" add constraint "comment_reaction_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "comment_reaction" add constraint "comment_reaction_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "comment_reaction" add constraint "comment_reaction_comment_id_foreign" foreign key ("comment_id") references "comment" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "comment_reaction" add constraint "comment_reaction_reply_id_foreign" foreign key ("reply_id") references "comment_reply" ("id") on delete cascade`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "comment_reply" drop constraint "comment_reply_comment_id_foreign"`);
    this.addSql(`alter table "comment_reaction" drop constraint "comment_reaction_comment_id_foreign"`);
    this.addSql(`alter table "comment_reaction" drop constraint "comment_reaction_reply_id_foreign"`);
    this.addSql(`drop table if exists "comment" cascade`);
    this.addSql(`drop table if exists "comment_reply" cascade`);
    this.addSql(`drop table if exists "comment_reaction" cascade`);
  }
}
