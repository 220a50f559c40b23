import { LRUCache } from 'lru-cache';

/**
 * A bounded memo of a pure function of a string. Real traffic repeats a few thousand user agents, pages
 * and referrers, so the derivations of ingestion (parsing a user agent or a URL) are paid once per
 * distinct value. Only a cache: losing it costs recomputation; the least recently used entry goes first.
 */
export function bounded<T>(size: number, compute: (key: string) => T): (key: string) => T {
  // Boxed: the cache holds no null or undefined values, which `compute` may return.
  const entries = new LRUCache<string, { value: T }>({ max: size });
  return (key) => {
    let entry = entries.get(key);
    if (entry === undefined) entries.set(key, (entry = { value: compute(key) }));
    return entry.value;
  };
}
