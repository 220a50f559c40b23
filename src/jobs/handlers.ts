import { areas } from '../areas.js';
import { vacuumJobHandlers } from '../db/vacuum.js';
import type { JobHandler } from './queue.js';

/** Every durable job kind and its handler: the areas', and the platform's vacuum. */
export const jobHandlers: Record<string, JobHandler> = {};
for (const handlers of [...areas.map((area) => ('jobs' in area ? area.jobs : {})), vacuumJobHandlers]) {
  for (const [kind, handler] of Object.entries(handlers)) {
    if (jobHandlers[kind]) throw new Error(`Two handlers for the job kind "${kind}"`);
    jobHandlers[kind] = handler;
  }
}
