/**
 * A bounded memo of a pure function of a string. Real traffic repeats a few thousand user agents, pages
 * and referrers, so the derivations of ingestion (parsing a user agent or a URL) are paid once per
 * distinct value. Only a cache: losing it costs recomputation. Map iteration order makes the oldest
 * entry the first one, which goes when the cache is full.
 */
export function bounded<T>(size: number, compute: (key: string) => T): (key: string) => T {
  const entries = new Map<string, T>();
  return (key) => {
    let value = entries.get(key);
    if (value !== undefined || entries.has(key)) return value as T;
    value = compute(key);
    if (entries.size >= size) entries.delete(entries.keys().next().value!);
    entries.set(key, value);
    return value;
  };
}
