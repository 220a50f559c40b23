import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { sqlObservers } from '../../db/orm.js';
import { EVENT_COLUMNS, ROLLUPS, rollupTable, type EventColumn, type EventRow, type Rollup } from './tables.js';

export type Executor = Kysely<any> | Transaction<any>;

const COLUMN_NAMES = Object.keys(EVENT_COLUMNS) as EventColumn[];
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
export const isEmbedded = (em: EntityManager): boolean => 'createDriver' in (em.config.get('driverOptions') ?? {});

/** One ingest transaction: statements with parameters, and bulk insertion of event rows. */
type Writer = {
  query(sql: string, parameters?: unknown[]): Promise<Record<string, unknown>[]>;
  insertEvents(rows: EventRow[]): Promise<void>;
};

// ─── partitions ─────────────────────────────────────────────────────────────────────────────────────

/** The partition of the UTC month of an ISO timestamp, with its bounds. */
function monthOf(time: string): { name: string; from: string; to: string } {
  const year = Number(time.slice(0, 4));
  const month = Number(time.slice(5, 7));
  const next = month === 12 ? [year + 1, 1] : [year, month + 1];
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    name: `insight_event_p${year}_${pad(month)}`,
    from: `${year}-${pad(month)}-01T00:00:00Z`,
    to: `${next[0]}-${pad(next[1]!)}-01T00:00:00Z`,
  };
}

/** Partitions known to exist, per database (a cache that can be lost: creation is idempotent). */
const knownPartitions = new WeakMap<object, Set<string>>();
/** Arbitrary advisory-lock key: concurrent ingests creating the same month take turns. */
const PARTITION_LOCK = 734_112_908;

/**
 * Makes sure the monthly partitions that `rows` fall into exist, inside the ingest transaction.
 * Creating a partition races with other instances, so creators serialize on an advisory lock and
 * create only what is still missing (IF NOT EXISTS).
 */
async function ensurePartitions(database: object, writer: Writer, rows: EventRow[]): Promise<void> {
  let known = knownPartitions.get(database);
  if (!known) knownPartitions.set(database, (known = new Set()));
  const months = new Map<string, ReturnType<typeof monthOf>>();
  for (const row of rows) {
    const month = monthOf(row.time as string);
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

// ─── events ─────────────────────────────────────────────────────────────────────────────────────────

/** One statement for the whole batch: one array parameter per column. */
const INSERT_EVENTS = `insert into "insight_event" (${COLUMN_NAMES.map(quote).join(', ')}) select * from unnest(${COLUMN_NAMES.map(
  (column, i) => `$${i + 1}::${EVENT_COLUMNS[column]}[]`,
).join(', ')})`;
const insertParameters = (rows: EventRow[]) => COLUMN_NAMES.map((column) => rows.map((row) => row[column]));

const COPY_EVENTS = `copy "insight_event" (${COLUMN_NAMES.map(quote).join(', ')}) from stdin`;
const COPY_SPECIAL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
function copyValue(value: string | number | null): string {
  if (value === null) return '\\N';
  const text = String(value);
  // Most values need no escape; testing first spares a copy of each.
  COPY_SPECIAL.lastIndex = 0;
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]!) : text;
}
/** The rows in COPY's text format. */
export const copyText = (rows: EventRow[]) => rows.map((row) => COLUMN_NAMES.map((column) => copyValue(row[column])).join('\t')).join('\n') + '\n';

// ─── rollups ────────────────────────────────────────────────────────────────────────────────────────

/** The start of the UTC day of an ISO timestamp, as an ISO timestamp. */
const dayOf = (time: string) => `${time.slice(0, 10)}T00:00:00.000Z`;

function upsertSql(rollup: Rollup): string {
  const table = rollupTable(rollup);
  const key = ['site_id', 'time', ...rollup.dimensions];
  const types = ['text', 'timestamptz', ...rollup.dimensions.map((d) => EVENT_COLUMNS[d]), 'bigint'];
  return `insert into ${quote(table)} (${[...key, 'events'].map(quote).join(', ')})
    select * from unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
    on conflict (${key.map(quote).join(', ')}) do update set "events" = ${quote(table)}."events" + excluded."events"`;
}
const UPSERTS = new Map(ROLLUPS.map((rollup) => [rollup, upsertSql(rollup)]));

