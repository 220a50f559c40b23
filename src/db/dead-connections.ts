import type pg from 'pg';

/**
 * Makes a connection of the pool that dies while checked out go back to the pool, which drops it, even
 * when its holder never releases it. Kysely (under MikroORM) releases a transaction's connection only
 * after a successful BEGIN, COMMIT or ROLLBACK (kysely-org/kysely#1990): a connection lost inside a
 * transaction would stay checked out for good, and after `max` outages the pool would have no
 * connection left to make. Releasing twice is harmless here (pg-pool throws on it), so the holder's
 * own release, if it comes, changes nothing.
 */
export function releaseDeadConnections(pool: pg.Pool) {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  pool.connect = ((...args: unknown[]) => {
    // The callback form is not used by the ORM nor by this code base: left as it is.
    if (args.length) return (connect as (...a: unknown[]) => unknown)(...args);
    return connect().then(guard);
  }) as typeof pool.connect;
}

function guard(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  let released = false;
  const releaseOnce = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('end', releaseDead);
    release(error);
  };
  // pg ends a client whose connection was lost (after failing what was in flight on it).
  const releaseDead = () => releaseOnce(new Error('connection ended while checked out'));
  client.once('end', releaseDead);
  client.release = releaseOnce;
  return client;
}
