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
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** A failure the caller can act on; its message is safe to show. */
export class DomainError extends GraphQLError {
  constructor(
    public readonly code: ErrorCode,
    message: string,
  ) {
    super(message, { extensions: { code, status: ERROR_STATUS[code] } });
  }
}

export const badRequest = (message: string) => new DomainError('BAD_REQUEST', message);
export const unauthenticated = (message = 'Authentication required: send "Authorization: Bearer <token>"') =>
  new DomainError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const payloadTooLarge = (message: string) => new DomainError('PAYLOAD_TOO_LARGE', message);

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

/**
 * Keeps domain and GraphQL input errors as they are; masks everything else as a 500 without internals,
 * logging the original with its stack.
 */
export function maskError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof DomainError) return { ...formatted, extensions: { code: original.code, status: ERROR_STATUS[original.code] } };
  if (error instanceof GraphQLError && !formatted.path) {
    const code = formatted.extensions?.code as string | undefined;
    if (code === 'INTERNAL_SERVER_ERROR') return internal(formatted, error, logger);
    if (code && code in ERROR_STATUS) return formatted;
    return { ...formatted, message: variableErrorMessage(formatted.message), extensions: { code: 'BAD_REQUEST', status: 400 } };
  }
  return internal(formatted, original, logger);
}

function internal(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  logger.error({ err: error, path: formatted.path }, 'unexpected error while resolving');
  return { message: 'Internal server error', path: formatted.path, locations: formatted.locations, extensions: { code: 'INTERNAL', status: 500 } };
}
