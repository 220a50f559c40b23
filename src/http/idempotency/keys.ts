import type { Request, RequestHandler, Response } from 'express';
import { getOperationAST, OperationTypeNode, parse } from 'graphql';
import type { Counter } from 'prom-client';
import { authenticate } from '../../auth/authenticate.js';
import { domainErrorOf } from '../../db/database-errors.js';
import { ownEntityManager } from '../../db/writes.js';
import { markFirstCommit } from '../../db/commit-marks.js';
import { handOverAuthentication } from '../authenticated-request.js';
import type { AppDeps } from '../../kernel/context.js';
import type { Logger } from '../../kernel/logger.js';
import { logFailure } from '../door-errors.js';
import { sendDoorError } from '../body.js';
import { factsOf } from '../request-facts.js';
import { requestLogger } from '../responses.js';
import { requestFingerprint } from './fingerprint.js';
import { claimKey, committedMark, letGoOfKey, storeAnswer, type KeyOfUser, type StoredAnswer } from './records.js';

/*
 * Idempotency keys (draft-ietf-httpapi-idempotency-key-header), for every REST POST and every GraphQL
 * mutation: the first request with a key runs, and its answer is replayed to every later request of
 * the same user with the key and the same method, path and body (docs/behaviour/idempotency.md).
 * This step runs before the door's own: it authenticates the token (the key is the user's) and hands
 * the door the viewer, claims the key in the database, has the door's first committed write mark the
 * record in the write's own transaction (a crash before the answer is stored never lets the request run
 * again), and records the answer as the door writes it.
 */

export const IDEMPOTENCY_KEY = 'idempotency-key';
/** Set on an answer that is a replay of the first request's. */
export const IDEMPOTENCY_REPLAYED = 'idempotency-replayed';
/** The headers of an answer a replay repeats (the others are the moment's: request id, rate limit, date). */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];
/** Seconds a request that met its key in use is asked to wait. */
const RETRY_AFTER_IN_FLIGHT_S = '1';

/** A key is 1 to 255 visible ASCII characters, sent as they are or as a Structured Field string ("…"). */
const KEY = /^[\x21-\x7e]{1,255}$/;
const BAD_KEY = 'Idempotency-Key: must be 1 to 255 visible ASCII characters';
const USED_FOR_ANOTHER = 'Idempotency-Key: already used for another request (method, path or body); use a new key';
const RUNNING = 'Idempotency-Key: a request with this key is still being processed; retry later';
const ANSWER_LOST =
  'Idempotency-Key: the request with this key was carried out, but its answer was lost; it will not run again (read the resource to see the result)';

function keyOf(header: string): string | null {
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(header);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : header;
  return KEY.test(key) ? key : null;
}

/** Whether a GraphQL request runs a mutation (a document that does not parse is the door's to refuse). */
function isMutation(body: unknown, maxTokens: number): boolean {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  try {
    const document = parse(query, { noLocation: true, maxTokens });
    return getOperationAST(document, typeof operationName === 'string' ? operationName : undefined)?.operation === OperationTypeNode.MUTATION;
  } catch {
    return false;
  }
}

/**
 * Whether an answer is kept for replay: a success. A refusal (4xx) changed nothing, so the key is
 * freed and the request may be sent again as it is or corrected; a server error (5xx) may be retried.
 * On GraphQL a 200 may carry errors: it is kept when some root field answered without one (something
 * ran), not when every root field failed.
 */
function keepsAnswer(door: 'rest' | 'graphql', status: number, body: string): boolean {
  if (status < 200 || status >= 300) return false;
  if (door === 'rest') return true;
  try {
    const { data, errors } = JSON.parse(body) as { data?: Record<string, unknown> | null; errors?: { path?: unknown[] }[] };
    if (!errors?.length) return true;
    const failed = new Set(errors.map((error) => error.path?.[0]));
    return Object.keys(data ?? {}).some((field) => !failed.has(field));
  } catch {
    return false;
  }
}

function replay(res: Response, answer: StoredAnswer) {
  res.status(answer.status).set(answer.headers).set(IDEMPOTENCY_REPLAYED, 'true');
  if (answer.status === 204) return res.end();
  return res.send(answer.body);
}

