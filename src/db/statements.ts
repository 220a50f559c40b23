import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { embeddedDatabaseOf } from './embedded-databases.js';
import { readWithKeptPlan } from './embedded-plans.js';
import { sqlObservers } from './sql-observers.js';
import { poolClientOf } from './pool-clients.js';
import { wroteOutsideTransaction } from './writes.js';
import { awaitsCommitMark } from './commit-marks.js';
import { readPositionToRecord, replicaFor } from './read-routing.js';
import { replicaSetOf } from './replicas.js';
import type pg from 'pg';

/*
 * Every SQL statement the code writes by hand goes through this module, so that one place tells the
 * statement observers (tests count statements), names the hot statements on a server and decides which
 * connection and transaction a statement runs on. Left outside, each for a reason: the ingest
 * transaction's COPY (insights/storage.ts: a client of its own; it tells the observers through
 * `observe`), the migrator's lock (db/orm.ts: before any EntityManager) and a connection's set-up.
 *
 * One style of statement: an `Sql` of sql-template-tag (`sql\`… where id = ${id}\``). Values are
 * always parameters; only fragments that are SQL themselves go into the text: other `Sql` values,
 * `raw(…)` of texts the code owns (identifiers quoted, as `tableOf` and `columnOf` give them), `join`
 * and `empty`. Each function below sends the statement the way its connection wants it: `.text` with
 * `$n` placeholders and `.values` to the pool and to Kysely, `.sql` with `?` placeholders to the
 * ORM's connection (`execute`, `executeReturning`).
 *
 * The rule for reading:
 * - Data read to answer (resolvers, loaders, lists, authentication) is read here as plain rows:
 *   `Plain<T>` objects with the entity's property names, no entity instances, nothing registered in
 *   the EntityManager. `readRows` takes a statement, `rowsWhereIn` an entity's rows by keys,
 *   `countsByKey` grouped counts.
 * - Code that CHANGES rows loads them as entities (`em.find`, `em.findOne`, …): the unit of work then
 *   sees and flushes the change. An entity is never made from a plain row.
 * - Plain reads run on the pool, outside any transaction. A read that a change depends on, or a write
 *   of many rows at once, runs in the EntityManager's transaction with `queryIn` (Kysely) or
 *   `execute` / `executeReturning` (the ORM's connection: jobs, insights maintenance).
 * - Insights statements run on a Kysely executor they hold (a connection of their own for a sliced
 *   aggregate, an ingest transaction): `executeOn`.
 *
 * Plain lists travel as one JSON document of tuples (`jsonListOf` in the statement, `rowsOf` here):
 * decoding hundreds of rows column by column costs the driver far more than one JSON.parse. Fragments
 * built from metadata are built once (the caches below only ever hold those few fragments).
 */

/** A row read by a plain statement: the entity's properties, read-only (to change a row, load its entity). */
export type Plain<T> = { readonly [K in keyof T]: T[K] };

// Entities come in many generic shapes; only their metadata is read here.
/** An entity, or its class name (for code below the areas, which names their tables without importing them). */
type AnyEntity = EntityName<any> | string;
type Order = Record<string, 'asc' | 'desc'>;

/** Fragments built from entity metadata (a cache of a fixed, small set). */
const fragments = new Map<string, Sql>();
/** An identifier as SQL text, quoted. */
export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

function once(key: string, build: () => Sql): Sql {
  let fragment = fragments.get(key);
  if (fragment === undefined) fragments.set(key, (fragment = build()));
  return fragment;
}

function metadataOf(em: EntityManager, entity: AnyEntity) {
  return typeof entity === 'string' ? em.getMetadata().getByClassName(entity) : em.getMetadata().get(entity);
}

/** Tells the statement observers of a statement sent another way (COPY, a transaction on a client of one's own). */
export function observe(text: string, values?: readonly unknown[]): void {
  for (const observer of sqlObservers) observer(text, values);
}

// ─── building statements ────────────────────────────────────────────────────────────────────────────

/** The column of a single-column property, quoted (a `raw` fragment). */
export function columnOf(em: EntityManager, entity: AnyEntity, property: string): Sql {
  return raw(fieldOf(em, entity, property));
}

function fieldOf(em: EntityManager, entity: AnyEntity, property: string): string {
  const meta = metadataOf(em, entity);
  const [field] = meta.props.find((prop) => prop.name === property)?.fieldNames ?? [];
  if (!field) throw new Error(`${meta.className}.${property} is not a single column`);
  return quote(field);
}

