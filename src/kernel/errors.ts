import { GraphQLError } from 'graphql';

/*
 * The failures of the domain, for both doors: a DomainError is a GraphQLError so that resolvers can
 * throw it as is; how the doors format and log failures is src/http/door-errors.ts.
 */

/** The catalogue of failures. Each code has one HTTP status, used by the REST facade and by /graphql. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** An `If-Match` (REST) or `ifMatch` (GraphQL) that the resource's current ETag does not satisfy. */
  PRECONDITION_FAILED: 412,
  /** A request that is well formed but cannot be applied as sent (an idempotency key used for another request). */
  UNPROCESSABLE_CONTENT: 422,
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
const WHOLE_REQUEST_CODES: ReadonlySet<ErrorCode> = new Set(['RATE_LIMITED', 'SERVICE_UNAVAILABLE']);

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
export const unauthenticated = (message = 'Authentication required: send "Authorization: Bearer <token>"') => new DomainError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const preconditionFailed = (message: string) => new DomainError('PRECONDITION_FAILED', message);
export const payloadTooLarge = (message: string) => new DomainError('PAYLOAD_TOO_LARGE', message);

/** Seconds a caller is asked to wait (Retry-After) before trying again while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

export const serviceUnavailable = (cause?: unknown) =>
  new DomainError('SERVICE_UNAVAILABLE', 'Database unavailable, retry later', { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) }, cause });
