import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { join, raw, type Sql } from 'sql-template-tag';
import { Loader } from '../kernel/loader.js';
import { levelRows, type Shape } from './read-shapes.js';
import { batchKeys, jsonTupleOf, quote, readRows, rowsOf, tableOf } from './statements.js';

/** The alias of the rows answered: distinct from the aliases the answers' own statements use inside (`x`…). */
const ROOT = 'root';

/**
 * A row read with its answer: the plain row (as the entity's row loader reads it, for the field's guard)
 * and the answer the database wrote, or null when `mayRead` did not admit the row.
 */
export type AnswerRead<T> = { row: T; answer: string | null };

/**
 * Answers of a type, row by key, written whole by the database (a root field such as `site(id)`, whose
 * selection the read model answers entirely: db/read-shapes.ts): one statement per batch of keys,
 * whatever the answer nests (its relations, pages and structure are parts of that statement). Each
 * comes with its plain row, so that the field's guard judges the row without reading it again
 * (graphql/schema.ts `readBeforeGuard`); `mayRead` (an SQL condition on the row under its alias, with
 * the request's values) keeps the database from writing answers that the guard would refuse. Made per
 * request; a loader per shape, which the request's invalidation rule forgets with the other loaders.
 */
export function answersByKey<T>(em: EntityManager, entity: string, mayRead: (row: Sql) => Sql) {
  const loaders = new Map<number, Loader<string, AnswerRead<T> | null>>();
  return (shape: Shape): Loader<string, AnswerRead<T> | null> => {
    let loader = loaders.get(shape.id);
    if (!loader) loaders.set(shape.id, (loader = new Loader((keys) => readAnswers<T>(em, entity, mayRead, shape, keys))));
    return loader;
  };
}

async function readAnswers<T>(
  em: EntityManager,
  entity: string,
  mayRead: (row: Sql) => Sql,
  shape: Shape,
  keys: readonly string[],
): Promise<(AnswerRead<T> | null)[]> {
  const placed = shape.place(ROOT);
  const alias = raw(quote(ROOT));
  const key = raw(quote(shape.keyColumn));
  const table = tableOf(em, entity);
  const levels = [
    sql`${levelRows(ROOT)} as (select r.* from ${batchKeys(keys)} cross join lateral (select ${alias}.* from ${table} ${alias}
      where ${alias}.${key} = k.id and ${mayRead(alias)} offset 0) r)`,
    ...placed.ctes,
  ];
  const found = await readRows<{ key: string; row: unknown[]; answer: string | null }>(
    em,
    sql`with ${join(levels, ', ')}
      select t.${key} as "key", ${jsonTupleOf(em, entity, 't')} as "row", a."answer"
      from ${batchKeys(keys)} join ${table} t on t.${key} = k.id
      left join (select ${alias}.${key} as "key", ${placed.object}::text as "answer" from ${levelRows(ROOT)} ${alias} ${placed.joins}) a on a."key" = k.id`,
    { keepPlan: true },
  );
  const rows = rowsOf<T>(
    em,
    entity,
    found.map((read) => read.row),
  );
  const byKey = new Map(found.map((read, i) => [read.key, { row: rows[i], answer: read.answer }]));
  return keys.map((k) => byKey.get(k) ?? null);
}
