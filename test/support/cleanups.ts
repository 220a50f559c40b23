import { afterEach } from 'vitest';
import { freshDatabase, type FreshDatabase } from './database.js';

/**
 * Work undone after each test of the file, last first, whatever the test ends with: servers stopped,
 * databases disposed of, connections closed.
 */
export function useCleanups() {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return {
    add(cleanup: () => Promise<unknown>) {
      cleanups.push(cleanup);
    },
    /** A fresh database (see freshDatabase), disposed of after the test. */
    async database(): Promise<FreshDatabase> {
      const fresh = await freshDatabase();
      cleanups.push(() => fresh.dispose());
      return fresh;
    },
  };
}