/** `alias."column" as "property", …` for every single-column property of the entity (a `raw` fragment). */
export function plainColumns(em: EntityManager, entity: AnyEntity, alias?: string): Sql {
  const meta = metadataOf(em, entity);
  return once(`columns|${meta.className}|${alias ?? ''}`, () => {
    const prefix = alias ? `${quote(alias)}.` : '';
    return raw(
      plainProperties(em, entity)
        .map((prop) => `${prefix}${quote(prop.fieldNames[0])} as ${quote(prop.name)}`)
        .join(', '),
    );
  });
}

/** The table of an entity, quoted (a `raw` fragment; unqualified: a configured schema is on the search path). */
export function tableOf(em: EntityManager, entity: AnyEntity): Sql {
  return raw(quote(metadataOf(em, entity).tableName));
}

/**
 * The single-column properties of an entity, in the order of the tuples `jsonListOf` builds. Lazy ones
 * (columns the database keeps for its own queries) are read only where a statement names them.
 */
function plainProperties(em: EntityManager, entity: AnyEntity) {
  return metadataOf(em, entity).props.filter((prop) => prop.fieldNames?.length === 1 && !prop.lazy);
}

/** A single-column property as the read path builds rows of it. */
export type PlainProperty = {
  name: string;
  column: string;
  date: boolean;
  /** The property's JavaScript type as MikroORM knows it ('string', 'number', 'boolean', 'Date'…). */
  runtimeType: string;
  nullable: boolean;
};

const plainPropertyLists = new Map<string, PlainProperty[]>();

/**
 * The single-column properties of an entity with their columns; `withLazy` adds those the database keeps
 * for its own queries (sort keys), which a statement may name but rows do not carry.
 */
export function plainPropertiesOf(em: EntityManager, entity: AnyEntity, withLazy = false): readonly PlainProperty[] {
  const meta = metadataOf(em, entity);
  const key = `${meta.className}|${withLazy}`;
  let list = plainPropertyLists.get(key);
  if (!list) {
    const props = meta.props.filter((prop) => prop.fieldNames?.length === 1 && (withLazy || !prop.lazy));
    plainPropertyLists.set(
      key,
      (list = props.map((prop) => ({
        name: prop.name,
        column: prop.fieldNames[0],
        date: prop.runtimeType === 'Date',
        // A reference held as its key (mapToPk) is its key's type, not the entity's.
        runtimeType: prop.targetMeta?.props.find((target) => target.primary)?.runtimeType ?? prop.runtimeType,
        nullable: !!prop.nullable,
      }))),
    );
  }
  return list;
}

/**
 * `coalesce(json_agg(json_build_array(alias."column", …) order by …), '[]')`: a list of rows as one
 * JSON value, each row a tuple of its column values (`rowsOf` makes them rows again). Tuples rather
 * than objects: the property names would be most of the document, for the server to write and the
 * driver to parse, once per row.
 */
export function jsonListOf(em: EntityManager, entity: AnyEntity, alias: string, orderBy?: Order): Sql {
  const order = Object.entries(orderBy ?? {}).map(([property, direction]) =>
    raw(`${quote(alias)}.${fieldOf(em, entity, property)} ${direction === 'desc' ? 'desc' : 'asc'}`),
  );
  return sql`coalesce(json_agg(${jsonTupleOf(em, entity, alias)}${order.length ? sql` order by ${join(order, ', ')}` : empty}), '[]')`;
}

/** `json_build_array(alias."column", …)`: one row as the tuple `rowsOf` reads (a `raw` fragment). */
export function jsonTupleOf(em: EntityManager, entity: AnyEntity, alias: string): Sql {
  const meta = metadataOf(em, entity);
  return once(`tuple|${meta.className}|${alias}`, () => {
    // Date-times as epoch milliseconds: a number makes a Date far faster than an ISO string does.
    const columns = plainProperties(em, entity).map((prop) => {
      const column = `${quote(alias)}.${quote(prop.fieldNames[0])}`;
      return prop.runtimeType === 'Date' ? `(extract(epoch from ${column}) * 1000)::float8` : column;
    });
    return raw(`json_build_array(${columns.join(', ')})`);
  });
}

/**
 * The rows of the tuples of a `jsonListOf` list: objects with the entity's property names, date-times
 * as dates (as the driver would have made them). Every row gets its properties in the same order, so
 * rows of one entity share one hidden class.
 */
export function rowsOf<T>(em: EntityManager, entity: AnyEntity, tuples: readonly (readonly unknown[])[]): T[] {
  const properties = plainPropertiesOf(em, entity);
  const rows = new Array<T>(tuples.length);
  for (let i = 0; i < tuples.length; i++) {
    const tuple = tuples[i];
    const row: Record<string, unknown> = {};
    for (let c = 0; c < properties.length; c++) {
      const value = tuple[c];
      row[properties[c].name] = properties[c].date && value !== null ? new Date(value as number) : value;
    }
    rows[i] = row as T;
  }
  return rows;
}

