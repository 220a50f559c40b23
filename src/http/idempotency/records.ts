import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw } from 'sql-template-tag';
import { deleteInSteps } from '../../db/delete-in-steps.js';
import { execute, executeReturning, tableOf } from '../../db/statements.js';
import { IdempotencyRecord } from './entities.js';

/*
 * The records of idempotency keys in the database, shared by every instance: the row is the lock.
 * A request claims its key with one INSERT … ON CONFLICT: it wins the key when there is no row, when
 * the row has expired, or when the request that held it was abandoned (its instance died mid-request).
 * Whoever does not win reads the row: the answer to replay, or the request still running.
 */

const HOUR = 3_600_000;
/** How long an answer is replayed for its key. */
export const IDEMPOTENCY_TTL_MS = 24 * HOUR;
/**
 * How long a first request may hold its key before another with the key takes it over: only a
 * process that died mid-request leaves a row running that long (a failed request releases its key).
 */
export const ABANDONED_AFTER_MS = 5 * 60_000;
/** Expired records deleted per statement by the purge: a short statement, whatever the backlog. */
const RECORDS_PER_STEP = 5_000;

export type KeyOfUser = { userId: string; key: string };

/** A stored answer: what a replay sends. */
export type StoredAnswer = { status: number; headers: Record<string, string>; body: string };

export type Claim =
  { won: true; claim: string } | { won: false; fingerprint: string; answer: StoredAnswer | null /* null: the first request is still running */ };

type RecordRow = { fingerprint: string; status: number | null; headers: Record<string, string> | null; body: string | null };

/**
 * Claims `key` of a user for a request with `fingerprint`, or answers what holds it. A row that
 * disappears between the two statements (its request failed and released it) is claimed again.
 */
export async function claimKey(em: EntityManager, { userId, key }: KeyOfUser, fingerprint: string, now: Date): Promise<Claim> {
  const table = tableOf(em, IdempotencyRecord);
  const claim = randomUUID();
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS);
  for (;;) {
    const won = await executeReturning<{ claim: string }>(
      em,
      sql`insert into ${table} as r ("user_id", "key", "fingerprint", "claim", "started_at", "expires_at", "status", "headers", "body")
        values (${userId}, ${key}, ${fingerprint}, ${claim}, ${now}, ${expiresAt}, null, null, null)
        on conflict ("user_id", "key") do update set "fingerprint" = excluded."fingerprint", "claim" = excluded."claim",
          "started_at" = excluded."started_at", "expires_at" = excluded."expires_at", "status" = null, "headers" = null, "body" = null
        where r."expires_at" <= ${now} or (r."status" is null and r."started_at" <= ${abandonedBefore})
        returning r."claim"`,
    );
    if (won.length) return { won: true, claim };
    const [row] = await executeReturning<RecordRow>(
      em,
      sql`select "fingerprint", "status", "headers", "body" from ${table} where "user_id" = ${userId} and "key" = ${key}`,
    );
    if (!row) continue;
    const answer = row.status === null ? null : { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' };
    return { won: false, fingerprint: row.fingerprint, answer };
  }
}

/** Stores the answer of the request that holds `claim`, to replay for IDEMPOTENCY_TTL_MS from `now`. */
export async function storeAnswer(em: EntityManager, { userId, key }: KeyOfUser, claim: string, answer: StoredAnswer, now: Date): Promise<void> {
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  await execute(
    em,
    sql`update ${tableOf(em, IdempotencyRecord)} set "status" = ${answer.status}, "headers" = ${JSON.stringify(answer.headers)}::jsonb,
      "body" = ${answer.body}, "expires_at" = ${expiresAt} where "user_id" = ${userId} and "key" = ${key} and "claim" = ${claim}`,
  );
}

/** Frees the key the request holding `claim` leaves no answer for: the next request with it runs. */
export async function releaseKey(em: EntityManager, { userId, key }: KeyOfUser, claim: string): Promise<void> {
  await execute(em, sql`delete from ${tableOf(em, IdempotencyRecord)} where "user_id" = ${userId} and "key" = ${key} and "claim" = ${claim}`);
}

/** Deletes the records expired at `now`, RECORDS_PER_STEP at a time (through the expiry index); answers how many. */
export async function purgeExpiredRecords(em: EntityManager, now: Date, signal?: AbortSignal): Promise<number> {
  const table = tableOf(em, IdempotencyRecord);
  const step = sql`delete from ${table} where ("user_id", "key") in (
    select r."user_id", r."key" from ${table} r where r."expires_at" <= ${now} limit ${raw(String(RECORDS_PER_STEP))})`;
  return deleteInSteps(em, step, RECORDS_PER_STEP, signal);
}
