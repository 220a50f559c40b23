import { refTo, type JsonSchema } from './components.js';

/** The one error body of the REST door (src/http/responses.ts `sendError`). */
export const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer', description: 'The HTTP status of the answer.', minimum: 400, maximum: 599 },
        message: { type: 'string', description: 'What went wrong, safe to show (never internals).' },
      },
    },
  },
};

const RETRY_AFTER = { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } };

/** Each failure's response component, by status: its name and when it happens. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string; retryAfter?: true }> = {
  400: { name: 'BadRequest', description: 'Bad input: a parameter or body field is missing, malformed or out of bounds (the message names it).' },
  401: { name: 'Unauthorized', description: 'No token, or a token that is not valid.' },
  403: { name: 'Forbidden', description: 'The caller sees the resource but its role does not allow this operation.' },
  404: { name: 'NotFound', description: 'No such resource, or one the caller cannot see.' },
  409: {
    name: 'Conflict',
    description: 'The resource is not in a state that allows this operation, or a request with the same `Idempotency-Key` is still running.',
  },
  412: { name: 'PreconditionFailed', description: 'If-Match names no current ETag of the resource: it changed since it was read. Nothing was written.' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the server takes.' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not sent as JSON (`Content-Type: application/json`).' },
  422: { name: 'UnprocessableContent', description: 'The `Idempotency-Key` was used for another request (method, path or body): use a new key.' },
  429: { name: 'TooManyRequests', description: 'Rate limited: try again after `Retry-After` seconds.', retryAfter: true },
  500: { name: 'InternalServerError', description: 'The server failed; the message carries no internals.' },
  503: { name: 'ServiceUnavailable', description: 'The database is unreachable for now: try again after `Retry-After` seconds.', retryAfter: true },
};

/** `components.responses` of every failure. */
export function errorResponseComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(({ name, description, retryAfter }) => [
      name,
      {
        description,
        ...(retryAfter ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
        content: { 'application/json': { schema: refTo('Error') } },
      },
    ]),
  );
}

/** A reference to the response of a failure's status. */
export const errorResponse = (status: number): JsonSchema => ({ $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` });
