import { Migration } from '@mikro-orm/migrations';

/**
 * Instance administrators: users who manage the server's users, tokens and organizations through
 * GraphQL (the admin CLI uses them while a server holds the embedded data directory). The first user,
 * whom the first start made the owner, becomes one.
 */
export class Migration20261124090000 extends Migration {
  override name = 'Migration20261124090000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add column "instance_admin" boolean not null default false`);
    this.addSql(`update "app_user" set "instance_admin" = true where "id" = (select "id" from "app_user" order by "created_at", "id" limit 1)`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column "instance_admin"`);
  }
}
