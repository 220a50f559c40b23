import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import sql, { raw, type Sql } from 'sql-template-tag';
import { execute, executeReturning } from '../../db/statements.js';
import { newId } from '../../kernel/ids.js';
import { enqueue, type JobHandler, type JobRun } from '../../jobs/queue.js';
import { rollupLock, watermarkOf, watermarkQuery, type Writer } from './storage.js';
import { GRAINS, ROLLUP_STATE, ROLLUPS, rollupName, rollupTable, type Rollup } from './tables.js';

/*
 * The roll-up job of a site's insights. Rollups are computed from raw rows as hours end, a site's hours
 * in time order: the site's watermark (`insight_rollup_state`) says up to which UTC hour the rollups hold
 * every event. Each step, in a transaction of its own under the site's rollup lock (held alone, so that
 * no ingest stores events meanwhile), rolls up the raw rows from the watermark on, over a length that
 * keeps steps short (up to the last ended hour); the days whose end it reaches get their daily rows,
 * summed from their hourly ones; then the watermark moves. Ingests that store events before the watermark
 * (late ones) append their counts as delta rows; the job merges the delta rows of ended buckets into one
 * row per key (readers sum a key's rows, so answers are exact whatever has been merged).
 *
 * Ingestion schedules the job, at most one pending per site, for a minute after the end of the current
 * hour; a run that leaves delta rows behind (buckets still open) schedules the next.
 */

/** The job's kind; jobs queued under its former name (when it only merged delta rows) run it too. */
export const ROLLUP_JOB = 'roll-up-site-insights';
const FORMER_JOB = 'compact-site-insights';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A minute after the hour: batches of the hour that ended, sent at its very end, are in. */
export const ROLLUP_AFTER_HOUR_MS = 60_000;
const nextRun = (now: Date) => new Date(Math.floor(now.getTime() / HOUR) * HOUR + HOUR + ROLLUP_AFTER_HOUR_MS);
const GRAIN_MS = { hour: HOUR, day: DAY };

const quoted = (columns: readonly string[]) => raw(columns.map((c) => `"${c}"`).join(', '));

/** A step's statement over a site's rows of a time range. */
type StepStatement = (siteId: string, from: string, to: string) => Sql;

/** Per rollup: hourly rows from raw rows of a time range, and whole days' rows from their hours. */
const STEPS = ROLLUPS.map((rollup: Rollup): { hours: StepStatement; clearDays: StepStatement; days: StepStatement } => {
  const dimensions = quoted(rollup.dimensions);
  // `rollup` too: a row inserted into a partition must name it.
  const columns = sql`"rollup", "site_id", "time", ${dimensions}, "events", "delta"`;
  const hourTable = raw(`"${rollupTable(rollup, 'hour')}"`);
  const dayTable = raw(`"${rollupTable(rollup, 'day')}"`);
  return {
    hours: (siteId, from, to) => sql`insert into ${hourTable} (${columns})
      select ${raw(`'${rollupName(rollup, 'hour')}'`)}, "site_id", date_trunc('hour', "time", 'UTC'), ${dimensions}, count(*), false
      from "insight_event" where "site_id" = ${siteId} and "time" >= ${from} and "time" < ${to}
      group by "site_id", date_trunc('hour', "time", 'UTC'), ${dimensions}`,
    // Daily rows left from before rollups were computed by this job are counted in the hours too.
    clearDays: (siteId, from, to) => sql`delete from ${dayTable} where "site_id" = ${siteId} and "time" >= ${from} and "time" < ${to}`,
    days: (siteId, from, to) => sql`insert into ${dayTable} (${columns})
      select ${raw(`'${rollupName(rollup, 'day')}'`)}, "site_id", date_trunc('day', "time", 'UTC'), ${dimensions}, sum("events"), false
      from ${hourTable} where "site_id" = ${siteId} and "time" >= ${from} and "time" < ${to}
      group by "site_id", date_trunc('day', "time", 'UTC'), ${dimensions}`,
  };
});

/**
 * How much a step rolls up: about this many hourly rows, so that each step holds the site's lock
 * briefly whatever the site's traffic (a quiet site's year goes in a few steps, a busy site's hour in one).
 */
const ROWS_PER_STEP = 50_000;
const MAX_STEP_MS = 31 * DAY;

/** One statement per rollup table: the ended buckets with delta rows, deleted and re-inserted summed. */
const MERGES = ROLLUPS.flatMap((rollup) =>
  GRAINS.map((grain) => {
    const table = raw(`"${rollupTable(rollup, grain)}"`);
    const key = quoted(['rollup', 'site_id', 'time', ...rollup.dimensions]);
    const merge = (siteId: string, endedBy: string) => sql`with moved as (
        delete from ${table} where "site_id" = ${siteId} and "time" in (select distinct "time" from ${table} where "site_id" = ${siteId} and "delta" and "time" <= ${endedBy})
        returning *)
      insert into ${table} (${key}, "events", "delta") select ${key}, sum("events"), false from moved group by ${key}`;
    return { merge, grain };
  }),
);

/**
 * Sites whose roll-up a server has scheduled, with when it is due: a cache that can be lost (then the
 * next ingest asks the database again). Bounded: the least recently used entry goes first.
 */
export type ScheduledRollUps = LRUCache<string, number>;
export const scheduledRollUps = (): ScheduledRollUps => new LRUCache<string, number>({ max: 10_000 });

