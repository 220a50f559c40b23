import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys (the IETF `Idempotency-Key` header): one row per user and key, the lock while the
 * first request runs and then its answer, kept 24 hours; the index on the expiry serves the purge.
 */
export class Migration20261231090000 extends Migration {
  override name = 'Migration20261231090000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "idempotency_record" ("user_id" varchar(255) not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "claim" varchar(36) not null, "started_at" timestamptz not null, "expires_at" timestamptz not null, "status" int null, "headers" jsonb null, "body" text null, primary key ("user_id", "key"))`,
    );
    this.addSql(`create index "idempotency_record_expires_at_index" on "idempotency_record" ("expires_at")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_record"`);
  }
}