/**
 * Records what the door answers, and before the answer's last bytes go out stores it for the key
 * (or frees the key): a client that got the answer and sends the request again meets the replay.
 */
function recordAnswer(res: Response, logger: Logger, settle: (status: number, headers: Record<string, string>, body: string) => Promise<void>) {
  const chunks: Buffer[] = [];
  const bytesOf = (chunk: unknown, encoding: unknown): Buffer => {
    if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    return Buffer.from(chunk as Uint8Array);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk) chunks.push(bytesOf(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    const [chunk, encoding] = args;
    if (chunk && typeof chunk !== 'function') chunks.push(bytesOf(chunk, encoding));
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    settle(res.statusCode, headers, Buffer.concat(chunks).toString('utf8'))
      .catch((error: unknown) => logger.error({ err: error }, 'could not record the answer to an idempotency key'))
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}

/** A failure of this step (the database unavailable: 503), in the shape of the request's door. */
function sendKeyFailure(req: Request, res: Response, error: unknown, logger: Logger) {
  const failure = domainErrorOf(error);
  logFailure(logger, failure ?? error);
  if (!failure) return sendDoorError(req, res, 'INTERNAL_SERVER_ERROR', 'Internal server error');
  res.set(failure.headers);
  return sendDoorError(req, res, failure.code, failure.message);
}

/**
 * The idempotency step of a door: for a POST with an `Idempotency-Key` (on /graphql, a mutation), by
 * an authenticated user, it replays the key's answer, refuses a key in use (409), used for another
 * request (422) or whose request committed and lost its answer (409), or claims the key and lets the
 * door run, handing it the viewer (the token is looked up once) and an EntityManager whose first
 * committed write marks the record in its own transaction. Requests without a key, and anonymous ones,
 * go on untouched (a bad token is the door's to refuse).
 */
export function honourIdempotencyKeys(deps: AppDeps, door: 'rest' | 'graphql', replays?: Counter<'door'>): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers[IDEMPOTENCY_KEY];
    if (req.method !== 'POST' || header === undefined) return next();
    if (door === 'graphql' && !isMutation(req.body, deps.config.graphql.maxTokens)) return next();
    const key = typeof header === 'string' ? keyOf(header) : null;
    if (key === null) return sendDoorError(req, res, 'BAD_REQUEST', BAD_KEY);
    try {
      // The door's EntityManager: the token is read on it once, and the door's writes mark the record.
      const em = ownEntityManager(deps.orm.em);
      const viewer = await authenticate(em, req.headers.authorization, deps.clock).catch(() => null);
      if (!viewer) return next();
      const owner: KeyOfUser = { userId: viewer.user.id, key };
      const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body);
      // The records' own statements run beside the door's EntityManager: they are no write of the request.
      const records = ownEntityManager(deps.orm.em);
      const claim = await claimKey(records, owner, fingerprint, deps.clock.now());
      if (!claim.won) {
        Object.assign(factsOf(res), { viewerId: viewer.user.id, tokenId: viewer.tokenId });
        if (claim.fingerprint !== fingerprint) return sendDoorError(req, res, 'UNPROCESSABLE_CONTENT', USED_FOR_ANOTHER);
        if (claim.held === 'running') {
          res.setHeader('retry-after', RETRY_AFTER_IN_FLIGHT_S);
          return sendDoorError(req, res, 'CONFLICT', RUNNING);
        }
        if (claim.held === 'answer lost') return sendDoorError(req, res, 'CONFLICT', ANSWER_LOST);
        replays?.inc({ door });
        return replay(res, claim.held);
      }
      markFirstCommit(em, () => committedMark(em, owner, claim.claim, deps.clock.now()));
      handOverAuthentication(res, { em, viewer });
      recordAnswer(res, requestLogger(req, deps.logger), (status, headers, body) =>
        keepsAnswer(door, status, body)
          ? storeAnswer(records, owner, claim.claim, { status, headers, body }, deps.clock.now())
          : letGoOfKey(records, owner, claim.claim),
      );
      return next();
    } catch (error) {
      return sendKeyFailure(req, res, error, requestLogger(req, deps.logger));
    }
  };
}
