import { schemaBeside, type Area } from '../../kernel/area.js';
import { insightsJobHandlers } from './purge.js';
import { insightsResolvers } from './resolvers.js';
import { retentionJobHandlers, scheduleInsightsRetention } from './retention.js';
import { insightsRoutes } from './routes.js';
import { InsightsColumnInput, InsightsFilterInput, InsightsOrderInput } from './inputs.js';

/** Visitor events of sites and their aggregates, with the jobs that roll them up, purge and age them out. */
export const insightsArea = {
  name: 'insights',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { InsightsColumnInput, InsightsFilterInput, InsightsOrderInput },
  resolvers: insightsResolvers,
  routes: insightsRoutes,
  jobs: { ...insightsJobHandlers, ...retentionJobHandlers },
  recurring: (em, config, now) => scheduleInsightsRetention(em, config.insightsRetentionDays, now),
} satisfies Area;
