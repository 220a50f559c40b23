import { isDeepStrictEqual } from 'node:util';

/**
 * The fields of `patch` whose value differs from `current`'s: an update event's `changes`. Called
 * before the patch is applied; fields the patch leaves out (undefined) did not change.
 */
export function changedFields<T extends object>(current: T, patch: Partial<Record<keyof T, unknown>>): string[] {
  return Object.entries(patch)
    .filter(([field, value]) => value !== undefined && !isDeepStrictEqual(normalized((current as Record<string, unknown>)[field]), normalized(value)))
    .map(([field]) => field);
}

/** Dates compare by instant, a missing value as null. */
const normalized = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));
