import type { Context } from '../../kernel/context.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { readAuditLog, type AuditLogFilter } from './log.js';

type AuditLogArgs = AuditLogFilter & { page?: string | null; limit?: number | null };

export const auditResolvers: Resolvers = {
  Query: {
    auditLog: (_: unknown, { page, limit, ...filter }: AuditLogArgs, ctx: Context) => readAuditLog(ctx.em, filter, { page, limit }),
  },
  Event: {
    clientIp: async (event, _, ctx) =>
      event.organizationId && (await ctx.policy.organizationRole(event.organizationId)) === 'admin' ? (event.clientIp ?? null) : null,
  },
};
