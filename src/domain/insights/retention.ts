import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw, type Sql } from 'sql-template-tag';
import { requestVacuum } from '../../jobs/vacuum.js';
import { execute, executeReturning } from '../../db/statements.js';
import { deleteInSteps } from '../../db/delete-in-steps.js';
import { enqueueUnlessPending, type JobHandler, type JobRun } from '../../jobs/queue.js';
import { rollUpSite } from './rollup.js';
import { ROLLUP_STATE } from './tables.js';

/*
 * Retention of raw insights events (INSIGHTS_RETENTION_DAYS): an hourly durable job deletes the events
 * older than the retention. Rollups stay, so counts they hold keep answering for older ranges; what only
 * raw rows answer (distinct visitors and sessions, single events, claims...) stops at the retention.
 * Before anything goes, every site whose rollups do not yet hold its expiring events is rolled up. Whole
 * monthly partitions past the retention are truncated (kept, empty: ingest caches which partitions
 * exist); the month that straddles the cutoff loses its expired rows in bounded steps.
 */

export const RETENTION_JOB = 'insights.retention';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const RETENTION_INTERVAL_MS = HOUR;
/** Rows deleted per statement: each is a short transaction, whatever the backlog. */
const ROWS_PER_STEP = 10_000;
/** On a server, how long truncating a month may wait for readers before its rows go one step at a time instead. */
const TRUNCATE_LOCK_TIMEOUT = '5s';

const rollupState = raw(`"${ROLLUP_STATE}"`);

/** Rows whose counts the rollups hold (their site's watermark is at or past the cutoff), or of a deleted site. */
const expendable = (
  alias: string,
  cutoff: Date,
) => sql`(exists (select 1 from ${rollupState} r where r."site_id" = ${raw(alias)}."site_id" and r."rolled_up_to" >= ${cutoff})
  or not exists (select 1 from "site" s where s."id" = ${raw(alias)}."site_id"))`;

/** Existing sites with events before the cutoff that their rollups do not hold yet. */
const sitesToRollUp = (cutoff: Date) => sql`select s."id" from "site" s left join ${rollupState} r on r."site_id" = s."id"
  where (r."rolled_up_to" is null or r."rolled_up_to" < ${cutoff}) and exists (select 1 from "insight_event" e where e."site_id" = s."id" and e."time" < ${cutoff})`;

/** The partitions of the events table with their bounds (null: unbounded, or the default partition). */
const bound = (keyword: string) => raw(`(regexp_match(pg_get_expr(c."relpartbound", c."oid"), '${keyword} \\(''([^'']*)''\\)'))[1]::timestamptz`);
const PARTITIONS = sql`select c."oid"::regclass::text as "table", ${bound('FROM')} as "from", ${bound('TO')} as "to"
  from pg_inherits i join pg_class c on c."oid" = i."inhrelid" where i."inhparent" = '"insight_event"'::regclass`;

/** A partition, by its name as the database quotes it (`oid::regclass::text` above). */
const partitionTable = (partition: Partition) => raw(partition.table);

/** A site created since the roll-up with events before the cutoff in this partition keeps it from being truncated. */
const holdsUnrolledEvents = (table: Sql, cutoff: Date) => sql`select exists (select 1 from "site" s
  where not exists (select 1 from ${rollupState} r where r."site_id" = s."id" and r."rolled_up_to" >= ${cutoff})
  and exists (select 1 from ${table} e where e."site_id" = s."id")) as "held"`;

