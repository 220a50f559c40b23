import { Migration } from '@mikro-orm/migrations';

/**
 * Jobs exactly once in effect: each claim writes a token that the run's lease renewals, completion and
 * failure must match (src/jobs/lease.ts). Jobs claimed under the former five-minute lease keep their
 * lease and, with no token, are taken over once it runs out.
 */
export class Migration20261215100000 extends Migration {
  override name = 'Migration20261215100000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "job" add column "claim" varchar(36) null`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "job" drop column "claim"`);
  }
}
