import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { PGlite } from '@electric-sql/pglite';
import sql, { raw, type Sql } from 'sql-template-tag';
import { embeddedDatabaseOf } from '../../db/embedded-databases.js';
import { execute, kyselyOf, observe, quote } from '../../db/statements.js';
import { poolClientOf } from '../../db/pool-clients.js';
import { GroupCommit } from './group-commit.js';
import { EVENT_COLUMN_LIST, ROLLUP_COLUMN_LIST, type EncodedBatch } from './encode.js';
import { ROLLUP_PARENT, ROLLUP_STATE } from './tables.js';

type Row = Record<string, unknown>;

/** The embedded database comes to the ORM as a Kysely dialect that owns its one connection. */
export const isEmbedded = (em: EntityManager): boolean => embeddedDatabaseOf(em) !== undefined;

/** One ingest transaction: statements, and COPY of text into a table. */
export type Writer = {
  query(statement: Sql): Promise<Record<string, unknown>[]>;
  /** COPY of text given in pieces (rows never straddle two pieces). */
  copy(table: string, columns: string[], text: CopyText): Promise<void>;
};
export type CopyText = readonly (string | Uint8Array)[];

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
    to: `${next[0]}-${pad(next[1])}-01T00:00:00Z`,
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
  const existing = await writer.query(sql`select relname as name from pg_class where relname = any(${names}) and relispartition and pg_table_is_visible(oid)`);
  for (const { name } of existing) months.delete(name as string);
  if (months.size) await writer.query(sql`select pg_advisory_xact_lock(${raw(String(PARTITION_LOCK))})`);
  for (const month of months.values()) {
    // DDL takes no parameters: the bounds are literals (made here from numbers).
    await writer.query(
      raw(`create table if not exists ${quote(month.name)} partition of "insight_event" for values from (${literal(month.from)}) to (${literal(month.to)})`),
    );
  }
  for (const name of names) known.add(name);
}

// ─── the ingest transaction ─────────────────────────────────────────────────────────────────────────

/**
 * Embedded database: its one session, in a transaction of PGlite's own (which every other statement,
 * the ORM's included, waits for); COPY reads its text from a blob.
 */
async function inEmbeddedTransaction(pglite: PGlite, opening: string[], work: (writer: Writer, opened: Row[]) => Promise<void>): Promise<void> {
  await pglite.transaction(async (tx) => {
    const query = async ({ text, values }: Sql) => {
      observe(text);
      return (await tx.query<Row>(text, values)).rows;
    };
    let opened: Row[] = [];
    for (const text of opening) opened = await query(raw(text));
    await work(
      {
        query,
        copy: async (table, columns, text) => {
          const copy = copySql(table, columns, `'/dev/blob'`);
          observe(copy);
          await tx.query(copy, [], { blob: new Blob(text as (string | Uint8Array<ArrayBuffer>)[]) });
        },
      },
      opened,
    );
  });
}

/**
 * PostgreSQL server: a client of the ORM's pool, so that rows go in with COPY FROM STDIN (measured
 * several times faster than a parameterized INSERT of the same batch), rollups in the same transaction.
 * The opening statements go with BEGIN in one round trip (each still reads with a snapshot of its own).
 */
