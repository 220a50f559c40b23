/** Observers of every SQL statement sent; tests use one to count statements per request. */
export const sqlObservers = new Set<(sql: string) => void>();
