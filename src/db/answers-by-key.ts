import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { join, raw } from 'sql-template-tag';
import { Loader } from '../kernel/loader.js';
import { levelRows, type Shape } from './read-shapes.js';
import { batchKeys, quote, readRows, tableOf } from './statements.js';

/** The alias of the rows answered: distinct from the aliases the answers' own statements use inside (`x`…). */
const ROOT = 'root';

/**
 * Answers of a type, row by key, written whole by the database (a root field such as `site(id)`, whose
 * selection the read model answers entirely: db/read-shapes.ts): one statement per batch of keys,
 * whatever the answer nests (its relations, pages and structure are parts of that statement). Made per
 * request; a loader per shape, which the request's invalidation rule forgets with the other loaders.
 */
export function answersByKey(em: EntityManager, entity: string) {
  const loaders = new Map<number, Loader<string, string | null>>();
  return (shape: Shape): Loader<string, string | null> => {
    let loader = loaders.get(shape.id);
    if (!loader) loaders.set(shape.id, (loader = new Loader((keys) => readAnswers(em, entity, shape, keys))));
    return loader;
  };
}

async function readAnswers(em: EntityManager, entity: string, shape: Shape, keys: readonly string[]): Promise<(string | null)[]> {
  const placed = shape.place(ROOT);
  const alias = raw(quote(ROOT));
  const key = raw(quote(shape.keyColumn));
  const levels = [
    sql`${levelRows(ROOT)} as (select r.* from ${batchKeys(keys)} cross join lateral (select ${alias}.* from ${tableOf(em, entity)} ${alias} where ${alias}.${key} = k.id offset 0) r)`,
    ...placed.ctes,
  ];
  const found = await readRows<{ key: string; answer: string }>(
    em,
    sql`with ${join(levels, ', ')}
      select ${alias}.${key} as "key", ${placed.object}::text as "answer" from ${levelRows(ROOT)} ${alias} ${placed.joins}`,
    { keepPlan: true },
  );
  const byKey = new Map(found.map((row) => [row.key, row.answer]));
  return keys.map((k) => byKey.get(k) ?? null);
}
