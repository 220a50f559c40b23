import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, ERROR_STATUS, type ErrorCode } from '../kernel/errors.js';
import { connectionFailureOf, describeConnectionFailure } from '../db/connection-errors.js';
import type { Logger } from '../kernel/logger.js';
import { variableErrorMessage } from './variable-errors.js';

/*
 * How both doors answer and log failures: the HTTP status of a GraphQL error, masking what is internal.
 * The failures themselves (DomainError and its catalogue) are the domain's: src/kernel/errors.ts.
 */

/** GraphQL's own codes (parse, validation, variable coercion) that mean bad input. */
const BAD_INPUT_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST']);

/**
 * The HTTP status of a GraphQL error: its catalogue code's, else 400 for errors raised before
 * execution reached a field (parse, validation, variable coercion), else 500.
 */
export function statusOf(error: GraphQLFormattedError | GraphQLError): number {
  const code = error.extensions?.code;
  if (typeof code === 'string' && code in ERROR_STATUS) return ERROR_STATUS[code as ErrorCode];
  if (typeof code === 'string' && BAD_INPUT_CODES.has(code)) return 400;
  if (!error.path) return 400;
  return 500;
}

/** The domain error behind a GraphQL error, if it is one. */
export function domainErrorIn(error: unknown): DomainError | undefined {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  return original instanceof DomainError ? original : undefined;
}

/**
 * Whether a GraphQL error becomes "Internal server error": anything but a domain error, GraphQL's own
 * input errors (raised before execution reached a field), and errors already carrying a catalogue code.
 * The doors log these with the request's logger; `maskError` hides them.
 */
export function isInternal(error: unknown): boolean {
  if (domainErrorIn(error)) return false;
  if (error instanceof GraphQLError && !error.path) {
    const code = error.extensions?.code;
    return code === undefined || code === 'INTERNAL_SERVER_ERROR';
  }
  return true;
}

/** The HTTP status an error sets for the whole answer (`extensions.http.status`), if any. */
function httpStatusOf(error: unknown): number | undefined {
  const status = error instanceof GraphQLError ? (error.extensions?.http as { status?: unknown } | undefined)?.status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/** Keeps domain and GraphQL input errors as they are; masks everything else as a 500 without internals. */
export function maskError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const domain = domainErrorIn(error);
  if (domain) return { ...formatted, extensions: { code: domain.code, status: ERROR_STATUS[domain.code] } };
  if (isInternal(error)) {
    return {
      message: 'Internal server error',
      path: formatted.path,
      locations: formatted.locations,
      extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
    };
  }
  const code = formatted.extensions?.code as string | undefined;
  // Apollo's refusals of the request (BAD_REQUEST) and the limits' come with a code but no status; a
  // status set for the answer (405 for a mutation over GET) is theirs.
  if (code && code in ERROR_STATUS)
    return { ...formatted, extensions: { ...formatted.extensions, status: httpStatusOf(error) ?? ERROR_STATUS[code as ErrorCode] } };
  return { ...formatted, message: variableErrorMessage(formatted.message), extensions: { code: 'BAD_REQUEST', status: 400 } };
}

/**
 * Logs what the caller is not told, with the request's logger (so with its request id): an internal
 * error with its stack, or why the database was unavailable, in one line without a stack (an outage
 * fails every request: a stack each would bury the cause). At `warn` while waiting may mend it, at
 * `error` when the database refuses this server until its operator acts. Other failures are the caller's.
 */
export function logFailure(logger: Logger, error: unknown, fields: Record<string, unknown> = {}, internal = isInternal(error)) {
  const domain = domainErrorIn(error);
  if (domain?.code === 'SERVICE_UNAVAILABLE') {
    const line = { ...fields, cause: domain.cause === undefined ? undefined : describeConnectionFailure(domain.cause) };
    if (connectionFailureOf(domain.cause) === 'refused') logger.error(line, 'database refuses this server: check DATABASE_URL, the role and the database');
    else logger.warn(line, 'database unavailable');
  } else if (internal) logger.error({ ...fields, err: error instanceof GraphQLError ? (error.originalError ?? error) : error }, 'unexpected error');
}

/**
 * Logs the failures of one GraphQL request (see logFailure): the database's unavailability once,
 * however many of its fields it failed.
 */
export function logRequestFailures(logger: Logger, errors: readonly GraphQLError[]) {
  let unavailable = false;
  for (const error of errors) {
    if (domainErrorIn(error)?.code === 'SERVICE_UNAVAILABLE') {
      if (unavailable) continue;
      unavailable = true;
    }
    logFailure(logger, error, { path: error.path });
  }
}
