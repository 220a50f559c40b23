import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import { scheduleVacuum } from '../db/vacuum.js';
import { scheduleAuditRetention } from '../domain/audit/index.js';
import { scheduleInsightsRetention } from '../domain/insights/index.js';
import { scheduleWebhookFanOut } from '../domain/webhooks/index.js';

/**
 * Makes sure each recurring job (housekeeping) has its next run scheduled. Every run schedules the next,
 * at most one pending at a time, so this only starts the chain on a new database or after the job was
 * switched off; instances that run jobs call it at start.
 */
export async function scheduleRecurringJobs(em: EntityManager, config: Config, now: Date): Promise<void> {
  await scheduleVacuum(em, now);
  await scheduleInsightsRetention(em, config.insightsRetentionDays, now);
  await scheduleAuditRetention(em, config.auditRetentionDays, now);
  await scheduleWebhookFanOut(em, now);
}
