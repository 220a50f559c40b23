import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { enqueue, type JobHandler } from '../../jobs/queue.js';
import { newId } from '../../ids.js';
import type { Writer } from './storage.js';
import { GRAINS, ROLLUPS, rollupTable } from './tables.js';

/*
 * Each ingest appends its counts to the rollups as `delta` rows (one per key it touched), which is far
 * cheaper for the database than upserting through a unique key. Readers sum a key's rows, so answers
 * are exact whatever has been merged. This job merges them: for a site, every hour or day bucket that
 * has ended and holds delta rows is replaced by one row per key (delta = false), so each bucket is
 * rewritten about once, after its traffic. (Aggregates read rollups for whole hours and days of their
 * range, which end before now: the buckets still open are read from raw rows anyway.) Ingestion
 * schedules the job, at most one pending per site, for the end of the current hour; a run that leaves
 * delta rows behind (buckets still open) schedules the next.
 */

export const COMPACT_JOB = 'compact-site-insights';
const HOUR = 3_600_000;
/** A minute after the hour: late batches of the hour that ended are merged with it. */
export const COMPACT_AFTER_HOUR_MS = 60_000;
const nextRun = (now: Date) => new Date(Math.floor(now.getTime() / HOUR) * HOUR + HOUR + COMPACT_AFTER_HOUR_MS);
const GRAIN_MS = { hour: HOUR, day: 24 * HOUR };

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');

/** One statement per rollup table: the ended buckets with delta rows, deleted and re-inserted summed. */
const COMPACTIONS = ROLLUPS.flatMap((rollup) =>
  GRAINS.map((grain) => {
    const table = `"${rollupTable(rollup, grain)}"`;
    // `rollup` too: a row inserted into a partition must name it.
    const key = quoted(['rollup', 'site_id', 'time', ...rollup.dimensions]);
    const sql = `with moved as (
        delete from ${table} where "site_id" = ? and "time" in (select distinct "time" from ${table} where "site_id" = ? and "delta" and "time" <= ?)
        returning *)
      insert into ${table} (${key}, "events", "delta") select ${key}, sum("events"), false from moved group by ${key}`;
    return { sql, grain };
  }),
);

/**
 * Sites whose compaction this process has scheduled, with when it is due: a cache that can be lost
 * (then the next ingest asks the database again). Bounded: the least recently used entry goes first.
 */
const scheduled = new LRUCache<string, number>({ max: 10_000 });

/** Within an ingest transaction: schedules the compaction of the site's rollups unless one is pending. */
export async function scheduleCompaction(writer: Writer, siteId: string, now: Date): Promise<void> {
  const due = scheduled.get(siteId);
  if (due !== undefined && due > now.getTime()) return;
  const runAt = nextRun(now);
  await writer.query(
    `insert into "job" ("id", "kind", "payload", "run_at", "attempts", "created_at")
     select $1::varchar, $2::varchar, jsonb_build_object('siteId', $3::text), $4::timestamptz, 0, $5::timestamptz
     where not exists (select 1 from "job" where "kind" = $2::varchar and "payload"->>'siteId' = $3::text and "locked_until" is null)`,
    [newId(), COMPACT_JOB, siteId, runAt.toISOString(), now.toISOString()],
  );
  scheduled.set(siteId, runAt.getTime());
}

/**
 * Merges a site's delta rows in every bucket that ended by `now`; running it again merges only what
 * came since. Answers whether delta rows remain (in buckets still open).
 */
export async function compactSiteRollups(em: EntityManager, siteId: string, now: Date): Promise<boolean> {
  const connection = em.getConnection();
  const trx = em.getTransactionContext();
  for (const { sql, grain } of COMPACTIONS) {
    // A bucket starting at `time` has ended once time + its length <= now.
    const lastEnded = new Date(now.getTime() - GRAIN_MS[grain]).toISOString();
    await connection.execute(sql, [siteId, siteId, lastEnded], 'run', trx);
  }
  const [left] = await connection.execute<{ left: boolean }[]>(`select exists (select 1 from "insight_rollup" where "site_id" = ? and "delta") as "left"`, [siteId], 'all', trx);
  return Boolean(left?.left);
}

const compactJob: JobHandler = async (em, payload, now) => {
  const siteId = String(payload.siteId);
  if (await compactSiteRollups(em, siteId, now)) enqueue(em, { now: () => now }, COMPACT_JOB, { siteId }, nextRun(now));
};

export const compactionJobHandlers = { [COMPACT_JOB]: compactJob };
