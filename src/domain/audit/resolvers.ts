import type { Context } from '../../kernel/context.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { onOrganizationItem } from '../../kernel/resolvers.js';
import type { DomainEventRow } from '../../events/entities.js';
import { readAuditLog, type AuditLogFilter } from './log.js';
import { auditActor, auditEventActions, auditEventOf, auditSource, auditTarget, listAuditEvents } from './audit-events.js';

type AuditLogArgs = AuditLogFilter & { page?: string | null; limit?: number | null };

export const auditResolvers: Resolvers = {
  Query: {
    auditLog: (_: unknown, { page, limit, ...filter }: AuditLogArgs, ctx: Context) => readAuditLog(ctx.em, filter, { page, limit }),
    auditEvents: (_, { organizationId, page, limit, ...filter }, ctx) => listAuditEvents(ctx, organizationId, filter, { page, limit }),
    auditEvent: onOrganizationItem('id', auditEventOf),
    auditEventActions: () => auditEventActions(),
  },
  AuditEvent: {
    object: () => 'audit-event',
    id: (event) => event.uuid,
    action: (event) => event.type,
    actor: (event, _, ctx) => auditActor(ctx, event),
    source: (event) => auditSource(event),
    target: (event) => auditTarget(event),
    urls: (event, _, ctx) => ({ location: `${ctx.config.publicUrl}/v1/orgs/${event.organizationId}/audit-events/${event.uuid}` }),
    schemaVersion: () => 1,
  },
  Event: {
    clientIp: async (event, _, ctx) =>
      event.organizationId && (await ctx.policy.organizationRole(event.organizationId)) === 'admin' ? (event.clientIp ?? null) : null,
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    AuditEvent: DomainEventRow;
  }
}
