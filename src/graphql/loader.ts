import DataLoader from 'dataloader';
import { groupRows } from './row-index.js';

/**
 * Dispatch a batch once every promise chain started by the same database answer has run (the check
 * phase of the event loop), not at the first tick: resolvers at different promise depths of one
 * level of a query then share one batch, so the statements of a request depend on its shape only.
 */
const batchScheduleFn = (dispatch: () => void) => setImmediate(dispatch);

/**
 * A DataLoader that also remembers what it has loaded, so that `get` hands out a loaded value itself
 * rather than a promise of it. A resolver that returns `get(...)` as is costs no promise (nor promise
 * hooks, nor a microtask) once its data is in, which is most fields of a large tree.
 */
export class Loader<K, V> extends DataLoader<K, V> {
  private readonly loaded: Map<K, V>;

  constructor(batch: (keys: readonly K[]) => Promise<V[]>) {
    const loaded = new Map<K, V>();
    super(
      async (keys) => {
        const values = await batch(keys);
        keys.forEach((key, i) => loaded.set(key, values[i]));
        return values;
      },
      { batchScheduleFn },
    );
    this.loaded = loaded;
  }

  /** The value when this request has loaded it already, else a promise of it. */
  get(key: K): V | Promise<V> {
    return this.loaded.has(key) ? (this.loaded.get(key) as V) : this.load(key);
  }

  override clear(key: K): this {
    this.loaded.delete(key);
    return super.clear(key);
  }

  override clearAll(): this {
    this.loaded.clear();
    return super.clearAll();
  }
}

/** Applies `then` to a value that may still be loading, without a promise when it is not. */
export function whenLoaded<T, R>(value: T | Promise<T>, then: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/**
 * A per-request loader of one row per key: duplicate keys are fetched once, results come back in key
 * order, and a missing row is null rather than an error.
 */
export function rowLoader<K, V>(fetch: (keys: K[]) => Promise<V[]>, keyOf: (row: V) => K): Loader<K, V | null> {
  return new Loader<K, V | null>(async (keys) => {
    const rows = await fetch([...new Set(keys)]);
    const byKey = new Map(rows.map((row) => [keyOf(row), row]));
    return keys.map((key) => byKey.get(key) ?? null);
  });
}

/** A per-request loader of every row sharing a key (children of a parent), in the order fetched. */
export function groupLoader<K, V>(fetch: (keys: K[]) => Promise<V[]>, keyOf: (row: V) => K): Loader<K, V[]> {
  return new Loader<K, V[]>(async (keys) => {
    const groups = groupRows(await fetch([...new Set(keys)]), keyOf);
    return keys.map((key) => groups.get(key) ?? []);
  });
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
  };
}

