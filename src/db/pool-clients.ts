import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { searchPathStatement } from './search-path.js';

/** Clients whose search path this module has set (the ORM sets it only on clients it hands out itself). */
const prepared = new WeakSet<pg.PoolClient>();

/**
 * A client of the ORM's pool on a PostgreSQL server, for what the ORM's query layer cannot send (COPY,
 * named prepared statements), with the configured schema on its search path. Release it when done.
 */
export async function poolClientOf(em: EntityManager): Promise<pg.PoolClient> {
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  const schema = em.config.get('schema');
  if (schema && !prepared.has(client)) {
    try {
      await client.query(searchPathStatement(schema));
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    prepared.add(client);
  }
  return client;
}
