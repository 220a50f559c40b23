import { setImmediate } from 'node:timers/promises';

/*
 * Which failures mean that the database could not be reached or would not serve this server, as opposed
 * to a statement it refused. The driver reports them in several shapes: MikroORM's DriverException (the
 * pg error's fields copied onto it), pg's own errors (plain-row reads, pool clients), Node's socket
 * errors (an AggregateError when every address of the host refused), and pg-pool's timeouts, which
 * carry only a message. Only SQLSTATEs and messages that speak of the connection or of starting a
 * session count: a constraint, syntax or any other statement error is never one of them.
 */

/**
 * `terminated`: a connection that was open went away under a statement (the server ended the session,
 * the socket was reset); a new connection may well work. `unavailable`: no connection could be had,
 * for now (unreachable, starting or stopping, out of connections, closed to connections).
 * `refused`: the server answers but will not give this server a session until its operator acts
 * (authentication, no such database, no right to connect): waiting alone does not mend it.
 */
export type ConnectionFailure = 'terminated' | 'unavailable' | 'refused';

/** SQLSTATEs of sessions ended by the server: admin_shutdown, crash_shutdown, idle_session_timeout. */
const TERMINATED_STATES = new Set(['57P01', '57P02', '57P05']);
/** connection_does_not_exist, connection_failure. */
const LOST_CONNECTION_STATES = new Set(['08003', '08006']);
/** Socket errors of an open connection. */
const TERMINATED_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);
/** Socket and name-resolution errors of a connection attempt. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs only a session's start raises: 57P03 cannot_connect_now (starting up, shutting down),
 * 53300 too_many_connections (the server's, the database's or the role's limit); 57P04
 * database_dropped ends a session whose database went away.
 */
const NO_SESSION_STATES = new Set(['57P03', '57P04', '53300']);
/**
 * invalid_authorization_specification, invalid_password, and invalid_catalog_name: no such database
 * (the statements of this server name no database, so only a session's start raises it).
 */
const REFUSED_STATES = new Set(['28000', '28P01', '3D000']);

/**
 * The server function that checks the database a new session asks for (ALLOW_CONNECTIONS, the CONNECT
 * privilege). Its SQLSTATEs are also those of statements (55000 object_not_in_prerequisite_state,
 * 42501 insufficient_privilege): the routine the server reports tells them apart, in any language.
 */
const DATABASE_CHECK_ROUTINE = 'CheckMyDatabase';

/** pg's messages for a connection that ended while in use (they carry no code). */
const TERMINATED_MESSAGES = new Set(['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable']);
/** pg and pg-pool's messages for a connection that could not be had (or was closed by this process). */
const UNAVAILABLE_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'Client was closed and is not queryable',
]);

type Reported = { code?: unknown; message?: unknown; routine?: unknown; cause?: unknown; errors?: unknown };

function failureOfOne(error: Reported): ConnectionFailure | null {
  const code = typeof error.code === 'string' ? error.code : '';
  // MikroORM appends " - detail: …" to converted messages; pg's own messages come bare.
  const message = typeof error.message === 'string' ? error.message.split('\n')[0] : '';
  if (TERMINATED_STATES.has(code) || LOST_CONNECTION_STATES.has(code) || TERMINATED_SOCKET_CODES.has(code)) return 'terminated';
  // Class 08 (connection exception): the server did not give a usable session.
  if (/^08[0-9A-Z]{3}$/.test(code) || NO_SESSION_STATES.has(code) || UNREACHABLE_CODES.has(code)) return 'unavailable';
  if (REFUSED_STATES.has(code)) return 'refused';
  if (error.routine === DATABASE_CHECK_ROUTINE) {
    // ALTER DATABASE … ALLOW_CONNECTIONS false; REVOKE CONNECT ON DATABASE.
    if (code === '55000') return 'unavailable';
    if (code === '42501') return 'refused';
  }
  if (TERMINATED_MESSAGES.has(message)) return 'terminated';
  if (UNAVAILABLE_MESSAGES.has(message)) return 'unavailable';
  return null;
}

/**
 * pg and pg-pool's messages for a server that did not answer in time: a statement past the client's
 * `query_timeout`, a connection not made (or no pool slot free) within `connectionTimeoutMillis`.
 */
const TIMEOUT_MESSAGES = new Set(['Query read timeout', 'timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

/** Whether `error` is the driver giving up on a server that did not answer within its timeout. */
export function timedOut(error: unknown): boolean {
  const message = (error as Reported | null)?.message;
  return typeof message === 'string' && TIMEOUT_MESSAGES.has(message);
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

/** What the socket errors of a connection attempt mean. */
const SOCKET_ADVICE: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'the host name could not be resolved now',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/**
 * A connection failure in one line for the logs (its code and first line, without a stack): the first
 * error of the chain that says something, `55000 database "docs" is not currently accepting connections`.
 */
export function describeConnectionFailure(error: unknown): string {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const next = pending.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const { code: rawCode, message: rawMessage, cause, errors } = next as Reported;
    const code = typeof rawCode === 'string' ? rawCode : '';
    const message = typeof rawMessage === 'string' ? rawMessage.split('\n')[0] : '';
    if (SOCKET_ADVICE[code]) return `${code} (${SOCKET_ADVICE[code]})`;
    if (code && message && !message.includes(code)) return `${code} ${message}`;
    if (code || message) return code || message;
    pending.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return String(error);
}

/**
 * Waits for the I/O already pending to be handled. A server that restarts, or a proxy that resets,
 * drops every connection at once: before a statement runs again, the pool takes in the ends of the
 * others, so that the new attempt gets a live connection or makes a new one rather than another dead one.
 */
export const afterPendingConnectionEvents = () => setImmediate();
