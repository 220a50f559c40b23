import type { DomainEventRow } from '../../events/entities.js';
import { DomainEvent } from '../../events/entities.js';
import { EVENT_TYPES, isEventType } from '../../events/types.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { describeArgument } from '../../kernel/validation.js';
import { readAuditLog } from './log.js';

/*
 * The audit log in the current client's shape (@gitbook/api 0.202.0: listOrganizationAuditEvents,
 * getOrganizationAuditEvent, listOrganizationAuditEventActions). The events are the outbox's, as the
 * audit log lists them (log.ts); their actions are the event catalogue's types.
 */

/** 0.202.0's page size: 20 unless asked, at most 100. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
describeArgument('auditEvents', 'limit', { minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });

/** The actor id of the server's own work (jobs, sign-ins, start-up), which no user asked for. */
export const SERVER_ACTOR = 'server';

export type AuditEventFilter = { action?: string | null; actor?: string | null; target?: string | null; from?: Date | null; to?: Date | null };

/**
 * The organization's audit events, newest first (a keyset on the insertion order, read in SQL through
 * the index of the filter given): `action` an exact type of the catalogue, `actor` a user id (or
 * `server`), `target` any id the event is about, `from` and `to` both inclusive.
 */
export function listAuditEvents(ctx: Context, organizationId: string, filter: AuditEventFilter, { page, limit }: PageArgs) {
  if (filter.action != null && !isEventType(filter.action)) throw badRequest(`action: not an audit action: ${JSON.stringify(filter.action)}`);
  if (limit != null && (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)) throw badRequest(`limit: must be an integer from 1 to ${MAX_LIMIT}`);
  const byServer = filter.actor === SERVER_ACTOR;
  return readAuditLog(
    ctx.em,
    {
      organizationId,
      type: filter.action,
      actor: byServer ? null : filter.actor,
      byServer,
      target: filter.target,
      from: filter.from,
      until: filter.to,
    },
    { page, limit: limit ?? DEFAULT_LIMIT },
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One audit event of the organization by its uuid; 404 for any other (another organization's included). */
export async function auditEventOf(ctx: Context, organizationId: string, id: string): Promise<DomainEventRow> {
  // Anything but a uuid names no event (and never reaches the uuid column as a cast error).
  const event = UUID.test(id) ? await ctx.em.findOne(DomainEvent, { uuid: id.toLowerCase(), organizationId }) : null;
  if (!event) throw notFound('Audit event');
  return event;
}

/** Every action an audit event may have: the catalogue's types, labelled by what they mean. */
export const auditEventActions = () => ({
  items: Object.entries(EVENT_TYPES).map(([id, label]) => ({ object: 'audit-event-action', id, label })),
});

/** The resource kind an id's name tells (`commentReplyId` → `comment_reply`, `integrationName` → `integration`). */
const kindOf = (key: string) =>
  key
    .replace(/(Id|Name)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/**
 * What an event changed: the id named after its action's resource (`spaceId` of `space.moved`), else
 * the most specific id it names (the last: `userId` of a member's event), else its organization.
 */
export function auditTarget(event: DomainEventRow): { type: string; id: string } {
  const resource = event.type.slice(0, event.type.indexOf('.'));
  const ids = Object.entries(event.target);
  const own = ids.find(([key]) => key.toLowerCase() === `${resource.replaceAll('_', '')}id`);
  if (own) return { type: resource, id: own[1] };
  const last = ids.at(-1);
  return last ? { type: kindOf(last[0]), id: last[1] } : { type: 'organization', id: event.organizationId ?? '' };
}

/** Who made the change: a user, or the server's own work; a user's label is their display name now. */
export async function auditActor(ctx: Context, event: DomainEventRow) {
  if (!event.actorUserId) return { type: 'system', id: SERVER_ACTOR, label: null };
  const user = await ctx.loaders.user.load(event.actorUserId);
  return { type: 'user', id: event.actorUserId, label: user?.displayName ?? null };
}

/** Either door is the API; the rest is the server's own work (jobs, sign-ins, start-up). */
export const auditSource = (event: DomainEventRow) => (event.door ? 'api' : 'workflow');
