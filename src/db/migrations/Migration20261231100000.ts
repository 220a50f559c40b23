import { Migration } from '@mikro-orm/migrations';

/**
 * API tokens gain a scope: the one organization they are limited to, the highest role they act with,
 * an expiry, and when they were last used (kept to the minute). Existing tokens get none of these:
 * they stay unlimited, as they were. The organization is a plain id (the token outlives nothing: a
 * token limited to a deleted organization sees nothing).
 */
export class Migration20261231100000 extends Migration {
  override name = 'Migration20261231100000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_token" add column "organization_id" varchar(255) null, add column "role_cap" varchar(255) null,
      add column "expires_at" timestamptz null, add column "last_used_at" timestamptz null`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_token" drop column "organization_id", drop column "role_cap", drop column "expires_at", drop column "last_used_at"`);
  }
}
