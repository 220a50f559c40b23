import { PGlite } from '@electric-sql/pglite';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import sql from 'sql-template-tag';
import { CompiledQuery, PGliteDialect, type DatabaseConnection } from 'kysely';
import type pg from 'pg';
import { ensureWritableDataDir } from './data-dir-access.js';
import { lockDataDir, type DataDirLock, type LockHolder } from './data-dir-lock.js';
import { releaseDeadConnections } from './dead-connections.js';
import type { Entities } from './entities.js';
import { migrationsList } from './migrations/index.js';
import { embeddedDatabases } from './embedded-databases.js';
import { searchPathStatement } from './search-path.js';
import { applySessionSettings } from './session-settings.js';
import type { Database, Orm } from '../kernel/database.js';
import { sqlObservers } from './sql-observers.js';

export type { Database, Orm };

function baseOptions(entities: Entities): Options {
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
    // The insights tables (partitioned, hand-migrated, reached with SQL only) are no entities: the
    // schema generator must neither see nor drop them.
    // The triggers (and their functions) that keep derived columns are hand-written in migrations: the
    // schema generator must leave them alone.
    // The rate limiters' counters (rate_limit) are the library's table, reached with its SQL only; so is
    // the users' read positions (read_position, src/db/read-positions.ts).
    schemaGenerator: { skipTables: [/^insight_/, 'row_count', 'rate_limit', 'read_position'], ignoreTriggers: true, ignoreRoutines: true },
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
 * PostgreSQL's shared buffers inside PGlite (8 kB pages kept in the WebAssembly memory). PostgreSQL
 * touches them all as it opens, so they are resident from the start: PGlite's 128 MB were a quarter of
 * an idle server. Pages that do not fit stay in the operating system's file cache.
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';

/** Longest wait for a connection of the pool to a PostgreSQL server, in milliseconds. */
const POOL_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens the ORM on a real PostgreSQL server (`url`) or on embedded PostgreSQL in `dataDir`.
 * PGlite is a single connection inside this process: transactions queue behind each other. The data
 * directory must be writable (DataDirectoryUnusable otherwise) and is locked for this process until `orm.close()` (DataDirectoryLocked if another holds it);
 * `holder` says who is opening it, for the message another process gets.
 */
/** `entities`: every entity, the platform's and the areas' (src/entities.ts). */
export async function openOrm(db: Database, options: { entities: Entities; holder?: LockHolder['kind'] }): Promise<Orm> {
  if ('url' in db) {
    const { schema } = db;
    return MikroORM.init({
      ...baseOptions(options.entities),
      clientUrl: db.url,
      // The database must exist: a mistyped name in DATABASE_URL fails the start (reach-database.ts)
      // instead of creating an empty database and provisioning a new owner in it.
      ensureDatabase: false,
      pool: { min: 0, max: 10 },
      // pg's pool waits for a connection (a free one, or a new one being made) forever by default: a
      // database that stops answering would hold every request. After this long the request fails
      // and is answered 503 (see connection-errors.ts).
      driverOptions: {
        connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
        onPoolCreated: (pool: pg.Pool) => {
          releaseDeadConnections(pool);
          applySessionSettings(pool);
        },
      },
      schema,
      // Queries name the schema; the migrations' unqualified SQL resolves through the search path.
      onCreateConnection: schema
        ? async (connection) => {
            await (connection as DatabaseConnection).executeQuery(CompiledQuery.raw(searchPathStatement(schema)));
          }
        : undefined,
    });
  }
  ensureWritableDataDir(db.dataDir);
  const lock = lockDataDir(db.dataDir, options.holder ?? 'server');
  try {
    const pglite = await PGlite.create(db.dataDir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`] });
    const dialect = new PGliteDialect({ pglite });
    const orm = await MikroORM.init({
      ...baseOptions(options.entities),
      dbName: 'postgres',
      driverOptions: dialect,
    });
    embeddedDatabases.set(orm, pglite);
    embeddedDatabases.set(dialect, pglite);
    locks.set(orm, lock);
    // The lock outlives the database: released once PGlite has closed its files, not before.
    const close = orm.close.bind(orm);
    orm.close = async (force?: boolean) => {
      try {
        await close(force);
      } finally {
        lock.release();
      }
    };
    return orm;
  } catch (error) {
    lock.release();
    throw error;
  }
}

const locks = new WeakMap<Orm, DataDirLock>();

/** The lock an embedded database's ORM holds on its data directory (undefined on a server). */
export const dataDirLockOf = (orm: Orm): DataDirLock | undefined => locks.get(orm);

/** Arbitrary key of the advisory lock that serializes migrations across processes. */
const MIGRATION_LOCK = 734_112_907;

/**
 * Applies every committed migration that has not run yet, all or nothing. Instances starting at the
 * same time take turns on an advisory lock, so each migration runs once.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  // The embedded database belongs to this one process (and has one connection, which a lock held
  // in a transaction would keep from the migrator).
  if (embeddedDatabases.has(orm)) return (await orm.migrator.up()).map((m) => m.name);
  const connection = orm.em.getConnection();
  return connection.transactional(async (trx) => {
    const lock = sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await connection.execute(lock.sql, lock.values, 'all', trx);
    const applied = await orm.migrator.up({ transaction: trx });
    return applied.map((m) => m.name);
  });
}
