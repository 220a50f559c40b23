import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { PGlite } from '@electric-sql/pglite';
import { embeddedDatabaseOf, sqlObservers } from '../../db/orm.js';
import { EVENT_COLUMN_LIST, ROLLUP_COLUMN_LIST, type EncodedBatch } from './encode.js';
import { ROLLUP_PARENT } from './tables.js';

export type Executor = Kysely<any> | Transaction<any>;

const quote = (identifier: string) => `"${identifier}"`;
const observe = (sql: string) => {
  for (const observer of sqlObservers) observer(sql);
};

/** Runs one raw statement with bound parameters, telling the statement observers. */
export async function execute<T = Record<string, unknown>>(db: Executor, sql: string, parameters: unknown[] = []): Promise<T[]> {
  observe(sql);
  const result = await db.executeQuery(CompiledQuery.raw(sql, parameters));
  return result.rows as T[];
}

export const kyselyOf = (em: EntityManager): Kysely<any> => em.getConnection().getClient();

/** The embedded database comes to the ORM as a Kysely dialect that owns its one connection. */
export const isEmbedded = (em: EntityManager): boolean => embeddedDatabaseOf(em) !== undefined;

/** One ingest transaction: statements with parameters, and COPY of text into a table. */
export type Writer = {
  query(sql: string, parameters?: unknown[]): Promise<Record<string, unknown>[]>;
  copy(table: string, columns: string[], text: string): Promise<void>;
};

const copySql = (table: string, columns: string[], source: string) => `copy ${quote(table)} (${columns.map(quote).join(', ')}) from ${source}`;

// ─── partitions ─────────────────────────────────────────────────────────────────────────────────────

/** The partition of a UTC month (`YYYY-MM`), with its bounds. */
function monthOf(month: string): { name: string; from: string; to: string } {
  const year = Number(month.slice(0, 4));
  const number = Number(month.slice(5, 7));
  const next = number === 12 ? [year + 1, 1] : [year, number + 1];
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    name: `insight_event_p${year}_${pad(number)}`,
    from: `${year}-${pad(number)}-01T00:00:00Z`,
    to: `${next[0]}-${pad(next[1]!)}-01T00:00:00Z`,
  };
}

/** Partitions known to exist, per database (a cache that can be lost: creation is idempotent). */
const knownPartitions = new WeakMap<object, Set<string>>();
/** Arbitrary advisory-lock key: concurrent ingests creating the same month take turns. */
const PARTITION_LOCK = 734_112_908;

/**
 * Makes sure the monthly partitions of `months` exist, inside the ingest transaction. Creating a
 * partition races with other instances, so creators serialize on an advisory lock and create only what
 * is still missing (IF NOT EXISTS).
 */
