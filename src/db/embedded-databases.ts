import type { PGlite } from '@electric-sql/pglite';
import type { MikroORM } from '@mikro-orm/postgresql';

/** Embedded databases by ORM and by the Kysely dialect their EntityManagers are configured with. */
export const embeddedDatabases = new WeakMap<object, PGlite>();

/** The embedded database of an ORM (for bulk loading with COPY), or undefined on a server. */
export const embeddedDatabase = (orm: MikroORM): PGlite | undefined => embeddedDatabases.get(orm);

/** The embedded database an EntityManager reaches, or undefined on a server. */
export const embeddedDatabaseOf = (em: { config: { get(key: 'driverOptions'): unknown } }): PGlite | undefined => {
  const dialect = em.config.get('driverOptions');
  return typeof dialect === 'object' && dialect !== null ? embeddedDatabases.get(dialect) : undefined;
};
