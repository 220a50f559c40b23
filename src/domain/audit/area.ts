import { schemaBeside, type Area } from '../../kernel/area.js';
import { auditResolvers } from './resolvers.js';
import { auditRetentionJobHandlers, scheduleAuditRetention } from './retention.js';
import { auditRoutes } from './routes.js';

/**
 * The audit log: the outbox's events of an organization as its admins read them, with the refused
 * mutations the doors record (refusals.ts; the GraphQL door's plugin is refused-mutations.ts) and the job that ages events out.
 */
export const auditArea = {
  name: 'audit',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: auditResolvers,
  routes: auditRoutes,
  jobs: auditRetentionJobHandlers,
  recurring: (em, config, now) => scheduleAuditRetention(em, config.auditRetentionDays, now),
} satisfies Area;
