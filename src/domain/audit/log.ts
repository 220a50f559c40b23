import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { join, type Sql } from 'sql-template-tag';
import { readUncountedPage, type ListQuery } from '../../db/pages.js';
import type { Plain } from '../../db/statements.js';
import { DomainEvent, type DomainEventRow } from '../../events/entities.js';
import { isEventType } from '../../events/types.js';
import { badRequest } from '../../kernel/errors.js';
import { decodeCursor, type Page, type PageArgs } from '../../kernel/pagination.js';

export const OUTCOMES = ['succeeded', 'denied', 'rejected'] as const;

export type AuditLogFilter = {
  organizationId: string;
  actor?: string | null;
  target?: string | null;
  type?: string | null;
  from?: Date | null;
  to?: Date | null;
  /** Inclusive, where `to` is exclusive (the current client's `to`). */
  until?: Date | null;
  outcome?: string | null;
  /** The server's own work only (no actor): the current client's `actor` naming the server. */
  byServer?: boolean;
};

/** The filter's conditions in SQL, or a 400 naming the filter that is not one. */
function conditions(filter: AuditLogFilter): Sql {
  const where = [sql`e."organization_id" = ${filter.organizationId}`];
  if (filter.type != null) {
    if (!isEventType(filter.type)) throw badRequest(`type: not an event type: ${JSON.stringify(filter.type)}`);
    where.push(sql`e."type" = ${filter.type}`);
  }
  if (filter.outcome != null) {
    if (!(OUTCOMES as readonly string[]).includes(filter.outcome)) throw badRequest(`outcome: must be one of ${OUTCOMES.join(', ')}`);
    where.push(sql`e."outcome" = ${filter.outcome}`);
  }
  if (filter.actor != null) where.push(sql`e."actor_user_id" = ${filter.actor}`);
  if (filter.byServer) where.push(sql`e."actor_user_id" is null`);
  if (filter.target != null) where.push(sql`e."target_ids" @> array[${filter.target}]::text[]`);
  if (filter.from && filter.to && filter.from >= filter.to) throw badRequest('to: must be later than from');
  if (filter.from) where.push(sql`e."occurred_at" >= ${filter.from}`);
  if (filter.to) where.push(sql`e."occurred_at" < ${filter.to}`);
  if (filter.from && filter.until && filter.from > filter.until) throw badRequest('to: must not be earlier than from');
  if (filter.until) where.push(sql`e."occurred_at" <= ${filter.until}`);
  return join(where, ' and ');
}

/** A page identifier of this list holds one sequence number (a forged one is a 400, never a cast error). */
function checkPage(page: string | null | undefined): void {
  if (!page) return;
  const parts = decodeCursor(page);
  if (parts.length !== 1 || !Number.isSafeInteger(parts[0]) || (parts[0] as number) < 0) throw badRequest('page: not a page identifier returned by this list');
}

/**
 * An organization's audit log as a list, newest first: a keyset on `seq` (the insertion order), read
 * through the index of the filter given: (organization, seq), (organization, type, seq),
 * (organization, actor, seq), or the GIN index of target ids (scripts/bench-audit-log.ts shows the plans).
 */
export function auditLogQuery(filter: AuditLogFilter): Omit<ListQuery<DomainEventRow>, 'count'> {
  return {
    entity: DomainEvent,
    alias: 'e',
    where: conditions(filter),
    order: [{ sql: 'e."seq"', desc: true, of: (row) => row.seq }],
  };
}

/** One page of an organization's audit log (see auditLogQuery). */
export async function readAuditLog(em: EntityManager, filter: AuditLogFilter, args: PageArgs): Promise<Omit<Page<Plain<DomainEventRow>>, 'count'>> {
  checkPage(args.page);
  return readUncountedPage<DomainEventRow>(em, auditLogQuery(filter), args);
}