/** Within an ingest transaction: schedules the site's roll-up unless one is pending (`scheduled` says so). */
export async function scheduleRollUp(writer: Writer, scheduled: ScheduledRollUps, siteId: string, now: Date): Promise<void> {
  const due = scheduled.get(siteId);
  if (due !== undefined && due > now.getTime()) return;
  const runAt = nextRun(now);
  await writer.query(
    sql`insert into "job" ("id", "kind", "payload", "run_at", "attempts", "created_at")
     select ${newId()}::varchar, ${ROLLUP_JOB}::varchar, jsonb_build_object('siteId', ${siteId}::text), ${runAt.toISOString()}::timestamptz, 0, ${now.toISOString()}::timestamptz
     where not exists (select 1 from "job" where "kind" = any(${[ROLLUP_JOB, FORMER_JOB]}::varchar[]) and "payload"->>'siteId' = ${siteId}::text and "locked_until" is null)`,
  );
  scheduled.set(siteId, runAt.getTime());
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const iso = (time: number) => new Date(time).toISOString();

/**
 * One step of a site's roll-up, in its own transaction: from the watermark over `length` ms at most
 * (whole days once that is a day or more) or to `target`, whichever comes first. Answers the watermark
 * reached and how many hourly rows the step wrote, or undefined when there is nothing to do.
 */
async function rollUpStep(em: EntityManager, siteId: string, target: number, length: number): Promise<{ to: number; rows: number } | undefined> {
  return em.transactional(async (tx) => {
    const run = (statement: Sql) => executeReturning<Record<string, unknown>>(tx, statement);
    await run(rollupLock(siteId, 'exclusive'));
    // A site deleted meanwhile keeps no rollups (its raw rows are being purged).
    const [site] = await run(sql`select "id" from "site" where "id" = ${siteId}`);
    if (!site) return undefined;
    let from = watermarkOf(await run(watermarkQuery(siteId)));
    if (from === -Infinity) {
      const [first] = await run(sql`select (extract(epoch from min("time")) * 1000)::float8 as "time" from "insight_event" where "site_id" = ${siteId}`);
      const earliest = first?.time == null ? undefined : Number(first.time);
      from = earliest === undefined ? target : Math.min(target, Math.floor(earliest / HOUR) * HOUR);
    }
    if (from >= target) {
      // The migration's watermark may be ahead of the clock for a while: it never moves back.
      await run(sql`insert into ${raw(`"${ROLLUP_STATE}"`)} ("site_id", "rolled_up_to") values (${siteId}, ${iso(from)}) on conflict ("site_id") do nothing`);
      return undefined;
    }
    const to = Math.min(target, length >= DAY ? Math.floor(from / DAY) * DAY + Math.floor(length / DAY) * DAY : from + length);
    let rows = 0;
    for (const step of STEPS) rows += await execute(tx, step.hours(siteId, iso(from), iso(to)));
    // The days this step completes: from the day holding `from` (its earlier hours are rolled up already).
    const days = [Math.floor(from / DAY) * DAY, Math.floor(to / DAY) * DAY];
    if (days[1] > days[0]) {
      for (const step of STEPS) {
        await run(step.clearDays(siteId, iso(days[0]), iso(days[1])));
        await run(step.days(siteId, iso(days[0]), iso(days[1])));
      }
    }
    await run(
      sql`insert into ${raw(`"${ROLLUP_STATE}"`)} ("site_id", "rolled_up_to") values (${siteId}, ${iso(to)}) on conflict ("site_id") do update set "rolled_up_to" = excluded."rolled_up_to"`,
    );
    return { to, rows };
  });
}

/**
 * Rolls up a site's raw rows up to the last hour ended by `now`, then merges the delta rows of every
 * bucket ended by `now`; running it again does only what came since. Answers whether delta rows remain
 * (in buckets still open). Once `signal` is aborted (a job that lost its claim) it stops between steps.
 */
export async function rollUpSite(em: EntityManager, siteId: string, now: Date, signal?: AbortSignal): Promise<boolean> {
  const target = Math.floor(now.getTime() / HOUR) * HOUR;
  let length = DAY;
  for (let step = await rollUpStep(em, siteId, target, length); step && step.to < target; step = await rollUpStep(em, siteId, target, length)) {
    // The next step's length aims at ROWS_PER_STEP from this one's density.
    length = Math.min(MAX_STEP_MS, Math.max(HOUR, Math.floor((length * ROWS_PER_STEP) / Math.max(step.rows, 1) / HOUR) * HOUR));
    // Between steps the lock is free: ingests of the site go on (the embedded database serves them too).
    await nextTurn();
    signal?.throwIfAborted();
  }
  return em.transactional(async (tx) => {
    const work = tx;
    for (const { merge, grain } of MERGES) {
      // A bucket starting at `time` has ended once time + its length <= now.
      await execute(work, merge(siteId, iso(now.getTime() - GRAIN_MS[grain])));
    }
    const [left] = await executeReturning<{ left: boolean }>(
      work,
      sql`select exists (select 1 from "insight_rollup" where "site_id" = ${siteId} and "delta") as "left"`,
    );
    return Boolean(left?.left);
  });
}

const rollUpJob: JobHandler = Object.assign(
  async (em: EntityManager, payload: Record<string, unknown>, now: Date, run: JobRun) => {
    const siteId = String(payload.siteId);
    // The follow-up only from the run that holds the job: a stale run would schedule a second one.
    if (await rollUpSite(em, siteId, now, run.signal))
      await run.whileClaimed(em, async (tx) => void enqueue(tx, { now: () => now }, ROLLUP_JOB, { siteId }, nextRun(now)));
  },
  { outsideTransaction: true },
);

export const rollupJobHandlers = { [ROLLUP_JOB]: rollUpJob, [FORMER_JOB]: rollUpJob };
