import { spaceJobHandlers } from '../domain/spaces/service.js';
import { insightsJobHandlers } from '../domain/insights/purge.js';
import { retentionJobHandlers } from '../domain/insights/retention.js';
import { openAPIJobHandlers } from '../domain/openapi/service.js';
import { searchJobHandlers } from '../domain/search/indexing.js';
import { vacuumJobHandlers } from '../db/vacuum.js';
import type { JobHandler } from './queue.js';

/** Every durable job kind and its handler. */
export const jobHandlers: Record<string, JobHandler> = {
  ...spaceJobHandlers,
  ...insightsJobHandlers,
  ...retentionJobHandlers,
  ...openAPIJobHandlers,
  ...searchJobHandlers,
  ...vacuumJobHandlers,
};
