import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';

/**
 * A request made with an `Idempotency-Key`, per user and key: while it runs (`status` null) the row is
 * the lock that other requests with the key meet, on any instance; once answered, the answer to replay
 * (status, the headers a client needs, the body) until `expiresAt`. A row whose request committed a
 * write (`committedAt`) but holds no answer (its instance died, or it failed after the write) is never
 * run again: it answers that the request completed and its answer is lost. The user is no foreign key: the
 * table sits below the areas, and a deleted user's rows expire with the others.
 */
export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    userId: p.string().primary(),
    key: p.string().primary(),
    /** SHA-256 (hex) of the method, path and canonical body: what "the same request" means. */
    fingerprint: p.string().length(64),
    /** The token of the run that holds the row: only it completes or releases it. Null: let go of without an answer. */
    claim: p.string().length(36).nullable(),
    startedAt: p.datetime(),
    /** When the request's first write committed (written in that write's own transaction); null: nothing committed yet. */
    committedAt: p.datetime().nullable(),
    expiresAt: p.datetime(),
    /** The answer's HTTP status; null while the first request runs. */
    status: p.integer().nullable(),
    headers: p.json<Record<string, string>>().nullable(),
    body: p.text().nullable(),
  },
});
export type IdempotencyRecordRow = Plain<InferEntity<typeof IdempotencyRecord>>;
