import { Migration } from '@mikro-orm/migrations';

export class Migration20261122043713 extends Migration {
  override name = 'Migration20261122043713';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "saml_provider" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "label" varchar(30) not null, "entity_id" varchar(1024) null, "sso_url" varchar(2048) null, "certificate" text null, "default_team_id" varchar(255) null, "default_role" varchar(255) null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "saml_provider_organization_id_created_at_id_index" on "saml_provider" ("organization_id", "created_at", "id")`);
    this.addSql(
      `create table "saml_request" ("id" varchar(255) not null, "provider_id" varchar(255) not null, "return_to" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "saml_request_expires_at_index" on "saml_request" ("expires_at")`);
    this.addSql(
      `create table "saml_consumed_assertion" ("provider_id" varchar(255) not null, "assertion_id" varchar(512) not null, "expires_at" timestamptz not null, primary key ("provider_id", "assertion_id"))`,
    );
    this.addSql(`create index "saml_consumed_assertion_expires_at_index" on "saml_consumed_assertion" ("expires_at")`);
    this.addSql(
      `alter table "saml_provider" add constraint "saml_provider_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "saml_provider" add constraint "saml_provider_default_team_id_foreign" foreign key ("default_team_id") references "team" ("id") on delete set null`,
    );
    this.addSql(
      `alter table "saml_request" add constraint "saml_request_provider_id_foreign" foreign key ("provider_id") references "saml_provider" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "saml_consumed_assertion" add constraint "saml_consumed_assertion_provider_id_foreign" foreign key ("provider_id") references "saml_provider" ("id") on delete cascade`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "saml_request" drop constraint "saml_request_provider_id_foreign"`);
    this.addSql(`alter table "saml_consumed_assertion" drop constraint "saml_consumed_assertion_provider_id_foreign"`);
    this.addSql(`drop table if exists "saml_provider" cascade`);
    this.addSql(`drop table if exists "saml_request" cascade`);
    this.addSql(`drop table if exists "saml_consumed_assertion" cascade`);
  }
}
