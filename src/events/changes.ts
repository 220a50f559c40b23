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

/**
 * Applies an update to an entity, the one way updates are applied: only the fields of `patch` that
 * differ from the entity's values are set, and `updatedAt` (where the entity has one) moves to `now`
 * only when one did. Answers the names of the fields changed: none means the update was a no-op, which
 * changes nothing and records nothing (no event, so no audit row). MikroORM's change tracking writes
 * only what was set, so a no-op flushes no statement.
 */
export function applyChanges<T extends object>(entity: T, patch: Partial<Record<keyof T, unknown>>, now?: Date): string[] {
  const changed = changedFields(entity, patch);
  for (const field of changed) (entity as Record<string, unknown>)[field] = patch[field as keyof T];
  if (changed.length && now && 'updatedAt' in entity) (entity as { updatedAt: Date }).updatedAt = now;
  return changed;
}