// ─── reading to answer ──────────────────────────────────────────────────────────────────────────────

/** A name per statement text (a cache of the fixed texts read through `readRows`, and of the first selections' statements). */
const statementNames = new Map<string, string>();
/**
 * Texts named at most: the read path's statements follow the documents clients send, and each named
 * statement stays prepared on every connection that ran it; texts beyond these run unnamed.
 */
const MAX_NAMED_STATEMENTS = 1000;

/**
 * The keys of a batch as rows `k(id)`, in a form whose length the planner does not read from the
 * parameter: a prepared statement's plan then costs the same for any batch, and PostgreSQL settles on
 * its generic plan instead of planning anew on every execution (2.4 of the site structure's 10 ms).
 */
export const batchKeys = (keys: readonly string[]): Sql => sql`unnest(array(select unnest(${keys}::varchar[]))) as k(id)`;

/**
 * The rows of a statement, read on the pool outside any transaction (or in the EntityManager's
 * transaction when it is in one: a request's loaders made on a transaction, as a conditional write's
 * check reads its resource, see what it does, and on the embedded database wait for nothing). On a PostgreSQL server the
 * statement is named (by its text), so that each connection parses and plans it once rather than on
 * every request (these are the statements of every request: the token, memberships, the site, whose
 * parsing and planning were a measurable part of a request's database time; figures in
 * docs/performance.md); `keepPlan` does as much on the embedded database for the read path's statements
 * (embedded-plans.ts). A query's reads run on a streaming replica when one is safe for them
 * (read-routing.ts); one that fails there runs again on the primary, which answers instead.
 */
export async function readRows<T>(em: EntityManager, statement: Sql, options: { keepPlan?: boolean } = {}): Promise<T[]> {
  if (em.isInTransaction()) return queryIn<T>(em, statement);
  const { text, values } = statement;
  observe(text, values);
  const embedded = embeddedDatabaseOf(em);
  if (embedded) {
    const client = em.getConnection().getClient();
    if (options.keepPlan) return readWithKeptPlan<T>(embedded, client, text, values);
    const result = await client.executeQuery(CompiledQuery.raw(text, values));
    return result.rows as T[];
  }
  const replica = replicaFor(em);
  if (replica) {
    const replicas = replicaSetOf(em)!;
    try {
      const rows = await queryOnPool<T>(replica.pool.connect(), text, values);
      replicas.counted(replica.name);
      return rows;
    } catch (error) {
      // Whatever failed there is asked of the primary: a replica that went away or stopped answering
      // (REPLICA_QUERY_TIMEOUT_MS), a statement cancelled by a conflict with recovery.
      replicas.readFailed(replica, error);
    }
  }
  return readCurrentRows<T>(em, statement, { observed: false });
}

/**
 * The rows of a statement read on the primary, always: what decides access at once (the token, the
 * viewer's memberships) must see a revocation or a removal on the very next request. `keepPlan` as for
 * `readRows`: the embedded database keeps the statement's plan (the token's, which every request runs).
 */
export async function readCurrentRows<T>(em: EntityManager, statement: Sql, options: { keepPlan?: boolean; observed?: boolean } = {}): Promise<T[]> {
  if (em.isInTransaction()) return queryIn<T>(em, statement);
  const { text, values } = statement;
  if (options.observed ?? true) observe(text, values);
  const embedded = embeddedDatabaseOf(em);
  if (embedded) {
    const client = em.getConnection().getClient();
    if (options.keepPlan) return readWithKeptPlan<T>(embedded, client, text, values);
    const result = await client.executeQuery(CompiledQuery.raw(text, values));
    return result.rows as T[];
  }
  const rows = await queryOnPool<T>(poolClientOf(em), text, values);
  replicaSetOf(em)?.counted('primary');
  return rows;
}

