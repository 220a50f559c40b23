import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { sqlObservers } from './orm.js';

/*
 * Plain-row reads for hot read paths (authentication, list and tree loaders): rows as plain objects
 * with entity property names, no entity instances, nothing in the identity map, statement texts built
 * once, and parameters sent as parameters (the ORM would inline every key into the text, which the
 * server must then parse afresh). Rows read here only feed answers; code that changes a row loads it
 * as an entity. Never inside a transaction: these read through the pool, outside the ORM's
 * transaction context.
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

function columnOf(em: EntityManager, entity: AnyEntity, property: string): string {
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
    return meta.props
      .filter((prop) => prop.fieldNames?.length === 1)
      .map((prop) => `${prefix}${quote(prop.fieldNames[0])} as ${quote(prop.name)}`)
      .join(', ');
  });
}

/** The table of an entity, quoted (unqualified: a configured schema is on the search path). */
export function tableOf(em: EntityManager, entity: AnyEntity): string {
  return quote(metadataOf(em, entity).tableName);
}

/** Runs a statement with `$n` parameters and returns its rows. */
export async function plainQuery<T>(em: EntityManager, sql: string, parameters: readonly unknown[]): Promise<T[]> {
  for (const observe of sqlObservers) observe(sql);
  const result = await em.getConnection().getClient().executeQuery(CompiledQuery.raw(sql, [...parameters]));
  return result.rows as T[];
}

/** The rows whose `keyProperty` is one of `keys` (sent as one array parameter), optionally ordered. */
export function plainRowsWhereIn<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  keyProperty: keyof T & string,
  keys: readonly unknown[],
  orderBy?: Partial<Record<keyof T & string, 'asc' | 'desc'>>,
): Promise<T[]> {
  const target = entity as AnyEntity;
  const sql = once(`where-in|${metadataOf(em, target).className}|${keyProperty}|${JSON.stringify(orderBy ?? {})}`, () => {
    const order = Object.entries((orderBy ?? {}) as Order).map(([property, direction]) => `${columnOf(em, target, property)} ${direction === 'desc' ? 'desc' : 'asc'}`);
    return `select ${plainColumns(em, target)} from ${tableOf(em, target)} where ${columnOf(em, target, keyProperty)} = any($1)${order.length ? ` order by ${order.join(', ')}` : ''}`;
  });
  return plainQuery<T>(em, sql, [keys]);
}
