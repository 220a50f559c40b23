import pRetry from 'p-retry';
import sql from 'sql-template-tag';
import type { Logger } from '../kernel/logger.js';
import { connectionFailureOf, describeConnectionFailure } from './connection-errors.js';
import type { Orm } from '../kernel/database.js';
import { executeReturning } from './statements.js';

/** A start that could not use the DATABASE_URL server: one line for the operator, without the password. */
export class DatabaseUnreachable extends Error {
  override name = 'DatabaseUnreachable';
}

/** Backoff between attempts: 250 ms, doubling up to 5 s. */
const FIRST_DELAY_MS = 250;
const LONGEST_DELAY_MS = 5000;

/** SQLSTATEs that no wait mends: bad password or role, no such database, no access to it. */
const REFUSALS: Record<string, string> = {
  '28P01': 'authentication failed',
  '28000': 'authentication refused',
  '3D000': 'no such database',
  '42501': 'not allowed to connect',
};

/** `host:port` of a PostgreSQL URL, as the operator wrote it (never its credentials). */
export function serverOf(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname || 'localhost'}:${port || 5432}`;
}

/** Whether waiting may mend the failure: the server is unreachable or not taking sessions for now, not refusing this one. */
const transient = (error: unknown) => {
  const failure = connectionFailureOf(error);
  return failure === 'unavailable' || failure === 'terminated';
};

/** The SQLSTATE or socket code in an error's chain, if any. */
function codeOf(error: unknown): string | undefined {
  for (let next = error as { code?: unknown; cause?: unknown } | undefined; next; next = next.cause as typeof next) {
    if (typeof next.code === 'string') return next.code;
  }
  return undefined;
}

/**
 * Waits until the PostgreSQL server answers: while it cannot be reached (refused, unknown host,
 * starting up, out of connections) it tries again with backoff, logging each failure in one line,
 * for at most `timeoutMs`; then, or at once for what waiting does not mend (credentials, an unknown
 * database), it throws DatabaseUnreachable naming the server and the cause.
 */
export async function reachDatabase(orm: Orm, url: string, options: { timeoutMs: number; logger: Logger }): Promise<void> {
  const server = serverOf(url);
  const started = Date.now();
  try {
    await pRetry(() => executeReturning(orm.em.fork(), sql`select 1`), {
      retries: Infinity,
      minTimeout: FIRST_DELAY_MS,
      maxTimeout: LONGEST_DELAY_MS,
      maxRetryTime: options.timeoutMs,
      shouldRetry: ({ error }) => transient(error),
      onFailedAttempt: ({ error, attemptNumber, retryDelay }) => {
        if (transient(error) && retryDelay > 0) {
          options.logger.warn(
            { server, attempt: attemptNumber, retryInMs: retryDelay, cause: describeConnectionFailure(error) },
            'database unreachable; retrying',
          );
        }
      },
    });
  } catch (error) {
    const refusal = REFUSALS[codeOf(error) ?? ''];
    const waited = Math.round((Date.now() - started) / 1000);
    const detail = transient(error)
      ? `${describeConnectionFailure(error)}; gave up after ${waited} s (DATABASE_CONNECT_TIMEOUT_MS)`
      : refusal
        ? `${refusal}: ${describeConnectionFailure(error)}`
        : describeConnectionFailure(error);
    throw new DatabaseUnreachable(`Cannot use the database server ${server} (DATABASE_URL): ${detail}`, { cause: error });
  }
}
