import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../db/statements.js';

/**
 * Work that must outlive a request. Claimed one at a time with SKIP LOCKED so any number of instances can
 * run workers; a claim is a lease (`lockedUntil`, renewed while the job runs) and a token (`claim`) that
 * the run's renewals, completion and failure must match (src/jobs/lease.ts).
 */
export const Job = defineEntity({
  name: 'Job',
  indexes: [
    { properties: ['runAt'] },
    // A job by kind, and a webhook endpoint's delivery job by its endpoint (at most one each).
    { name: 'job_kind_webhook_id_index', expression: `create index "job_kind_webhook_id_index" on "job" ("kind", ("payload"->>'webhookId'))` },
  ],
  properties: {
    id: p.string().primary(),
    kind: p.string(),
    payload: p.json<Record<string, unknown>>(),
    runAt: p.datetime(),
    attempts: p.integer(),
    lockedUntil: p.datetime().nullable(),
    /** Token of the run that holds the job (null when unclaimed). */
    claim: p.string().length(36).nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export type JobRow = Plain<InferEntity<typeof Job>>;
