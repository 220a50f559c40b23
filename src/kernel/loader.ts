import DataLoader from 'dataloader';
import { groupRows } from './row-index.js';
import { notFound } from './errors.js';

/*
 * Per-request loaders, and the one rule for reading through them:
 * - A field resolver answers with `loader.get(key)`, and derives with `whenLoaded(loader.get(key), f)`:
 *   the value itself when the request holds it already (a parent primed it: the site layout's
 *   `remember`s, a `loadAll` of a tree's level, an earlier field), else a promise of it. A resolver then
 *   costs no promise on a hit, which is most fields of a large tree (the site tree's speed rests on it).
 * - Code that must have the value to go on (services, checks, a resolver that awaits or combines
 *   several values) uses `await loader.load(key)` / `loadMany`; `get` is never awaited.
 * - A loader whose rows only feed answers reads plain rows (db/statements.ts); a loader of entities
 *   (`em.find`) is for rows that code also changes.
 * - Nothing clears a loader by hand: whatever the request commits makes it forget every loader
 *   (graphql/request-context.ts), so the next read sees the change.
 */

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
  private readonly fetchAndRemember: (keys: readonly K[]) => Promise<V[]>;

  constructor(batch: (keys: readonly K[]) => Promise<V[]>) {
    const loaded = new Map<K, V>();
    const fetchAndRemember = async (keys: readonly K[]) => {
      const values = await batch(keys);
      keys.forEach((key, i) => loaded.set(key, values[i]));
      return values;
    };
    super(fetchAndRemember, { batchScheduleFn });
    this.loaded = loaded;
    this.fetchAndRemember = fetchAndRemember;
  }

  /** The value when this request has loaded it already, else a promise of it. */
  get(key: K): V | Promise<V> {
    // One lookup for the usual case: loaded values are rows or null, never undefined.
    const value = this.loaded.get(key);
    return value !== undefined || this.loaded.has(key) ? (value as V) : this.load(key);
  }

  override load(key: K): Promise<V> {
    if (this.loaded.has(key)) return Promise.resolve(this.loaded.get(key) as V);
    return super.load(key);
  }

  /**
   * Loads every key not loaded yet, in one batch of its own and without a promise per key: for a
   * whole level of a tree that a parent already knows it needs, so that its fields then `get` values.
   */
  async loadAll(keys: readonly K[]): Promise<void> {
    const missing = [...new Set(keys)].filter((key) => !this.loaded.has(key));
    if (missing.length > 0) await this.fetchAndRemember(missing);
  }

  /** Records a value read along with something else (a parent that brought its children). */
  remember(key: K, value: V): void {
    if (!this.loaded.has(key)) this.loaded.set(key, value);
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

/** A loader whose values are a part of another loader's values (`missing` where the source has none): parts read together arrive together. */
export function partOf<K, S, V>(source: Loader<K, S | null>, pick: (value: S) => V, missing: V): Loader<K, V> {
  return new Loader<K, V>(async (keys) =>
    (await source.loadMany(keys)).map((value) => {
      if (value instanceof Error) throw value;
      return value ? pick(value) : missing;
    }),
  );
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
 * wait on itself. Like `Loader.get`, it hands out a computed value itself once it is known.
 */
export function memoized<K, V, C = K>(compute: (key: K) => V | Promise<V>, cacheKey: (key: K) => C = (key) => key as unknown as C) {
  const cache = new Map<C, V | Promise<V>>();
  return {
    get(key: K): V | Promise<V> {
      const id = cacheKey(key);
      if (cache.has(id)) return cache.get(id)!;
      const value = compute(key);
      cache.set(id, value);
      // A failure stays cached as the rejected promise, and is reported to whoever awaits it.
      if (value instanceof Promise)
        value.then(
          (settled) => cache.set(id, settled),
          () => undefined,
        );
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
export function batchLoader<K, V>(fetch: (keys: K[]) => Promise<V[]>): Loader<K, V> {
  return new Loader<K, V>(async (keys) => fetch([...keys]));
}

/**
 * A row a guard has already found (the field's `@requires` refuses a missing one with 404), read
 * through a loader that answers null for a missing key: typed as present, and a 404 should the row
 * vanish between the guard and the read.
 */
export function found<T>(value: T | null | Promise<T | null>, what: string): T | Promise<T> {
  return whenLoaded(value, (row) => {
    if (row === null) throw notFound(what);
    return row;
  });
}
