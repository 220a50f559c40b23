import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName, FilterQuery } from '@mikro-orm/core';

/**
 * Dispatch a batch once every promise chain started by the same database answer has run (the check
 * phase of the event loop), not at the first tick: resolvers at different promise depths of one
 * level of a query then share one batch, so the statements of a request depend on its shape only.
 */
const batchScheduleFn = (dispatch: () => void) => setImmediate(dispatch);

/**
 * A per-request loader of one row per key: duplicate keys are fetched once, results come back in key
 * order, and a missing row is null rather than an error.
 */
export function rowLoader<K, V>(fetch: (keys: K[]) => Promise<V[]>, keyOf: (row: V) => K): DataLoader<K, V | null> {
  return new DataLoader<K, V | null>(
    async (keys) => {
      const rows = await fetch([...new Set(keys)]);
      const byKey = new Map(rows.map((row) => [keyOf(row), row]));
      return keys.map((key) => byKey.get(key) ?? null);
    },
    { batchScheduleFn },
  );
}

/** A per-request loader of every row sharing a key (children of a parent), in the order fetched. */
export function groupLoader<K, V>(fetch: (keys: K[]) => Promise<V[]>, keyOf: (row: V) => K): DataLoader<K, V[]> {
  return new DataLoader<K, V[]>(
    async (keys) => {
      const rows = await fetch([...new Set(keys)]);
      const groups = new Map<K, V[]>();
      for (const row of rows) {
        const key = keyOf(row);
        const group = groups.get(key);
        if (group) group.push(row);
        else groups.set(key, [row]);
      }
      return keys.map((key) => groups.get(key) ?? []);
    },
    { batchScheduleFn },
  );
}

/**
 * A per-request memo of a value computed from other loaders. Unlike a DataLoader it does not batch:
 * computations may depend on each other (a collection's role needs its parent's), and a batch would
 * wait on itself.
 */
export function memoized<K, V, C = K>(compute: (key: K) => Promise<V>, cacheKey: (key: K) => C = (key) => key as unknown as C) {
  const cache = new Map<C, Promise<V>>();
  return {
    load(key: K): Promise<V> {
      const id = cacheKey(key);
      let value = cache.get(id);
      if (!value) {
        value = compute(key);
        cache.set(id, value);
      }
      return value;
    },
    /** Forgets every value, after a change they depend on. */
    clear(): void {
      cache.clear();
    },
  };
}

/**
 * A per-request loader of one value per key, all computed by one call: `fetch` receives the distinct
 * keys and returns their values in the same order (for values that are not rows, such as counts).
 */
export function batchLoader<K, V>(fetch: (keys: K[]) => Promise<V[]>): DataLoader<K, V> {
  return new DataLoader<K, V>(async (keys) => fetch([...keys]), { batchScheduleFn });
}

/**
 * Reads rows as plain objects (entity property names, no entity instances, nothing registered in the
 * EntityManager): for list loaders whose rows only feed GraphQL fields and are never changed. Code that
 * changes a row loads it as an entity (a row loader or `em.find`), so the identity map sees the change.
 */
export function plainRows<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  orderBy?: Record<string, 'asc' | 'desc'>,
): Promise<T[]> {
  const qb = em.createQueryBuilder(entity).select('*').where(where as never);
  if (orderBy) qb.orderBy(orderBy as never);
  return qb.execute('all', true) as Promise<T[]>;
}
