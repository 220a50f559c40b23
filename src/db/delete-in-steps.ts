import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from 'sql-template-tag';
import { execute } from './statements.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `step` (a delete of at most `stepSize` rows) until it deletes fewer, with a turn of the event
 * loop between steps, so that each is a short statement whatever the backlog; answers how many rows
 * went. Once `signal` is aborted (a job that lost its claim) it stops between steps.
 */
export async function deleteInSteps(em: EntityManager, step: Sql, stepSize: number, signal?: AbortSignal): Promise<number> {
  let deleted = 0;
  for (;;) {
    const affected = await execute(em, step);
    deleted += affected;
    if (affected < stepSize) return deleted;
    await nextTurn();
    signal?.throwIfAborted();
  }
}
