/**
 * Observers of every SQL statement sent, with its parameters where the read path knows them; tests use
 * one to count statements per request, and to explain a statement as it ran.
 */
export const sqlObservers = new Set<(sql: string, values?: readonly unknown[]) => void>();
