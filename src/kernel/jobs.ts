import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

// The durable jobs' types, which areas name for their handlers; the queue that runs them is src/jobs/.

/** How a run ended, for whoever counts them (the server's metrics). */
export type JobOutcome = 'completed' | 'failed';

/** What a job may use besides its database: the configuration and the logger; and who hears how runs end. */
export type JobEnv = { config: Config; logger: Logger; onOutcome?: (kind: string, outcome: JobOutcome) => void };

/** What a running job gets: its environment, and its claim on the job. */
export type JobRun = JobEnv & {
  /** Aborted (with a LeaseLost) once this run has lost its claim: long work (a fetch) stops, its outcome is discarded. */
  signal: AbortSignal;
  /**
   * Runs `work` in a transaction that holds the claim (the job's row locked): LeaseLost once another run
   * has taken the job. A handler running outside a transaction writes what a stale run must not write
   * through it.
   */
  whileClaimed<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T>;
};

/**
 * A job handler. It must be idempotent: a job whose worker died is run again once its lease has run
 * out. It runs in one transaction, which also holds the claim and deletes the finished job (so its
 * writes count exactly once), unless it is marked `outsideTransaction`: a handler that awaits outside
 * I/O (a fetch) must not hold a transaction meanwhile (the embedded database has one connection), so
 * it gets a plain EntityManager, keeps each of its writes short, and makes those a stale run must not
 * make through `run.whileClaimed`.
 */
export type JobHandler = ((em: EntityManager, payload: Record<string, unknown>, now: Date, run: JobRun) => Promise<void>) & {
  outsideTransaction?: boolean;
};
