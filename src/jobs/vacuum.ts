import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw } from 'sql-template-tag';
import type { Clock } from '../kernel/clock.js';
import { enqueueUnlessPending, type JobHandler, type JobRun } from './queue.js';
import { embeddedDatabaseOf } from '../db/embedded-databases.js';
import { execute, executeReturning } from '../db/statements.js';

/*
 * The embedded database (PGlite: PostgreSQL in one process, one session) has no autovacuum: rows that
 * updates and deletes leave dead are never reclaimed, statistics go stale and index-only scans find no
 * visibility map. This durable job does autovacuum's work there, with autovacuum's own rule and
 * settings: a table is vacuumed once its dead rows (or rows inserted since its last vacuum) pass a
 * threshold plus a fraction of its rows, or its oldest transaction id nears wraparound; analyzed once
 * the rows changed since its last analyze pass theirs. It runs every few minutes (it schedules its next
 * run; one pending at a time) and soon after large deletes (`requestVacuum`). On a PostgreSQL server
 * autovacuum does this: the job is neither scheduled nor requested there, and does nothing if run.
 */

export const VACUUM_JOB = 'database.vacuum';
/** Autovacuum looks every minute; stale tables here cost less than a check of every table that often. */
export const VACUUM_INTERVAL_MS = 5 * 60_000;

const setting = (name: string) => raw(`current_setting('${name}')::float8`);
/** reltuples is -1 for a table never vacuumed nor analyzed: autovacuum counts it as empty. */
const threshold = (base: string, scale: string) => sql`${setting(base)} + ${setting(scale)} * greatest(c."reltuples", 0)`;

/**
 * The tables of the application's schema and the system catalogs (temporary tables of insights
 * aggregates churn them) that autovacuum would vacuum or analyze now, most dead rows first.
 */
const DUE_TABLES = sql`select "table", "vacuum", "analyze" from (
    select format('%I.%I', n."nspname", c."relname") as "table", s."n_dead_tup" as "dead",
      s."n_dead_tup" > ${threshold('autovacuum_vacuum_threshold', 'autovacuum_vacuum_scale_factor')}
        or s."n_ins_since_vacuum" > ${threshold('autovacuum_vacuum_insert_threshold', 'autovacuum_vacuum_insert_scale_factor')}
        or age(c."relfrozenxid") > ${setting('autovacuum_freeze_max_age')} as "vacuum",
      s."n_mod_since_analyze" > ${threshold('autovacuum_analyze_threshold', 'autovacuum_analyze_scale_factor')} as "analyze"
    from pg_stat_all_tables s
    join pg_class c on c."oid" = s."relid"
    join pg_namespace n on n."oid" = c."relnamespace"
    where c."relkind" in ('r', 'm') and n."nspname" in (current_schema(), 'pg_catalog')
  ) due where "vacuum" or "analyze" order by "dead" desc`;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Vacuums (and analyzes) the embedded database's tables that are due, one statement per table with a
 * turn of the event loop between them, so that requests queue behind each for a short while only
 * (the database runs on this thread). Answers the tables vacuumed or analyzed. Once `signal` is aborted
 * (the job is given back as the server stops) it stops between tables.
 */
export async function vacuumDueTables(em: EntityManager, signal?: AbortSignal): Promise<string[]> {
  // The session's counts reach the statistics views at most once a second; this one pushes them now.
  await executeReturning(em, sql`select pg_stat_force_next_flush()`);
  const due = await executeReturning<{ table: string; vacuum: boolean; analyze: boolean }>(em, DUE_TABLES);
  for (const { table, vacuum, analyze } of due) {
    // VACUUM cannot run in a transaction: each is a statement of its own. `table` is quoted by format('%I.%I').
    await execute(em, vacuum ? sql`vacuum ${raw(analyze ? '(analyze) ' : '')}${raw(table)}` : sql`analyze ${raw(table)}`);
    await nextTurn();
    signal?.throwIfAborted();
  }
  return due.map(({ table }) => table);
}

/** Schedules the next periodic run, unless one is pending; on a server, nothing (autovacuum). */
export async function scheduleVacuum(em: EntityManager, now: Date): Promise<void> {
  if (!embeddedDatabaseOf(em)) return;
  await enqueueUnlessPending(em, VACUUM_JOB, new Date(now.getTime() + VACUUM_INTERVAL_MS), now);
}

/**
 * After a large delete (or update): a run now, in the caller's unit of work, so that the space the rows
 * held is reclaimed soon rather than at the next periodic run. On a server, nothing (autovacuum).
 */
export async function requestVacuum(em: EntityManager, clock: Clock): Promise<void> {
  if (!embeddedDatabaseOf(em)) return;
  const now = clock.now();
  await enqueueUnlessPending(em, VACUUM_JOB, now, now, { earlier: true });
}

const vacuumJob: JobHandler = Object.assign(
  async (em: EntityManager, _payload: Record<string, unknown>, now: Date, run: JobRun) => {
    if (!embeddedDatabaseOf(em)) return;
    const tables = await vacuumDueTables(em, run.signal);
    if (tables.length) run.logger.debug({ tables }, 'vacuumed the embedded database');
    await scheduleVacuum(em, now);
  },
  { outsideTransaction: true },
);

export const vacuumJobHandlers = { [VACUUM_JOB]: vacuumJob };
