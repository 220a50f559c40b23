import type { SortKey } from './pages.js';

/** The order of most lists, oldest first: creation time, then the id to break ties (as `byCreation` in JavaScript). */
export function creationOrder<T extends { createdAt: Date; id: string }>(alias: string): SortKey<T>[] {
  return [
    { sql: `${alias}.created_at`, time: true, of: (row) => row.createdAt },
    { sql: `${alias}.id`, of: (row) => row.id },
  ];
}
