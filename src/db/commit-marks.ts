import type { EventManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from 'sql-template-tag';

/*
 * A mark that commits with a request's first write, in that write's own transaction: its statement runs
 * just before the COMMIT of the first transaction of the request's EntityManager (or of a transaction
 * forked from it), so the database holds the mark exactly when it holds the write. A statement written
 * outside a transaction (statements.ts `execute`) is wrapped in one to carry it. Idempotency keys mark
 * their record so, and a request whose write committed never runs again (src/http/idempotency/).
 */

/** Whether a request's first write, and the mark with it, has committed. */
export type CommitMark = { readonly committed: boolean };

const marks = new WeakMap<EventManager, CommitMark>();

/** The transaction an event is about (the driver's object; a savepoint has a name). */
type EventTransaction = object & { savepointName?: string };
const isTransaction = (transaction: unknown): transaction is EventTransaction => typeof transaction === 'object' && transaction !== null;

class FirstCommitMark implements EventSubscriber, CommitMark {
  committed = false;
  /** The transactions the mark was written in: the first of them to commit carries it. */
  private readonly carriers = new WeakSet<object>();

  constructor(private readonly statement: () => Sql) {}

  async beforeTransactionCommit({ em, transaction }: TransactionEventArgs): Promise<void> {
    // A savepoint commits nothing: the transaction around it carries the mark.
    if (this.committed || !isTransaction(transaction) || transaction.savepointName !== undefined) return;
    const { sql, values } = this.statement();
    await em.getConnection().execute(sql, [...values], 'run', transaction);
    this.carriers.add(transaction);
  }

  afterTransactionCommit({ transaction }: TransactionEventArgs): void {
    if (isTransaction(transaction) && this.carriers.has(transaction)) this.committed = true;
  }
}

/**
 * Writes the statement `statement()` makes (at the time of the commit) in the first transaction `em`
 * (made by `ownEntityManager`) commits, as part of it. A failure of the statement fails that
 * transaction: a write never commits without its mark.
 */
export function markFirstCommit(em: EntityManager, statement: () => Sql): CommitMark {
  const events = em.getEventManager();
  if (em.global || marks.has(events)) throw new Error('markFirstCommit needs an EntityManager of its own (ownEntityManager), marked once');
  const mark = new FirstCommitMark(statement);
  marks.set(events, mark);
  events.registerSubscriber(mark);
  return mark;
}

/** Whether a statement `em` writes outside a transaction must be wrapped in one, to carry a mark not yet committed. */
export function awaitsCommitMark(em: EntityManager): boolean {
  if (em.isInTransaction()) return false;
  const mark = marks.get(em.getEventManager());
  return mark !== undefined && !mark.committed;
}
