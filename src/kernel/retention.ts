/** How long a deleted space can be restored before it is purged for good (contract §8). */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export function purgeDate(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + RETENTION_MS);
}

/** A deleted space past its window is gone for every caller, even before the purge job has run. */
export function isPastRetention(space: { deletedAt?: Date | null }, now: Date): boolean {
  return !!space.deletedAt && purgeDate(space.deletedAt).getTime() <= now.getTime();
}
