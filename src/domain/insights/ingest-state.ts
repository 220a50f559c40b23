import type { Orm } from '../../kernel/database.js';
import { BatchPool } from './batch-pool.js';
import type { GroupCommit } from './group-commit.js';
import { scheduledRollUps } from './rollup.js';
import { newGroupCommit, type StoredBatch } from './storage.js';

/**
 * What ingestion keeps between requests, for the life of one server (or command-line session): the
 * worker threads that prepare batches, the group commit that stores them, and which sites' roll-ups are
 * scheduled. The pool and the group commit are made on first use (a server that ingests nothing starts
 * no thread); `close()`, from the server's `stop()`, ends them, so nothing outlives the server.
 */
export class IngestState {
  private pool?: { size: number; pool: BatchPool };
  private group?: GroupCommit<StoredBatch>;
  /** A cache that can be lost (see `scheduledRollUps`). */
  readonly scheduledRollUps = scheduledRollUps();

  /** `stored` hears how many events each acknowledged batch held (the server's metrics count them). */
  constructor(
    private readonly orm: Orm,
    readonly stored: (events: number) => void = () => {},
  ) {}

  /** The worker pool of `size` threads (a new one when the configured size changed). */
  batchPool(size: number): BatchPool {
    if (this.pool?.size !== size) {
      void this.pool?.pool.close();
      this.pool = { size, pool: new BatchPool(size) };
    }
    return this.pool.pool;
  }

  /** The group commit of this server's database. */
  groupCommit(): GroupCommit<StoredBatch> {
    // An EntityManager of its own: no requester's EntityManager, nor what it holds, is kept.
    return (this.group ??= newGroupCommit(this.orm.em.fork()));
  }

  /** Answers the batches given (their requests wait for them), writes what the group commit holds, then ends the workers. */
  async close(): Promise<void> {
    const pool = this.pool?.pool;
    const group = this.group;
    this.pool = undefined;
    this.group = undefined;
    await pool?.close();
    await group?.close();
  }
}

declare module '../../kernel/context.js' {
  interface AreaServices {
    /** The server's ingestion workers and group commit. */
    ingest: IngestState;
  }
}
