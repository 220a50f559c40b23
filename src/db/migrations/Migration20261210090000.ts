import { Migration } from '@mikro-orm/migrations';

/**
 * What the instances on one database must agree on (src/instances/agreement.ts). PUBLIC_URL is recorded
 * by the next start that sets it; the fingerprint of the owner's token made by the first start (the
 * token provisioning labels "owner (first start)") is taken from the tokens already stored.
 */
export class Migration20261210090000 extends Migration {
  override name = 'Migration20261210090000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "instance_setting" ("name" varchar(255) not null, "value" text not null, "recorded_at" timestamptz not null, primary key ("name"))`,
    );
    this.addSql(`insert into "instance_setting" ("name", "value", "recorded_at")
      select 'owner_token_sha256', t."secret_hash", t."created_at" from "api_token" t
      where t."user_id" = (select "id" from "app_user" order by "created_at", "id" limit 1) and t."label" = 'owner (first start)'
      order by t."created_at", t."id" limit 1`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "instance_setting" cascade`);
  }
}
