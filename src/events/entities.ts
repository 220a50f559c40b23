import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../db/statements.js';
import { TextArrayType } from '../db/text-array.js';

/**
 * The outbox: one row per state change of the domain, written in the transaction of the change (so a
 * rolled-back change announces nothing and a committed one is never missed). Webhook deliveries, the
 * audit log and live subscriptions all read from here. An insert notifies `eventChannel(schema)` once
 * its transaction commits (a trigger, see the migration): listeners wake at once, pollers catch up.
 */
export const DomainEvent = defineEntity({
  name: 'DomainEvent',
  tableName: 'domain_event',
  indexes: [
    // The audit log of an organization, newest first, and by type.
    { properties: ['organizationId', 'seq'] },
    { properties: ['organizationId', 'type', 'seq'] },
    { properties: ['organizationId', 'actorUserId', 'seq'] },
    // Any of the ids an event is about (the audit log's target filter).
    { name: 'domain_event_target_ids_index', properties: ['targetIds'], type: 'gin' },
    // Retention removes the oldest.
    { properties: ['occurredAt'] },
    // The fan-out reads the events not yet handed to webhook endpoints.
    { name: 'domain_event_undispatched_index', properties: ['seq'], where: 'dispatched_at is null' },
  ],
  properties: {
    id: p.string().primary(),
    /**
     * The event's id as the current client's audit events name it (0.202.0's `AuditEvent.id` is a uuid):
     * random, drawn when the event is recorded (the column's default filled it for events recorded
     * before it existed).
     */
    uuid: p.uuid().defaultRaw('gen_random_uuid()').unique(),
    /** Insertion order: ordering per endpoint and the audit log's keyset. */
    seq: p.bigint('number').autoincrement().unique(),
    /** `<resource>.<change>`, e.g. `comment.posted` (the catalogue: src/events/types.ts). */
    type: p.string().length(64),
    /** Null for changes that belong to no organization (none today; kept open for user-level events). */
    organizationId: p.string().nullable(),
    /** The user whose request made the change (null for the server's own work: jobs, retention). */
    actorUserId: p.string().nullable(),
    /** The API token that authenticated the request. */
    actorTokenId: p.string().nullable(),
    /** The client's address (as trusted proxies report it). */
    clientIp: p.string().nullable(),
    /** `rest`, `graphql`, or null for the server's own work. */
    door: p.string().length(16).nullable(),
    /** REST: the contract's operation id; GraphQL: the mutation's root field(s). */
    operation: p.string().nullable(),
    /** `succeeded` for changes; the audit log also keeps refused mutations (`denied`, `rejected`), which change nothing and are delivered nowhere. */
    outcome: p.string().length(16),
    /** The ids the event is about, by name (`spaceId`, `commentId`, ...). */
    target: p.json<Record<string, string>>(),
    /** The same ids as a list, for the target filter. */
    targetIds: p.type(TextArrayType).columnType('text[]'),
    /** The changed object in the contract's shape (and, for updates, what changed). */
    payload: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime(),
    /** When the fan-out handed the event to the organization's webhook endpoints (null: not yet). */
    dispatchedAt: p.datetime().nullable(),
  },
});
export type DomainEventRow = Plain<InferEntity<typeof DomainEvent>>;