/** Runs a statement, named by its text, on a client of a pool; releases it (dropping it when it failed). */
async function queryOnPool<T>(connecting: Promise<pg.PoolClient>, text: string, values: readonly unknown[]): Promise<T[]> {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) statementNames.set(text, (name = `plain_${statementNames.size + 1}`));
  const client = await connecting;
  try {
    const result = await client.query({ name, text, values: values as unknown[] });
    client.release();
    return result.rows as T[];
  } catch (error) {
    // The connection may be what failed: the pool makes a new one.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/** After a request that wrote: its user's read position (read-routing.ts), written on the primary. */
export async function recordReadPosition(em: EntityManager, userId: string | undefined): Promise<void> {
  const statement = readPositionToRecord(em, userId);
  if (statement) await readCurrentRows(em, statement);
}

/** The rows whose `keyProperty` is one of `keys` (sent as one array parameter), optionally ordered. */
export async function rowsWhereIn<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  keyProperty: keyof T & string,
  keys: readonly unknown[],
  orderBy?: Partial<Record<keyof T & string, 'asc' | 'desc'>>,
): Promise<Plain<T>[]> {
  const target = entity as AnyEntity;
  const selection = once(
    `where-in|${metadataOf(em, target).className}|${keyProperty}|${JSON.stringify(orderBy ?? {})}`,
    () =>
      sql`select ${jsonListOf(em, target, 't', orderBy as Order | undefined)} as "rows" from ${tableOf(em, target)} t where t.${columnOf(em, target, keyProperty)}`,
  );
  const [{ rows }] = await readRows<{ rows: unknown[][] }>(em, sql`${selection} = any(${keys})`);
  return rowsOf<Plain<T>>(em, target, rows);
}

/**
 * The rows a MikroORM filter selects, as plain rows: for conditions that are clearer as a filter than
 * as SQL (the ORM builds the statement; it reads through the EntityManager's connection).
 */
export function rowsWhere<T extends object>(em: EntityManager, entity: EntityName<T>, where: FilterQuery<T>, orderBy?: Order): Promise<Plain<T>[]> {
  const qb = em
    .createQueryBuilder(entity)
    .select('*')
    .where(where as never);
  if (orderBy) qb.orderBy(orderBy as never);
  return qb.execute('all', true) as Promise<Plain<T>[]>;
}

/** Counts by key: the rows `key` and `n` of a grouped statement, as a map (missing keys count 0 to the caller). */
export async function countsByKey(em: EntityManager, statement: Sql): Promise<Map<string, number>> {
  const rows = await readRows<{ key: string; n: string | number }>(em, statement);
  return new Map(rows.map((row) => [row.key, Number(row.n)]));
}

// ─── in the unit of work ────────────────────────────────────────────────────────────────────────────

/**
 * Runs a statement in the EntityManager's transaction when it is in one (reads that a change depends
 * on, writes of many rows at once), else as `readRows` does.
 */
export async function queryIn<T>(em: EntityManager, statement: Sql): Promise<T[]> {
  const transaction = em.getTransactionContext<{ executeQuery(query: CompiledQuery): Promise<{ rows: unknown[] }> }>();
  if (!transaction) return readRows<T>(em, statement);
  const { text, values } = statement;
  observe(text);
  const result = await transaction.executeQuery(CompiledQuery.raw(text, values));
  return result.rows as T[];
}

/**
 * Runs a write on the ORM's connection (which takes `?` placeholders: the statement's `.sql`), in the
 * EntityManager's transaction when it is in one; answers how many rows it changed. (The ORM tells the
 * statement observers itself.)
 */
export async function execute(em: EntityManager, statement: Sql): Promise<number> {
  if (awaitsCommitMark(em)) return em.transactional((tx) => execute(tx, statement));
  const result = await em.getConnection().execute<{ affectedRows: number }>(statement.sql, [...statement.values], 'run', em.getTransactionContext());
  wroteOutsideTransaction(em);
  return result.affectedRows;
}

/** The same for a statement whose rows are wanted (`returning`, a row lock, a read within the change). */
export async function executeReturning<T>(em: EntityManager, statement: Sql): Promise<T[]> {
  if (awaitsCommitMark(em)) return em.transactional((tx) => executeReturning<T>(tx, statement));
  const rows = await em.getConnection().execute<T[]>(statement.sql, [...statement.values], 'all', em.getTransactionContext());
  wroteOutsideTransaction(em);
  return rows;
}

// ─── on a connection of one's own ───────────────────────────────────────────────────────────────────

/** A Kysely executor: the ORM's database, one of its connections, or a transaction on one. */
export type Executor = Kysely<any> | Transaction<any>;

/** The Kysely database under an EntityManager (for statements that need a connection or transaction of their own). */
export const kyselyOf = (em: EntityManager): Kysely<any> => em.getConnection().getClient();

/** Runs one statement on an executor and returns its rows. */
export async function executeOn<T = Record<string, unknown>>(db: Executor, statement: Sql): Promise<T[]> {
  const { text, values } = statement;
  observe(text);
  const result = await db.executeQuery(CompiledQuery.raw(text, values));
  return result.rows as T[];
}