async function inPoolTransaction(em: EntityManager, opening: string[], work: (writer: Writer, opened: Row[]) => Promise<void>): Promise<void> {
  const client = await poolClientOf(em);
  const run = async ({ text, values }: Sql) => {
    observe(text);
    return (await client.query(text, values)).rows as Row[];
  };
  try {
    const begin = ['begin', ...opening].join('; ');
    observe(begin);
    const results = (await client.query(begin)) as unknown as pg.QueryResult<Row> | pg.QueryResult<Row>[];
    const opened = Array.isArray(results) ? results[results.length - 1].rows : [];
    await work(
      {
        query: run,
        copy: async (table, columns, text) => {
          const copy = copySql(table, columns, 'stdin');
          observe(copy);
          const stream = client.query(copyStreams.from(copy));
          await new Promise<void>((resolve, reject) => {
            stream.on('finish', resolve);
            stream.on('error', reject);
            for (const piece of text) stream.write(piece);
            stream.end();
          });
        },
      },
      opened,
    );
    await run(sql`commit`);
    client.release();
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/**
 * Runs `work` in one transaction of the ingest path (COPY included): all or nothing. `opening` are
 * statements without parameters run first (values in them must be literals: on a server they go with
 * BEGIN in one round trip, which takes no parameters); `work` gets the rows of the last.
 */
export async function inIngestTransaction(em: EntityManager, opening: Sql[], work: (writer: Writer, opened: Row[]) => Promise<void>): Promise<void> {
  if (opening.some((statement) => statement.values.length > 0)) throw new Error('an opening statement of an ingest transaction takes no parameters');
  const texts = opening.map((statement) => statement.text);
  const pglite = embeddedDatabaseOf(em);
  if (pglite) await inEmbeddedTransaction(pglite, texts, work);
  else await inPoolTransaction(em, texts, work);
}

// ─── rollup watermarks ──────────────────────────────────────────────────────────────────────────────

/** First key of the two-key advisory locks on a site's rollups (the second is a hash of its id). */
const ROLLUP_LOCK = 734_112_909;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * The lock on a site's rollups: ingests hold it shared while they store events, the job that moves
 * the watermark holds it alone, so that no event before the watermark is stored without its counts.
 * With literals, not parameters: ingests take it in the opening of their transaction (`inIngestTransaction`).
 */
const rollupLockCall = (siteId: string, mode: 'shared' | 'exclusive') =>
  `pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(${ROLLUP_LOCK}, hashtext(${literal(siteId)}))`;
export const rollupLock = (siteId: string, mode: 'shared' | 'exclusive'): Sql => raw(`select ${rollupLockCall(siteId, mode)}`);

/**
 * The watermarks of sites in epoch ms (`site`, `watermark`); no row for a site not rolled up yet. With
 * literals, not parameters: ingests read them in the opening of their transaction.
 */
export const watermarkQuery = (siteIds: string | readonly string[]): Sql =>
  raw(
    `select "site_id" as "site", (extract(epoch from "rolled_up_to") * 1000)::float8 as "watermark" from ${quote(ROLLUP_STATE)} where "site_id" in (${[siteIds].flat().map(literal).join(', ')})`,
  );

/** The watermark of the one site a `watermarkQuery` asked for. */
export const watermarkOf = (rows: Row[]): number => (rows.length ? Number(rows[0].watermark) : -Infinity);

/** A batch to store: its site, its encoded rows, and what else its transaction must do. */
export type StoredBatch = {
  siteId: string;
  batch: EncodedBatch<string | Uint8Array>;
  /** The COPY text of the batch's late events' counts, given the site's watermark (epoch ms). */
  lateCounts: (watermark: number) => Promise<string>;
  /** Runs last in the same transaction (scheduling the roll-up of these rows). */
  afterwards?: (writer: Writer) => Promise<void>;
};

/**
 * Stores batches (of one site or several) in one transaction, under their sites' rollup locks (shared):
 * their event rows in one COPY, then the counts of their late events, which each batch makes from its
 * site's watermark read under the lock.
 */
export async function storeBatches(em: EntityManager, batches: readonly StoredBatch[]): Promise<void> {
  const stored = batches.filter((entry) => entry.batch.rows > 0);
  if (stored.length === 0) return;
  // Locks in one order, whatever the group: two groups never wait on each other through the roll-up job's waits.
  const sites = [...new Set(stored.map((entry) => entry.siteId))].sort();
  const locks = raw(`select ${sites.map((site) => rollupLockCall(site, 'shared')).join(', ')}`);
  // Each statement in READ COMMITTED reads with a snapshot of its own: the watermarks are read after the locks are held.
  await inIngestTransaction(em, [locks, watermarkQuery(sites)], async (writer, opened) => {
    const watermarkOfSite = new Map(opened.map((row) => [row.site as string, Number(row.watermark)]));
    const months = new Set(stored.flatMap((entry) => [...entry.batch.months]));
    await ensurePartitions(kyselyOf(em), writer, months);
    await writer.copy(
      'insight_event',
      EVENT_COLUMN_LIST,
      stored.map((entry) => entry.batch.events),
    );
    const deltas: string[] = [];
    for (const entry of stored) {
      const watermark = watermarkOfSite.get(entry.siteId) ?? -Infinity;
      const counts = entry.batch.earliest < watermark ? await entry.lateCounts(watermark) : '';
      if (counts) deltas.push(counts);
    }
    if (deltas.length) await writer.copy(ROLLUP_PARENT, ROLLUP_COLUMN_LIST, deltas);
    for (const entry of stored) await entry.afterwards?.(writer);
  });
}

/**
 * How group commit runs: on a server, two transactions in flight and groups of up to 20,000 rows (about
 * a second of COPY on a slow machine). The embedded database has one session, which every other
 * statement waits for while a transaction holds it (and its COPY holds the thread): one transaction at
 * a time, and only batches of up to 1,000 rows together, so that other requests wait no longer for a
 * group than for one batch.
 */
const GROUPING = {
  server: { writers: 2, maxSize: 20_000 },
  embedded: { writers: 1, maxSize: 1_000 },
};

/** A group commit of batches into the database `em` works on (see group-commit.ts); `em` is its own. */
export function newGroupCommit(em: EntityManager): GroupCommit<StoredBatch> {
  const grouping = isEmbedded(em) ? GROUPING.embedded : GROUPING.server;
  return new GroupCommit((batches) => storeBatches(em, batches), { ...grouping, sizeOf: (entry) => entry.batch.rows });
}

// ─── deletion ───────────────────────────────────────────────────────────────────────────────────────

/** Deletes a site's rollups (small: at most one row per hour or day and dimension combination). */
export async function deleteSiteRollups(em: EntityManager, siteId: string): Promise<void> {
  await execute(em, sql`delete from ${raw(quote(ROLLUP_PARENT))} where "site_id" = ${siteId}`);
  await execute(em, sql`delete from ${raw(quote(ROLLUP_STATE))} where "site_id" = ${siteId}`);
}

/** Deletes a site's raw events (the B-tree on (site_id, time) finds them in every partition). */
export async function deleteSiteEvents(em: EntityManager, siteId: string): Promise<void> {
  await execute(em, sql`delete from "insight_event" where "site_id" = ${siteId}`);
}
