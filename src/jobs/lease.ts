import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import type { Clock } from '../kernel/clock.js';
import type { Orm } from '../kernel/database.js';
import { execute, executeReturning } from '../db/statements.js';
import type { Logger } from '../kernel/logger.js';
import { Job, type JobRow } from './entities.js';

/** A run's claim on its job is gone: taken over after its lease ran out, or given back as the instance stops. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/**
 * One run's hold on one job: a lease (`locked_until`) renewed by a heartbeat while the run lasts, and a
 * claim token written with the claim. Renewing, completing and failing match the token, so a run whose
 * lease ran out and whose job was claimed again changes nothing of the job: its signal is aborted and
 * its outcome discarded. Times are the injected clock's (instances' clocks agree within NTP; a skew
 * only shortens or lengthens the wait for a takeover, the token keeps a stale run from counting).
 */
export class JobLease {
  private readonly aborter = new AbortController();
  private heldUntil: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private renewing = false;
  private beating = false;

  private constructor(
    private readonly orm: Orm,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly leaseMs: number,
    readonly job: JobRow,
    readonly claim: string,
  ) {
    this.heldUntil = job.lockedUntil!.getTime();
  }

  /**
   * Claims the due job that has waited longest, if any: one not claimed, or whose lease has run out.
   * SKIP LOCKED: instances claiming at once take different jobs, and a job whose row a run holds in its
   * transaction is not taken.
   */
  static async claimNext(orm: Orm, clock: Clock, logger: Logger, leaseMs: number): Promise<JobLease | undefined> {
    const now = clock.now();
    const claim = randomUUID();
    const em = orm.em.fork();
    const [row] = await executeReturning<{ id: string }>(
      em,
      sql`update "job" set "locked_until" = ${new Date(now.getTime() + leaseMs)}, "claim" = ${claim}, "attempts" = "attempts" + 1
       where "id" = (select "id" from "job" where "run_at" <= ${now} and ("locked_until" is null or "locked_until" <= ${now})
                     order by "run_at" limit 1 for update skip locked)
       returning "id"`,
    );
    if (!row) return undefined;
    const job = await em.findOneOrFail(Job, { id: row.id });
    return new JobLease(orm, clock, logger, leaseMs, job, claim);
  }

  /** Aborted once the claim is lost; the reason is a LeaseLost. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  /** Renews the lease every third of it until the run ends (or the claim is lost). */
  startHeartbeat(): void {
    this.beating = true;
    this.heartbeat = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Stops renewing: the run has ended, or its row lock now holds the job. A renewal in flight is ignored. */
  stopHeartbeat(): void {
    this.beating = false;
    clearInterval(this.heartbeat);
  }

  private async renew(): Promise<void> {
    // A renewal that hangs (the database does not answer) cannot vouch for the claim past its lease.
    if (this.clock.now().getTime() >= this.heldUntil && this.renewing) return this.lose('its lease ran out before it could be renewed');
    if (this.renewing || !this.beating) return;
    this.renewing = true;
    const until = this.clock.now().getTime() + this.leaseMs;
    try {
      const renewed = await execute(
        this.orm.em.fork(),
        sql`update "job" set "locked_until" = ${new Date(until)} where "id" = ${this.job.id} and "claim" = ${this.claim}`,
      );
      if (!this.beating) return;
      if (renewed === 1) this.heldUntil = until;
      else this.lose('another run has claimed it');
    } catch (err) {
      if (!this.beating) return;
      this.logger.warn({ err, job: this.job.id, kind: this.job.kind }, 'job lease not renewed; trying again');
      if (this.clock.now().getTime() >= this.heldUntil) this.lose('its lease ran out before it could be renewed');
    } finally {
      this.renewing = false;
    }
  }

  private lose(why: string): void {
    this.stopHeartbeat();
    if (this.aborter.signal.aborted) return;
    this.logger.warn({ job: this.job.id, kind: this.job.kind }, `job run lost its claim: ${why}; its outcome will be discarded`);
    this.aborter.abort(new LeaseLost(`job ${this.job.id} (${this.job.kind}): ${why}`));
  }

  /**
   * Within `tx`, locks the job's row if this claim still holds it, else throws LeaseLost. Until `tx`
   * ends, nobody can claim the job: what `tx` writes is this run's, once and not over a newer run's.
   */
  async hold(tx: EntityManager): Promise<void> {
    this.signal.throwIfAborted();
    const rows = await executeReturning(tx, sql`select 1 from "job" where "id" = ${this.job.id} and "claim" = ${this.claim} for update`);
    if (rows.length === 0) {
      this.lose('another run has claimed it');
      this.signal.throwIfAborted();
    }
  }

  /** Deletes the finished job if the claim still holds it (in `em`'s transaction if it is in one); false when the run was discarded. */
  async complete(em: EntityManager): Promise<boolean> {
    this.stopHeartbeat();
    const deleted = await execute(em, sql`delete from "job" where "id" = ${this.job.id} and "claim" = ${this.claim}`);
    return deleted === 1;
  }

  /** Schedules the failed job again at `retryAt` if the claim still holds it; false when the run was discarded. */
  async fail(em: EntityManager, retryAt: Date, error: unknown): Promise<boolean> {
    this.stopHeartbeat();
    const updated = await execute(
      em,
      sql`update "job" set "locked_until" = null, "claim" = null, "run_at" = ${retryAt}, "last_error" = ${String(error)} where "id" = ${this.job.id} and "claim" = ${this.claim}`,
    );
    return updated === 1;
  }

  /**
   * Gives the job back, due at once here or elsewhere: a claim not started (its try not counted), or a
   * run cut short by a stopping instance (its signal aborted first). A row that a transaction of the run
   * still holds is left to that transaction (it commits, or its lease runs out).
   */
  async release(options: { started: boolean }): Promise<void> {
    this.stopHeartbeat();
    try {
      await execute(
        this.orm.em.fork(),
        sql`update "job" set "locked_until" = null, "claim" = null, "attempts" = "attempts" - ${options.started ? 0 : 1}
         where "id" in (select "id" from "job" where "id" = ${this.job.id} and "claim" = ${this.claim} for update skip locked)`,
      );
    } finally {
      // Only now: the run's failure, recorded as it stops, must not come first (a retry after a backoff).
      if (options.started) this.aborter.abort(new LeaseLost(`job ${this.job.id} (${this.job.kind}): given back as the instance stops`));
    }
  }
}

/**
 * On the embedded database one process holds the data directory (src/db/data-dir-lock.ts), so at the
 * start of its worker every claim is a dead process's: they are given back at once instead of after
 * their lease.
 */
export async function releaseClaimsOfDeadProcess(orm: Orm): Promise<number> {
  return execute(orm.em.fork(), sql`update "job" set "locked_until" = null, "claim" = null where "locked_until" is not null`);
}
