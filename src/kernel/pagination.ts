import { badRequest } from './errors.js';

/** Page size when `limit` is omitted (stated in README). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export type PageArgs = { page?: string | null; limit?: number | null };
/** The direction of a list: ascending or descending sort keys. */
export type Order = 'asc' | 'desc';
export type Page<T> = { items: T[]; count: number; next: { page: string } | null };
export type KeyPart = string | number;

/** The opaque page identifier of a sort key (for lists that page in SQL). */
export function encodeCursor(key: KeyPart[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key a page identifier names; 400 for anything this server did not hand out. */
export function decodeCursor(page: string): KeyPart[] {
  try {
    const key = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.every((part) => typeof part === 'string' || typeof part === 'number')) return key;
  } catch {
    // falls through to the error below
  }
  throw badRequest('page: not a page identifier returned by this list');
}

export function pageSize(limit: number | null | undefined): number {
  if (limit === null || limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badRequest(`limit: must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}

function compareKeys(a: KeyPart[], b: KeyPart[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function keyedInOrder<T>(rows: T[], keyOf: (row: T) => KeyPart[], direction = 1) {
  return rows.map((row) => ({ row, key: keyOf(row) })).sort((a, b) => direction * compareKeys(a.key, b.key));
}

/** The rows ordered by `keyOf` ascending, as paginateRows orders them. */
export function sortByKey<T>(rows: T[], keyOf: (row: T) => KeyPart[]): T[] {
  return keyedInOrder(rows, keyOf).map(({ row }) => row);
}

/**
 * Keyset pagination: orders the rows by `keyOf` ascending, or descending with `order: 'desc'` (parts
 * compared in turn; a key that is a prefix of another comes first) and returns the page after the
 * cursor. The cursor is the key of the last row returned, so rows inserted or removed elsewhere never
 * shift or repeat a page.
 */
export function paginateRows<T>(rows: T[], keyOf: (row: T) => KeyPart[], args: PageArgs, order: Order = 'asc'): Page<T> {
  const limit = pageSize(args.limit);
  const after = args.page ? decodeCursor(args.page) : null;
  const direction = order === 'desc' ? -1 : 1;
  const keyed = keyedInOrder(rows, keyOf, direction);
  const start = after ? keyed.findIndex(({ key }) => direction * compareKeys(key, after) > 0) : 0;
  const remaining = start < 0 ? [] : keyed.slice(start);
  const items = remaining.slice(0, limit);
  const hasMore = remaining.length > limit;
  return {
    items: items.map(({ row }) => row),
    count: rows.length,
    next: hasMore ? { page: encodeCursor(items[items.length - 1].key) } : null,
  };
}

/** The usual sort key: creation time, then id to break ties. */
export const byCreation = (row: { createdAt: Date; id: string }): KeyPart[] => [row.createdAt.getTime(), row.id];
