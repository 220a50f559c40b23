import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { parse as parseContentType } from 'content-type';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { ERROR_STATUS, type ErrorCode } from '../kernel/errors.js';

/*
 * Request bodies of both doors are JSON in UTF-8: anything else is refused before it is parsed, so
 * that no operation ever runs on a body it did not get (a form or a text body used to read as `{}`,
 * invalid bytes as U+FFFD).
 */

/** Whether a request carries a body at all (a length above zero, or a chunked one). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** Why a body's declared type is not JSON in UTF-8, or null when it is. */
function unsupportedType(header: string | undefined): string | null {
  if (!header) return 'a body needs Content-Type: application/json';
  let type: string;
  let charset: string | undefined;
  try {
    const parsed = parseContentType(header);
    type = parsed.type;
    charset = parsed.parameters.charset?.toLowerCase();
  } catch {
    return 'Content-Type is malformed';
  }
  if (type !== 'application/json' && !type.endsWith('+json')) return `Content-Type ${type} is not supported: send application/json`;
  if (charset && charset !== 'utf-8' && charset !== 'utf8') return `charset ${charset} is not supported: send UTF-8`;
  return null;
}

/**
 * Answers a request failure in the error shape of the door it came to: GraphQL's `{"errors": [...]}` on
 * /graphql, the contract's `{"error": {...}}` elsewhere.
 */
export function sendDoorError(req: Request, res: Response, code: ErrorCode, message: string) {
  const status = ERROR_STATUS[code];
  if (req.originalUrl.startsWith('/graphql')) return res.status(status).json({ errors: [{ message, extensions: { code, status } }] });
  return res.status(status).json({ error: { code: status, message } });
}

/** Refuses (415) a body that is not declared JSON in UTF-8. */
export const requireJsonBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req)) return next();
  const problem = unsupportedType(req.headers['content-type']);
  return problem ? sendDoorError(req, res, 'UNSUPPORTED_MEDIA_TYPE', problem) : next();
};

/** Makes body parsers refuse bytes that are not UTF-8 (they would otherwise read as U+FFFD). */
export function verifyUtf8(_req: IncomingMessage, _res: unknown, bytes: Buffer) {
  if (!isUtf8(bytes)) throw Object.assign(new Error('Request body is not valid UTF-8'), { status: 400, expose: true, type: 'encoding.invalid' });
}

/** The JSON body parser of both doors (the REST routes that take their body as bytes have their own). */
export const jsonBody = (limit: string) => express.json({ limit, verify: verifyUtf8, type: ['application/json', '+json'] });

/**
 * Refuses a POST to /graphql that carries no request (no body, or an object without a field) with a
 * message saying what to send: Apollo's own names Content-Types and keys.
 */
export const requireGraphqlOperation: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST') return next();
  const body: unknown = req.body;
  const empty = body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) return next();
  return sendDoorError(req, res, 'BAD_REQUEST', 'body: a JSON object with the GraphQL document in "query" is required, e.g. {"query": "{ viewer { id } }"}');
};

/** What a body is told when it did not parse as the door's JSON: valid JSON that is no object (`null`, `5`, `"a"`) is not malformed. */
export const NOT_AN_OBJECT = 'body: expected a JSON object';
export function unparsedBodyMessage(error: { body?: unknown }): string {
  if (typeof error.body !== 'string') return 'Malformed JSON body';
  try {
    JSON.parse(error.body);
    return NOT_AN_OBJECT;
  } catch {
    return 'Malformed JSON body';
  }
}
