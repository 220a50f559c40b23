import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { PGliteDialect } from 'kysely';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

export type Database = { url: string } | { dataDir: string };

export type Orm = MikroORM;

/** Observers of every SQL statement sent; tests use one to count statements per request. */
export const sqlObservers = new Set<(sql: string) => void>();

function baseOptions(): Options {
  return {
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      silent: true,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
    },
    // One row of each SELECT maps to one entity; nothing is loaded behind the caller's back.
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
    onQuery: (sql) => {
      for (const observe of sqlObservers) observe(sql);
      return sql;
    },
    debug: false,
  };
}

/**
 * Opens the ORM on a real PostgreSQL server (`url`) or on embedded PostgreSQL in `dataDir`.
 * PGlite is a single connection inside this process: transactions queue behind each other.
 */
export async function openOrm(db: Database): Promise<Orm> {
  if ('url' in db) {
    return MikroORM.init({ ...baseOptions(), clientUrl: db.url, pool: { min: 0, max: 10 } });
  }
  mkdirSync(db.dataDir, { recursive: true });
  const pglite = await PGlite.create(db.dataDir);
  return MikroORM.init({
    ...baseOptions(),
    dbName: 'postgres',
    driverOptions: new PGliteDialect({ pglite }),
  });
}

/** Applies every committed migration that has not run yet. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
