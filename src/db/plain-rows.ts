import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { embeddedDatabaseOf } from './embedded-databases.js';
import { sqlObservers } from './sql-observers.js';
import { poolClientOf } from './pool-clients.js';

/*
 * Plain-row reads for hot read paths (authentication, list and tree loaders): rows as plain objects
 * with entity property names, no entity instances, nothing in the identity map, statement texts built
 * once, and parameters sent as parameters (the ORM would inline every key into the text, which the
 * server must then parse afresh). Lists travel as one JSON document: decoding hundreds of rows column
 * by column costs the driver far more than one JSON.parse. Rows read here only feed answers; code
 * that changes a row loads it as an entity. Never inside a transaction: these read through the pool,
 * outside the ORM's transaction context.
 */

// Entities come in many generic shapes; only their metadata is read here.
type AnyEntity = EntityName<any>;
type Order = Record<string, 'asc' | 'desc'>;

const texts = new Map<string, string>();
const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

function once(key: string, build: () => string): string {
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = build()));
  return text;
}

function metadataOf(em: EntityManager, entity: AnyEntity) {
  return em.getMetadata().get(entity);
}

export function columnOf(em: EntityManager, entity: AnyEntity, property: string): string {
  const meta = metadataOf(em, entity);
  const [field] = meta.props.find((prop) => prop.name === property)?.fieldNames ?? [];
  if (!field) throw new Error(`${meta.className}.${property} is not a single column`);
  return quote(field);
}

/** `alias."column" as "property", …` for every single-column property of the entity. */
export function plainColumns(em: EntityManager, entity: AnyEntity, alias?: string): string {
  const meta = metadataOf(em, entity);
  return once(`columns|${meta.className}|${alias ?? ''}`, () => {
    const prefix = alias ? `${quote(alias)}.` : '';
    return plainProperties(em, entity)
      .map((prop) => `${prefix}${quote(prop.fieldNames[0])} as ${quote(prop.name)}`)
      .join(', ');
  });
}

/** The table of an entity, quoted (unqualified: a configured schema is on the search path). */
export function tableOf(em: EntityManager, entity: AnyEntity): string {
  return quote(metadataOf(em, entity).tableName);
}

/** A name per statement text: these texts are few and fixed (built once each). */
const statementNames = new Map<string, string>();

/**
 * Runs a statement with `$n` parameters and returns its rows. On a PostgreSQL server the statement is
 * named, so that each connection parses and plans it once rather than on every request (these are the
 * statements of every request: the token, memberships, the site, whose parsing and planning were a
 * measurable part of a request's database time; figures in docs/performance.md).
 */
