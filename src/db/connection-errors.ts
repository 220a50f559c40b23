import { setImmediate } from 'node:timers/promises';

/*
 * Which failures mean that the database could not be reached, as opposed to a statement it refused.
 * The driver reports them in several shapes: MikroORM's DriverException (the pg error's fields copied
 * onto it), pg's own errors (plain-row reads, pool clients), Node's socket errors (an AggregateError
 * when every address of the host refused), and pg-pool's timeouts, which carry only a message. Only
 * SQLSTATE classes and messages that speak of the connection count: a constraint, syntax or any other
 * statement error is never one of them.
 */

/**
 * `terminated`: a connection that was open went away under a statement (the server ended the session,
 * the socket was reset); a new connection may well work. `unavailable`: no connection could be had.
 */
export type ConnectionFailure = 'terminated' | 'unavailable';

/** SQLSTATEs of sessions ended by the server: admin_shutdown, crash_shutdown, idle_session_timeout. */
const TERMINATED_STATES = new Set(['57P01', '57P02', '57P05']);
/** connection_does_not_exist, connection_failure. */
const LOST_CONNECTION_STATES = new Set(['08003', '08006']);
/** Socket errors of an open connection. */
const TERMINATED_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);
/** Socket and name-resolution errors of a connection attempt. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN']);

/** pg's messages for a connection that ended while in use (they carry no code). */
const TERMINATED_MESSAGES = new Set(['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable']);
/** pg and pg-pool's messages for a connection that could not be had (or was closed by this process). */
const UNAVAILABLE_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'Client was closed and is not queryable',
]);

type Reported = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

function failureOfOne(error: Reported): ConnectionFailure | null {
  const code = typeof error.code === 'string' ? error.code : '';
  if (TERMINATED_STATES.has(code) || LOST_CONNECTION_STATES.has(code) || TERMINATED_SOCKET_CODES.has(code)) return 'terminated';
  // Class 08 (connection exception), 57P03 cannot_connect_now (starting up, shutting down), 57P04
  // database_dropped, 53300 too_many_connections: the server did not give a usable session.
  if (/^08[0-9A-Z]{3}$/.test(code) || code === '57P03' || code === '57P04' || code === '53300' || UNREACHABLE_CODES.has(code)) return 'unavailable';
  // MikroORM appends " - detail: …" to converted messages; pg's own messages come bare.
  const message = typeof error.message === 'string' ? error.message.split('\n')[0]! : '';
  if (TERMINATED_MESSAGES.has(message)) return 'terminated';
  if (UNAVAILABLE_MESSAGES.has(message)) return 'unavailable';
  return null;
}

/** Whether `error` (or what caused it) says that the database could not be reached, and how. */
export function connectionFailureOf(error: unknown): ConnectionFailure | null {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const reported = next as Reported;
    const failure = failureOfOne(reported);
    if (failure) return failure;
    pending.push(reported.cause);
    if (Array.isArray(reported.errors)) pending.push(...reported.errors);
  }
  return null;
}

/**
 * Waits for the I/O already pending to be handled. A server that restarts, or a proxy that resets,
 * drops every connection at once: before a statement runs again, the pool takes in the ends of the
 * others, so that the new attempt gets a live connection or makes a new one rather than another dead one.
 */
export const afterPendingConnectionEvents = () => setImmediate();
