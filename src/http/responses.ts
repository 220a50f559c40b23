import type { Request, Response } from 'express';
import { domainErrorOf } from '../db/database-errors.js';
import { DomainError, ERROR_STATUS } from '../kernel/errors.js';
import { logFailure } from './door-errors.js';
import type { Logger } from '../kernel/logger.js';

/** The contract's error body, `{"error": {"code": <status>, "message": "..."}}`, with its status. */
export function sendError(res: Response, status: number, message: string, headers: Readonly<Record<string, string>> = {}) {
  res
    .set(headers)
    .status(status)
    .json({ error: { code: status, message } });
}

/** The request's own logger (pino-http's child, carrying the request id), else the application's. */
export const requestLogger = (req: Request, fallback: Logger): Logger => (req as { log?: Logger }).log ?? fallback;

/**
 * Answers a failure outside GraphQL execution in the contract's error body: a domain error, or a
 * database failure that means one (503 with Retry-After while the database is unreachable), with its
 * status and headers; anything else is logged with the request id and answered 500 without internals.
 */
export function sendFailure(req: Request, res: Response, error: unknown, fallbackLogger: Logger, fields: Record<string, unknown> = {}) {
  const failure = domainErrorOf(error) ?? error;
  logFailure(requestLogger(req, fallbackLogger), failure, fields);
  if (failure instanceof DomainError) return sendError(res, ERROR_STATUS[failure.code], failure.message, failure.headers);
  return sendError(res, 500, 'Internal server error');
}
