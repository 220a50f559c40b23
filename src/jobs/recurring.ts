import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../kernel/config.js';
import { scheduleVacuum } from './vacuum.js';
import { scheduleIdempotencyPurge } from '../http/idempotency/purge.js';
import type { Area } from '../kernel/area.js';

/**
 * Makes sure each recurring job (housekeeping) has its next run scheduled: the platform's vacuum and
 * purge of idempotency keys, and the areas' (`Area.recurring`). Every run schedules the next, at most one pending at a time, so this
 * only starts the chain on a new database or after the job was switched off; instances that run jobs
 * call it at start.
 */
export async function scheduleRecurringJobs(areas: readonly Area[], em: EntityManager, config: Config, now: Date): Promise<void> {
  await scheduleVacuum(em, now);
  await scheduleIdempotencyPurge(em, now);
  for (const area of areas) await area.recurring?.(em, config, now);
}
