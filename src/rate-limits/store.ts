import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import sql, { raw } from 'sql-template-tag';
import type { RateLimitConfig } from '../kernel/config.js';
import type { Orm } from '../kernel/database.js';
import { embeddedDatabase } from '../db/embedded-databases.js';
import { quote } from '../db/statements.js';
import type { RateClass } from './cost.js';

/** The counters' table (Migration20261217090000): unlogged, as counters need no crash safety. */
export const RATE_LIMIT_TABLE = 'rate_limit';
/** How often an instance deletes the rows of windows that ended over an hour ago. */
const PURGE_INTERVAL_MS = 5 * 60_000;
const PURGE_AGE_MS = 60 * 60_000;

export type Limiters = { byClass: Partial<Record<RateClass, RateLimiterAbstract>>; stop(): void };

/**
 * A limiter per class whose limit is not 0. On a PostgreSQL server the counters are rows of one table,
 * shared by every instance, written through the ORM's pool (one upsert per request); a key over its
 * budget is then refused from memory until its window ends, without a statement. Should the database
 * fail, a limiter in memory answers instead (per instance) rather than failing the request. The
 * embedded database serves one process: its counters live in memory.
 */
export async function createLimiters(orm: Orm, config: RateLimitConfig): Promise<Limiters> {
  const classes = (['reads', 'writes', 'insights'] as const).filter((rateClass) => config[rateClass] > 0);
  const memory = (rateClass: RateClass) => new RateLimiterMemory({ keyPrefix: rateClass, points: config[rateClass], duration: config.windowS });
  if (embeddedDatabase(orm)) return { byClass: Object.fromEntries(classes.map((c) => [c, memory(c)])), stop: () => {} };

  const pool = await orm.em.getConnection().getNativeClient();
  const schemaName = orm.config.get('schema');
  const byClass = Object.fromEntries(
    classes.map((rateClass) => [
      rateClass,
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        schemaName,
        tableCreated: true,
        // One purge for the shared table, below, that stops with the server.
        clearExpiredByTimeout: false,
        keyPrefix: rateClass,
        points: config[rateClass],
        duration: config.windowS,
        inMemoryBlockOnConsumed: config[rateClass],
        insuranceLimiter: memory(rateClass),
      }),
    ]),
  );
  const table = raw(schemaName ? `${quote(schemaName)}.${quote(RATE_LIMIT_TABLE)}` : quote(RATE_LIMIT_TABLE));
  const purge = setInterval(() => {
    const statement = sql`delete from ${table} where expire < ${Date.now() - PURGE_AGE_MS}`;
    pool.query(statement.text, statement.values).catch(() => {
      // Not critical: the next run deletes them.
    });
  }, PURGE_INTERVAL_MS);
  purge.unref();
  return { byClass, stop: () => clearInterval(purge) };
}
