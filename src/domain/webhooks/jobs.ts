import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueUnlessPending, type JobHandler } from '../../jobs/queue.js';
import { deliverWebhook } from './delivery.js';
import { DELIVER_JOB } from './delivery-queue.js';
import { FAN_OUT_BATCH, fanOutEvents } from './fan-out.js';

/** The job that hands committed events to webhook endpoints: the poll behind the event notices. */
export const FAN_OUT_JOB = 'webhooks.fan-out';

/** How often the fan-out looks for events whose notice no instance acted on (a restart, a lost connection). */
export const FAN_OUT_POLL_MS = 10_000;

/** Starts the fan-out's chain of polls (instances that run jobs call it at start; at most one is pending). */
export function scheduleWebhookFanOut(em: EntityManager, now: Date): Promise<void> {
  return enqueueUnlessPending(em, FAN_OUT_JOB, now, now);
}

/** One bounded batch of the fan-out; the next batch at once while the backlog lasts, else the next poll. */
const fanOut: JobHandler = async (tx, _payload, now) => {
  const taken = await fanOutEvents(tx, now);
  const next = taken === FAN_OUT_BATCH ? now : new Date(now.getTime() + FAN_OUT_POLL_MS);
  await enqueueUnlessPending(tx, FAN_OUT_JOB, next, now);
};

export const webhookJobs: Record<string, JobHandler> = {
  [FAN_OUT_JOB]: fanOut,
  [DELIVER_JOB]: deliverWebhook,
};
