import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kernel/clock.js';
import { requestVacuum } from '../../jobs/vacuum.js';
import { enqueue, type JobHandler } from '../../jobs/queue.js';
import { rollupJobHandlers } from './rollup.js';
import { deleteSiteEvents, deleteSiteRollups } from './storage.js';

const PURGE_JOB = 'purge-site-insights';

/**
 * Within the unit of work that deletes a site: its rollups go at once (small), its raw events (possibly
 * millions of rows) in a durable job, so that deleting a site stays quick and survives a restart.
 */
export async function forgetSiteInsights(em: EntityManager, clock: Clock, siteId: string): Promise<void> {
  await deleteSiteRollups(em, siteId);
  enqueue(em, clock, PURGE_JOB, { siteId });
}

/** Deletes the raw events of a deleted site; running it again deletes nothing more. */
const purgeSiteInsights: JobHandler = async (em, payload, now) => {
  await deleteSiteEvents(em, String(payload.siteId));
  await requestVacuum(em, { now: () => now });
};

export const insightsJobHandlers = { [PURGE_JOB]: purgeSiteInsights, ...rollupJobHandlers };
