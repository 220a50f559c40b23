import { Migration } from '@mikro-orm/migrations';

/**
 * The rate limiters' counters on a PostgreSQL server (src/rate-limits/store.ts): the table
 * rate-limiter-flexible's RateLimiterPostgres expects, one row per budget (class and token or address),
 * `expire` in milliseconds since the epoch. Unlogged: the counters need no crash safety (a crash empties
 * the table, every budget starts afresh), and each request's upsert writes no WAL. The embedded
 * database keeps its counters in memory and leaves it empty.
 */
export class Migration20261217090000 extends Migration {
  override name = 'Migration20261217090000';

  override up(): void | Promise<void> {
    this.addSql(`create unlogged table "rate_limit" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint)`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "rate_limit"`);
  }
}
