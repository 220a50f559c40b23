import { Migration } from '@mikro-orm/migrations';

/**
 * Where each user's last write ended in the primary's write-ahead log (its `pg_current_wal_lsn()` right
 * after the commit), so that every instance sends that user's reads to a replica only once the replica
 * has replayed past it (src/db/read-positions.ts, docs/scaling.md). Reached with SQL only: no entity.
 */
export class Migration20261231110000 extends Migration {
  override name = 'Migration20261231110000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "read_position" ("user_id" varchar(255) not null primary key references "app_user" ("id") on delete cascade, "lsn" pg_lsn not null)`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "read_position"`);
  }
}
