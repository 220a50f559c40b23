import type pg from 'pg';

/**
 * Settings of every session the server opens on a PostgreSQL server, sent as each connection of the
 * pool is made (whoever asked for it: the ORM, or the named statements of the read path).
 *
 * JIT compilation off: the server's statements are short reads and writes, and JIT compiles a
 * statement on each execution once its estimated cost passes `jit_above_cost`, whatever it really
 * costs. The site tree's structure statement, whose generic plan is estimated above that cost, took
 * 100-180 ms of database CPU an execution compiled against 7-8 ms without (bench:tree, 2026-11-29).
 * Behind PgBouncer in transaction mode, set it on the role instead (`alter role … set jit = off`).
 */
export const SESSION_SETTINGS = 'set jit = off';

export function applySessionSettings(pool: pg.Pool) {
  pool.on('connect', (client) => {
    // Queued before any statement the client is handed out for; should it fail, the session keeps the server's default.
    void client.query(SESSION_SETTINGS).catch(() => undefined);
  });
}
