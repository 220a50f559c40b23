/**
 * Lookups over a list a loader returned (which nobody changes), built once per list and key function
 * rather than once per field that needs them: with hundreds of fields asking "which rows belong to X",
 * a scan per field would be quadratic. Key functions must be module-level constants, so they are the
 * same function on every call.
 */
const indexes = new WeakMap<readonly object[], Map<Function, Map<unknown, unknown>>>();

function cached<T extends object, K, V>(rows: readonly T[], keyOf: (row: T) => K, build: () => Map<K, V>): Map<K, V> {
  let byFunction = indexes.get(rows);
  if (!byFunction) indexes.set(rows, (byFunction = new Map()));
  let index = byFunction.get(keyOf) as Map<K, V> | undefined;
  if (!index) byFunction.set(keyOf, (index = build()));
  return index;
}

/** The rows sharing each key, in list order. The groups are shared: callers must not change them. */
export function groupedBy<T extends object, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, readonly T[]> {
  return cached(rows, keyOf, () => groupRows(rows, keyOf));
}

/** The rows sharing each key, in list order (computed afresh). */
export function groupRows<T, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/** The row of each key (the last one when keys repeat). */
export function indexedBy<T extends object, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, T> {
  return cached(rows, keyOf, () => new Map(rows.map((row) => [keyOf(row), row])));
}
