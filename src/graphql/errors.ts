import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from '../logger.js';
import { variableErrorMessage } from './variable-errors.js';

/** The catalogue of failures. Each code has one HTTP status, used by the REST facade and by /graphql. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  /** GraphQL's own code for it (Apollo Server's), kept so that clients meet one code for one thing. */
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes that say the request as a whole could not be served rather than one field failed: on /graphql
 * they set the answer's HTTP status and headers too (Apollo applies an error's `extensions.http`).
 */
const WHOLE_REQUEST_CODES: ReadonlySet<ErrorCode> = new Set(['SERVICE_UNAVAILABLE']);

/** A failure the caller can act on; its message is safe to show. */
export class DomainError extends GraphQLError {
  /** Response headers that go with the failure (e.g. Retry-After), on both doors. */
  public readonly headers: Readonly<Record<string, string>>;

  constructor(
    public readonly code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    const headers = options.headers ?? {};
    const http = WHOLE_REQUEST_CODES.has(code) ? { http: { status: ERROR_STATUS[code], headers: new Map(Object.entries(headers)) } } : {};
    super(message, { extensions: { code, status: ERROR_STATUS[code], ...http } });
    this.headers = headers;
    // What the database said, for the logs; never shown to the caller.
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

export const badRequest = (message: string) => new DomainError('BAD_REQUEST', message);
export const unauthenticated = (message = 'Authentication required: send "Authorization: Bearer <token>"') =>
  new DomainError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const payloadTooLarge = (message: string) => new DomainError('PAYLOAD_TOO_LARGE', message);

/** Seconds a caller is asked to wait (Retry-After) before trying again while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

export const serviceUnavailable = (cause?: unknown) =>
  new DomainError('SERVICE_UNAVAILABLE', 'Database unavailable, retry later', { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) }, cause });

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

/** Keeps domain and GraphQL input errors as they are; masks everything else as a 500 without internals. */
export function maskError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const domain = domainErrorIn(error);
  if (domain) return { ...formatted, extensions: { code: domain.code, status: ERROR_STATUS[domain.code] } };
  if (isInternal(error)) {
    return { message: 'Internal server error', path: formatted.path, locations: formatted.locations, extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } };
  }
  const code = formatted.extensions?.code as string | undefined;
  if (code && code in ERROR_STATUS) return formatted;
  return { ...formatted, message: variableErrorMessage(formatted.message), extensions: { code: 'BAD_REQUEST', status: 400 } };
}

/**
 * Logs what the caller is not told, with the request's logger (so with its request id): an internal
 * error with its stack, or why the database was unavailable. Other failures are the caller's.
 */
export function logFailure(logger: Logger, error: unknown, fields: Record<string, unknown> = {}, internal = isInternal(error)) {
  const domain = domainErrorIn(error);
  if (domain?.code === 'SERVICE_UNAVAILABLE') logger.warn({ ...fields, err: domain.cause }, 'database unavailable');
  else if (internal) logger.error({ ...fields, err: error instanceof GraphQLError ? (error.originalError ?? error) : error }, 'unexpected error');
}
