import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventManager } from '@mikro-orm/core';

/*
 * The one rule that keeps a request's reads right after it writes: whatever the request's
 * EntityManager commits (a flush, a transaction, or a statement run outside one) tells its context,
 * which forgets everything it has read (see graphql/request-context.ts). Call sites list nothing.
 */

const listeners = new WeakMap<EventManager, () => void>();

/**
 * An EntityManager of its own for a request or job context: a fork with a fresh event manager, so that
 * its commits, and those of the transactions forked from it, reach that context only.
 */
export const ownEntityManager = (base: EntityManager): EntityManager => base.fork({ freshEventManager: true });

/** Calls `listener` after each write `em` (made by `ownEntityManager`) or a transaction forked from it commits. */
export function afterCommittedWrites(em: EntityManager, listener: () => void): void {
  const events = em.getEventManager();
  if (em.global || listeners.has(events)) throw new Error('afterCommittedWrites needs an EntityManager of its own (ownEntityManager)');
  listeners.set(events, listener);
  events.registerSubscriber({
    // A transaction's fork clones this event manager, so its commit arrives here too; a flush outside a
    // transaction commits its own. A flush with nothing to write commits nothing and tells nobody.
    afterTransactionCommit: () => listener(),
  });
}

/** Tells `em`'s listener of a statement that wrote outside a transaction (inside one, its commit tells). */
export function wroteOutsideTransaction(em: EntityManager): void {
  if (!em.isInTransaction()) listeners.get(em.getEventManager())?.();
}
