import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../kernel/clock.js';
import type { Context } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import { DomainEvent, type DomainEventRow } from './entities.js';
import type { RequestOrigin } from '../kernel/origin.js';
import type { EventType } from './types.js';

/** What a change announces: its type, its organization, the ids it is about, and its payload. */
export type EventInput = {
  type: EventType;
  organizationId: string | null;
  /** The ids the event is about, by name: `{ spaceId, commentId }`. */
  target: Record<string, string | null | undefined>;
  /** The changed object in the contract's shape, and for an update `changes` (the fields that changed). */
  payload: Record<string, unknown>;
};

type Actor = { userId: string | null; tokenId: string | null; origin: RequestOrigin };

function eventRow(em: EntityManager, clock: Clock, actor: Actor, event: EventInput): DomainEventRow {
  const target = Object.fromEntries(Object.entries(event.target).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return em.create(DomainEvent, {
    id: newId(),
    uuid: randomUUID(),
    type: event.type,
    organizationId: event.organizationId,
    actorUserId: actor.userId,
    actorTokenId: actor.tokenId,
    clientIp: actor.origin.clientIp ?? null,
    door: actor.origin.door ?? null,
    operation: actor.origin.operation ?? null,
    outcome: 'succeeded',
    target,
    targetIds: [...new Set(Object.values(target))],
    payload: event.payload,
    occurredAt: clock.now(),
    dispatchedAt: null,
  } as DomainEventRow);
}

/**
 * Records a change made by the request of `ctx` in `em`'s unit of work: the event is written by the
 * same flush, in the same transaction, as the change (call it before that flush). A change whose
 * transaction rolls back announces nothing; one that commits is announced exactly once.
 */
export function recordEvent(ctx: Context, em: EntityManager, event: EventInput): DomainEventRow {
  const actor = { userId: ctx.viewer?.user.id ?? null, tokenId: ctx.viewer?.tokenId ?? null, origin: ctx.origin };
  return eventRow(em, ctx.clock, actor, event);
}

/**
 * Records a change the server made on its own (a job, retention): no door, no actor, unless the server
 * acts for a user it identified otherwise (`actorUserId`: a SAML sign-in).
 */
export function recordServerEvent(em: EntityManager, clock: Clock, event: EventInput, actorUserId: string | null = null): DomainEventRow {
  return eventRow(em, clock, { userId: actorUserId, tokenId: null, origin: {} }, event);
}