export async function plainQuery<T>(em: EntityManager, sql: string, parameters: readonly unknown[]): Promise<T[]> {
  for (const observe of sqlObservers) observe(sql);
  if (embeddedDatabaseOf(em)) {
    const result = await em.getConnection().getClient().executeQuery(CompiledQuery.raw(sql, [...parameters]));
    return result.rows as T[];
  }
  let name = statementNames.get(sql);
  if (name === undefined) statementNames.set(sql, (name = `plain_${statementNames.size + 1}`));
  const client = await poolClientOf(em);
  try {
    const result = await client.query({ name, text: sql, values: [...parameters] });
    client.release();
    return result.rows as T[];
  } catch (error) {
    // The connection may be what failed: the pool makes a new one.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/**
 * The single-column properties of an entity, in the order of the tuples `jsonListOf` builds. Lazy ones
 * (columns the database keeps for its own queries) are read only where a statement names them.
 */
function plainProperties(em: EntityManager, entity: AnyEntity) {
  return metadataOf(em, entity).props.filter((prop) => prop.fieldNames?.length === 1 && !prop.lazy);
}

/**
 * `coalesce(json_agg(json_build_array(alias."column", …) order by …), '[]')`: a list of rows as one
 * JSON value, each row a tuple of its column values (`rowsOf` makes them rows again). Tuples rather
 * than objects: the property names would be most of the document, for the server to write and the
 * driver to parse, once per row.
 */
export function jsonListOf(em: EntityManager, entity: AnyEntity, alias: string, orderBy?: Order): string {
  const order = Object.entries(orderBy ?? {}).map(([property, direction]) => `${quote(alias)}.${columnOf(em, entity, property)} ${direction === 'desc' ? 'desc' : 'asc'}`);
  return `coalesce(json_agg(${jsonTupleOf(em, entity, alias)}${order.length ? ` order by ${order.join(', ')}` : ''}), '[]')`;
}

/** `json_build_array(alias."column", …)`: one row as the tuple `rowsOf` reads. */
export function jsonTupleOf(em: EntityManager, entity: AnyEntity, alias: string): string {
  const meta = metadataOf(em, entity);
  return once(`tuple|${meta.className}|${alias}`, () => {
    // Date-times as epoch milliseconds: a number makes a Date far faster than an ISO string does.
    const columns = plainProperties(em, entity).map((prop) => {
      const column = `${quote(alias)}.${quote(prop.fieldNames[0])}`;
      return prop.runtimeType === 'Date' ? `(extract(epoch from ${column}) * 1000)::float8` : column;
    });
    return `json_build_array(${columns.join(', ')})`;
  });
}

type RowOfTuple = (tuple: readonly unknown[]) => Record<string, unknown>;
const rowBuilders = new Map<string, RowOfTuple>();

/**
 * The rows of the tuples of a `jsonListOf` list: objects with the entity's property names, date-times
 * as dates (as the driver would have made them). The builder is generated once per entity, like the
 * ORM's own hydrators, so that every row gets the same shape in one object literal.
 */
export function rowsOf<T>(em: EntityManager, entity: AnyEntity, tuples: readonly (readonly unknown[])[]): T[] {
  const meta = metadataOf(em, entity);
  let build = rowBuilders.get(meta.className);
  if (!build) {
    const fields = plainProperties(em, entity).map((prop, i) =>
      prop.runtimeType === 'Date' ? `${JSON.stringify(prop.name)}: t[${i}] === null ? null : new Date(t[${i}])` : `${JSON.stringify(prop.name)}: t[${i}]`,
    );
    build = new Function('t', `return { ${fields.join(', ')} };`) as RowOfTuple;
    rowBuilders.set(meta.className, build);
  }
  const rows = new Array<T>(tuples.length);
  for (let i = 0; i < tuples.length; i++) rows[i] = build(tuples[i]!) as T;
  return rows;
}

/** The rows whose `keyProperty` is one of `keys` (sent as one array parameter), optionally ordered. */
export async function plainRowsWhereIn<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  keyProperty: keyof T & string,
  keys: readonly unknown[],
  orderBy?: Partial<Record<keyof T & string, 'asc' | 'desc'>>,
): Promise<T[]> {
  const target = entity as AnyEntity;
  const sql = once(`where-in|${metadataOf(em, target).className}|${keyProperty}|${JSON.stringify(orderBy ?? {})}`, () =>
    `select ${jsonListOf(em, target, 't', orderBy as Order | undefined)} as "rows" from ${tableOf(em, target)} t where t.${columnOf(em, target, keyProperty)} = any($1)`,
  );
  const [{ rows }] = await plainQuery<{ rows: unknown[][] }>(em, sql, [keys]);
  return rowsOf<T>(em, target, rows);
}

/**
 * Runs a statement with `$n` parameters in the EntityManager's transaction when it is in one (reads
 * that a change depends on, writes of many rows at once), else as `plainQuery` does.
 */
export async function queryIn<T>(em: EntityManager, sql: string, parameters: readonly unknown[]): Promise<T[]> {
  const transaction = em.getTransactionContext<{ executeQuery(query: CompiledQuery): Promise<{ rows: unknown[] }> }>();
  if (!transaction) return plainQuery<T>(em, sql, parameters);
  for (const observe of sqlObservers) observe(sql);
  const result = await transaction.executeQuery(CompiledQuery.raw(sql, [...parameters]));
  return result.rows as T[];
}