async function ensurePartitions(database: object, writer: Writer, batchMonths: Set<string>): Promise<void> {
  let known = knownPartitions.get(database);
  if (!known) knownPartitions.set(database, (known = new Set()));
  const months = new Map<string, ReturnType<typeof monthOf>>();
  for (const value of batchMonths) {
    const month = monthOf(value);
    if (!known.has(month.name)) months.set(month.name, month);
  }
  if (months.size === 0) return;
  const names = [...months.keys()];
  const existing = await writer.query(`select relname as name from pg_class where relname = any($1) and relispartition and pg_table_is_visible(oid)`, [names]);
  for (const { name } of existing) months.delete(name as string);
  if (months.size) await writer.query(`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
  for (const month of months.values()) {
    await writer.query(`create table if not exists ${quote(month.name)} partition of "insight_event" for values from ('${month.from}') to ('${month.to}')`);
  }
  for (const name of names) known.add(name);
}

// ─── the ingest transaction ─────────────────────────────────────────────────────────────────────────

/**
 * Embedded database: its one session, in a transaction of PGlite's own (which every other statement,
 * the ORM's included, waits for); COPY reads its text from a blob.
 */
async function inEmbeddedTransaction(pglite: PGlite, work: (writer: Writer) => Promise<void>): Promise<void> {
  await pglite.transaction((tx) =>
    work({
      query: async (sql, parameters = []) => {
        observe(sql);
        return (await tx.query<Record<string, unknown>>(sql, parameters)).rows;
      },
      copy: async (table, columns, text) => {
        const sql = copySql(table, columns, `'/dev/blob'`);
        observe(sql);
        await tx.query(sql, [], { blob: new Blob([text]) });
      },
    }),
  );
}

/** Clients of the pool whose search path this module has set (the ORM sets it only on clients it opened). */
const preparedClients = new WeakSet<pg.PoolClient>();

/**
 * PostgreSQL server: a client of the ORM's pool, so that rows go in with COPY FROM STDIN (measured
 * several times faster than a parameterized INSERT of the same batch), rollups in the same transaction.
 */
async function inPoolTransaction(em: EntityManager, work: (writer: Writer) => Promise<void>): Promise<void> {
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  const run = async (sql: string, parameters?: unknown[]) => {
    observe(sql);
    return (await client.query(sql, parameters)).rows as Record<string, unknown>[];
  };
  try {
    const schema = em.config.get('schema');
    if (schema && !preparedClients.has(client)) {
      await run(`set search_path to ${quote(schema.replaceAll('"', '""'))}`);
      preparedClients.add(client);
    }
    await run('begin');
    await work({
      query: run,
      copy: async (table, columns, text) => {
        const sql = copySql(table, columns, 'stdin');
        observe(sql);
        const stream = client.query(copyStreams.from(sql));
        await new Promise<void>((resolve, reject) => {
          stream.on('finish', resolve);
          stream.on('error', reject);
          stream.end(text);
        });
      },
    });
    await run('commit');
    client.release();
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/** Runs `work` in one transaction of the ingest path (COPY included): all or nothing. */
export async function inIngestTransaction(em: EntityManager, work: (writer: Writer) => Promise<void>): Promise<void> {
  const pglite = embeddedDatabaseOf(em);
  if (pglite) await inEmbeddedTransaction(pglite, work);
  else await inPoolTransaction(em, work);
}

/**
 * Stores an encoded batch in one transaction: its event rows, then its counts appended to each rollup
 * (`afterwards` runs last in the same transaction: scheduling the compaction of those counts).
 */
export async function storeEvents(em: EntityManager, batch: EncodedBatch, afterwards?: (writer: Writer) => Promise<void>): Promise<void> {
  if (batch.rows === 0) return;
  await inIngestTransaction(em, async (writer) => {
    await ensurePartitions(em.getConnection().getClient(), writer, batch.months);
    await writer.copy('insight_event', EVENT_COLUMN_LIST, batch.events);
    await writer.copy(ROLLUP_PARENT, ROLLUP_COLUMN_LIST, batch.rollups);
    await afterwards?.(writer);
  });
}

// ─── deletion ───────────────────────────────────────────────────────────────────────────────────────

/** Runs a statement within the EntityManager's transaction, if it is in one (`?` placeholders). */
const inUnitOfWork = (em: EntityManager, sql: string, parameters: unknown[]) => em.getConnection().execute(sql, parameters, 'run', em.getTransactionContext());

/** Deletes a site's rollups (small: at most one row per hour or day and dimension combination). */
export async function deleteSiteRollups(em: EntityManager, siteId: string): Promise<void> {
  await inUnitOfWork(em, `delete from ${quote(ROLLUP_PARENT)} where "site_id" = ?`, [siteId]);
}

/** Deletes a site's raw events (the B-tree on (site_id, time) finds them in every partition). */
export async function deleteSiteEvents(em: EntityManager, siteId: string): Promise<void> {
  await inUnitOfWork(em, `delete from "insight_event" where "site_id" = ?`, [siteId]);
}
