import { areas } from '../areas.js';
import { vacuumJobHandlers } from '../db/vacuum.js';
import type { JobHandler } from './queue.js';

const declared: { by: string; jobs: Record<string, JobHandler> }[] = [
  ...areas.map((area) => ({ by: `area ${area.name}`, jobs: 'jobs' in area ? area.jobs : {} })),
  { by: 'the database vacuum', jobs: vacuumJobHandlers },
];

/** Every durable job kind and its handler: the areas', and the platform's vacuum. */
export const jobHandlers: Record<string, JobHandler> = {};
for (const { by, jobs } of declared) {
  for (const [kind, handler] of Object.entries(jobs)) {
    if (jobHandlers[kind]) throw new Error(`Job kind "${kind}" of ${by} has a handler already`);
    jobHandlers[kind] = handler;
  }
}