/**
 * Adds the batch's counts to each rollup. Rows are counted here first (an upsert may touch a row only
 * once per statement) and sent in key order, so concurrent ingests lock rollup rows in the same order
 * and cannot deadlock.
 */
async function addToRollups(writer: Writer, rows: EventRow[]): Promise<void> {
  for (const rollup of ROLLUPS) {
    const counts = new Map<string, { values: unknown[]; events: number }>();
    for (const row of rows) {
      const values = [row.site_id, dayOf(row.time as string), ...rollup.dimensions.map((d) => row[d])];
      const key = JSON.stringify(values);
      const entry = counts.get(key);
      if (entry) entry.events += 1;
      else counts.set(key, { values, events: 1 });
    }
    const sorted = [...counts.keys()].sort().map((key) => counts.get(key)!);
    const columns = sorted[0]!.values.map((_, i) => sorted.map((entry) => entry.values[i]));
    await writer.query(UPSERTS.get(rollup)!, [...columns, sorted.map((entry) => entry.events)]);
  }
}

// ─── the ingest transaction ─────────────────────────────────────────────────────────────────────────

/** Embedded database: one connection, reached through the ORM's Kysely; rows go in one INSERT … unnest. */
async function inKyselyTransaction(db: Kysely<any>, work: (writer: Writer) => Promise<void>): Promise<void> {
  await db.transaction().execute((trx) =>
    work({
      query: (sql, parameters = []) => execute(trx, sql, parameters),
      insertEvents: async (rows) => void (await execute(trx, INSERT_EVENTS, insertParameters(rows))),
    }),
  );
}

/** Clients of the pool whose search path this module has set (the ORM sets it only on clients it opened). */
const preparedClients = new WeakSet<pg.PoolClient>();

/**
 * PostgreSQL server: a client of the ORM's pool, so that rows go in with COPY (measured several times
 * faster than a parameterized INSERT of the same batch), in the same transaction as the rollups.
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
      insertEvents: async (rows) => {
        observe(COPY_EVENTS);
        const stream = client.query(copyStreams.from(COPY_EVENTS));
        await new Promise<void>((resolve, reject) => {
          stream.on('finish', resolve);
          stream.on('error', reject);
          stream.end(copyText(rows));
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

/** Stores a batch of event rows and their rollup counts in one transaction: all or nothing. */
export async function storeEvents(em: EntityManager, rows: EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  const work = async (writer: Writer) => {
    await ensurePartitions(em.getConnection().getClient(), writer, rows);
    await writer.insertEvents(rows);
    await addToRollups(writer, rows);
  };
  if (isEmbedded(em)) await inKyselyTransaction(kyselyOf(em), work);
  else await inPoolTransaction(em, work);
}

// ─── deletion ───────────────────────────────────────────────────────────────────────────────────────

/** Runs a statement within the EntityManager's transaction, if it is in one (`?` placeholders). */
const inUnitOfWork = (em: EntityManager, sql: string, parameters: unknown[]) => em.getConnection().execute(sql, parameters, 'run', em.getTransactionContext());

/** Deletes a site's rollups (small: at most one row per day and dimension combination). */
export async function deleteSiteRollups(em: EntityManager, siteId: string): Promise<void> {
  for (const rollup of ROLLUPS) await inUnitOfWork(em, `delete from ${quote(rollupTable(rollup))} where "site_id" = ?`, [siteId]);
}

/** Deletes a site's raw events (the B-tree on (site_id, time) finds them in every partition). */
export async function deleteSiteEvents(em: EntityManager, siteId: string): Promise<void> {
  await inUnitOfWork(em, `delete from "insight_event" where "site_id" = ?`, [siteId]);
}
