import type { Area, AreaJobHandler } from '../kernel/area.js';
import { vacuumJobHandlers } from './vacuum.js';
import { idempotencyJobHandlers } from '../http/idempotency/purge.js';
import type { JobHandler } from './queue.js';

/** The handler as the queue runs it: the areas' own get the server's areas with their run. */
function withAreas(handler: AreaJobHandler, areas: readonly Area[]): JobHandler {
  return Object.assign(
    (em: Parameters<JobHandler>[0], payload: Record<string, unknown>, now: Date, run: Parameters<JobHandler>[3]) =>
      handler(em, payload, now, { ...run, areas }),
    {
      outsideTransaction: handler.outsideTransaction,
    },
  );
}

/** Every durable job kind and its handler: the areas', and the platform's (the vacuum, the purge of idempotency keys). A kind declared twice is a fault of the build. */
export function jobHandlersOf(areas: readonly Area[]): Record<string, JobHandler> {
  const declared: { by: string; jobs: Record<string, JobHandler> }[] = [
    ...areas.map((area) => ({
      by: `area ${area.name}`,
      jobs: Object.fromEntries(Object.entries(area.jobs ?? {}).map(([kind, handler]) => [kind, withAreas(handler, areas)])),
    })),
    { by: 'the database vacuum', jobs: vacuumJobHandlers },
    { by: 'the purge of idempotency keys', jobs: idempotencyJobHandlers },
  ];
  const handlers: Record<string, JobHandler> = {};
  for (const { by, jobs } of declared) {
    for (const [kind, handler] of Object.entries(jobs)) {
      if (handlers[kind]) throw new Error(`Job kind "${kind}" of ${by} has a handler already`);
      handlers[kind] = handler;
    }
  }
  return handlers;
}
