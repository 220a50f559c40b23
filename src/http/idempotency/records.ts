import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw, type Sql } from 'sql-template-tag';
import { deleteInSteps } from '../../db/delete-in-steps.js';
import { execute, executeReturning, tableOf } from '../../db/statements.js';
import { IdempotencyRecord } from './entities.js';

/*
 * The records of idempotency keys in the database, shared by every instance: the row is the lock.
 * A request claims its key with one INSERT … ON CONFLICT: it wins the key when there is no row, when
 * the row has expired, or when the request that held it was abandoned before any write of it committed
 * (its instance died mid-request). Whoever does not win reads the row: the answer to replay, the request
 * still running, or a request whose write committed and whose answer was lost.
 */

const HOUR = 3_600_000;
/** How long an answer is replayed for its key. */
export const IDEMPOTENCY_TTL_MS = 24 * HOUR;
/**
 * How long a first request may hold its key before another with the key takes it over (nothing of it
 * committed) or is told its answer was lost (its write committed): only a process that died
 * mid-request leaves a row running that long (a failed request lets go of its key).
 */
export const ABANDONED_AFTER_MS = 5 * 60_000;
/** Expired records deleted per statement by the purge: a short statement, whatever the backlog. */
const RECORDS_PER_STEP = 5_000;

export type KeyOfUser = { userId: string; key: string };

/** A stored answer: what a replay sends. */
export type StoredAnswer = { status: number; headers: Record<string, string>; body: string };

/** What holds a key another request won: its answer, the request still running, or a request that committed a write and left no answer. */
export type KeyHeld = StoredAnswer | 'running' | 'answer lost';

export type Claim = { won: true; claim: string } | { won: false; fingerprint: string; held: KeyHeld };

type RecordRow = {
  fingerprint: string;
  claim: string | null;
  startedAt: Date | string;
  committed: boolean;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
};

function heldBy(row: RecordRow, abandonedBefore: Date): KeyHeld {
  if (row.status !== null) return { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' };
  if (row.committed && (row.claim === null || new Date(row.startedAt) <= abandonedBefore)) return 'answer lost';
  return 'running';
}

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
          "started_at" = excluded."started_at", "expires_at" = excluded."expires_at", "committed_at" = null,
          "status" = null, "headers" = null, "body" = null
        where r."expires_at" <= ${now} or (r."status" is null and r."committed_at" is null and r."started_at" <= ${abandonedBefore})
        returning r."claim"`,
    );
    if (won.length) return { won: true, claim };
    const [row] = await executeReturning<RecordRow>(
      em,
      sql`select "fingerprint", "claim", "started_at" as "startedAt", "committed_at" is not null as "committed", "status", "headers", "body"
        from ${table} where "user_id" = ${userId} and "key" = ${key}`,
    );
    if (!row) continue;
    return { won: false, fingerprint: row.fingerprint, held: heldBy(row, abandonedBefore) };
  }
}

/**
 * The mark that the request holding `claim` committed a write, for its write's own transaction
 * (db/commit-marks.ts): from then on the key is never run again, answered or not, for
 * IDEMPOTENCY_TTL_MS from `now`.
 */
export function committedMark(em: EntityManager, { userId, key }: KeyOfUser, claim: string, now: Date): Sql {
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  return sql`update ${tableOf(em, IdempotencyRecord)} set "committed_at" = ${now}, "expires_at" = ${expiresAt}
    where "user_id" = ${userId} and "key" = ${key} and "claim" = ${claim}`;
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

/**
 * Lets go of the key the request holding `claim` leaves no answer for: when nothing of it committed the
 * key is freed (the next request with it runs); when a write of it committed, the record stays, without
 * an answer and held by nobody (the next request with it is told so, and nothing runs).
 */
export async function letGoOfKey(em: EntityManager, { userId, key }: KeyOfUser, claim: string): Promise<void> {
  const table = tableOf(em, IdempotencyRecord);
  const held = sql`"user_id" = ${userId} and "key" = ${key} and "claim" = ${claim}`;
  await execute(
    em,
    sql`with freed as (delete from ${table} where ${held} and "committed_at" is null returning 1)
      update ${table} set "claim" = null where ${held} and "committed_at" is not null`,
  );
}

/** Deletes the records expired at `now`, RECORDS_PER_STEP at a time (through the expiry index); answers how many. */
export async function purgeExpiredRecords(em: EntityManager, now: Date, signal?: AbortSignal): Promise<number> {
  const table = tableOf(em, IdempotencyRecord);
  const step = sql`delete from ${table} where ("user_id", "key") in (
    select r."user_id", r."key" from ${table} r where r."expires_at" <= ${now} limit ${raw(String(RECORDS_PER_STEP))})`;
  return deleteInSteps(em, step, RECORDS_PER_STEP, signal);
}
