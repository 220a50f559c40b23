import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency records learn when their request's first write committed (`committed_at`, written in that
 * write's own transaction), and a request may let go of its record without an answer (`claim` null): a
 * request whose write committed is never run again, even when its answer was lost.
 */
export class Migration20270101100000 extends Migration {
  override name = 'Migration20270101100000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "idempotency_record" add column "committed_at" timestamptz null, alter column "claim" drop not null`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "idempotency_record" where "claim" is null`);
    this.addSql(`alter table "idempotency_record" drop column "committed_at", alter column "claim" set not null`);
  }
}