type Partition = { table: string; from: Date | null; to: Date | null };
export type RetentionOutcome = { truncated: string[]; deleted: number };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Truncates a partition whose every row has expired, unless a row's counts are not rolled up; answers whether it did. */
async function truncateExpired(em: EntityManager, partition: Partition, cutoff: Date): Promise<boolean> {
  try {
    return await em.transactional(async (tx) => {
      const work = tx;
      // SET takes no parameters: the timeout is a literal of the code's.
      await execute(work, raw(`set local lock_timeout = '${TRUNCATE_LOCK_TIMEOUT}'`));
      await execute(work, sql`lock table ${partitionTable(partition)} in access exclusive mode`);
      const [state] = await executeReturning<{ held: boolean }>(work, holdsUnrolledEvents(partitionTable(partition), cutoff));
      if (state?.held) return false;
      await execute(work, sql`truncate ${partitionTable(partition)}`);
      return true;
    });
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return false; // lock_timeout: busy readers
    throw error;
  }
}

/** Deletes a partition's expired rows whose counts are rolled up, ROWS_PER_STEP at a time; answers how many. */
async function deleteExpired(em: EntityManager, partition: Partition, cutoff: Date, signal?: AbortSignal): Promise<number> {
  const table = partitionTable(partition);
  const step = sql`delete from ${table} where ctid = any(array(
    select e.ctid from ${table} e where e."time" < ${cutoff} and ${expendable('e', cutoff)} limit ${raw(String(ROWS_PER_STEP))}))`;
  return deleteInSteps(em, step, ROWS_PER_STEP, signal);
}

/**
 * Deletes the raw events before `cutoff`, once the rollups hold their counts (sites lagging behind are
 * rolled up to `now` first). Running it again deletes only what expired since. Once `signal` is aborted
 * (a job that lost its claim) it stops between steps.
 */
export async function purgeExpiredEvents(em: EntityManager, cutoff: Date, now: Date, signal?: AbortSignal): Promise<RetentionOutcome> {
  for (const { id } of await executeReturning<{ id: string }>(em, sitesToRollUp(cutoff))) await rollUpSite(em, id, now, signal);

  const outcome: RetentionOutcome = { truncated: [], deleted: 0 };
  const partitions = await executeReturning<{ table: string; from: Date | string | null; to: Date | string | null }>(em, PARTITIONS);
  for (const row of partitions) {
    const partition: Partition = { table: row.table, from: row.from === null ? null : new Date(row.from), to: row.to === null ? null : new Date(row.to) };
    if (partition.from !== null && partition.from >= cutoff) continue;
    const [rows] = await executeReturning<{ any: boolean }>(
      em,
      sql`select exists (select 1 from ${partitionTable(partition)} where "time" < ${cutoff}) as "any"`,
    );
    if (!rows?.any) continue;
    if (partition.to !== null && partition.to <= cutoff && (await truncateExpired(em, partition, cutoff))) outcome.truncated.push(partition.table);
    else outcome.deleted += await deleteExpired(em, partition, cutoff, signal);
    await nextTurn();
    signal?.throwIfAborted();
  }
  return outcome;
}

/** Schedules the next hourly run unless one is pending; with no retention (0 days), nothing. */
export async function scheduleInsightsRetention(em: EntityManager, retentionDays: number, now: Date): Promise<void> {
  if (retentionDays <= 0) return;
  await enqueueUnlessPending(em, RETENTION_JOB, new Date(now.getTime() + RETENTION_INTERVAL_MS), now);
}

const retentionJob: JobHandler = Object.assign(
  async (em: EntityManager, _payload: Record<string, unknown>, now: Date, run: JobRun) => {
    const days = run.config.insightsRetentionDays;
    if (days <= 0) return;
    const outcome = await purgeExpiredEvents(em, new Date(now.getTime() - days * DAY), now, run.signal);
    if (outcome.truncated.length || outcome.deleted) {
      run.logger.info({ ...outcome, retentionDays: days }, 'purged insights events past their retention');
      // Truncated months leave nothing to reclaim; deleted rows do.
      if (outcome.deleted) await requestVacuum(em, { now: () => now });
    }
    await scheduleInsightsRetention(em, days, now);
  },
  { outsideTransaction: true },
);

export const retentionJobHandlers = { [RETENTION_JOB]: retentionJob };
