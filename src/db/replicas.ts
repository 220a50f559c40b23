import pg from 'pg';
import type { Logger } from '../kernel/logger.js';
import type { Orm, ReplicaOptions } from '../kernel/database.js';
import { connectionFailureOf, describeConnectionFailure, timedOut } from './connection-errors.js';
import { releaseDeadConnections } from './dead-connections.js';
import { searchPathStatement } from './search-path.js';
import { SESSION_SETTINGS } from './session-settings.js';
import { redactUrl } from '../kernel/url-redaction.js';

/*
 * The streaming replicas reads may go to, and what the background health check knows of each: how far
 * it has replayed the primary's write-ahead log and how far behind it is. Requests never wait on a
 * replica's health: they read what the last check found (docs/scaling.md).
 */

/** How often each replica's replay position and lag are read. */
export const HEALTH_CHECK_INTERVAL_MS = 1000;
/** A health check or a new connection that takes longer than this counts as the replica not answering. */
const CHECK_TIMEOUT_MS = 2000;
/** Connections to one replica at most (as to the primary). */
const REPLICA_POOL_MAX = 10;

/** A write-ahead log position (`pg_lsn`, `16/B374D848`) as a number that compares. */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

export type Replica = {
  /** `replica1`, `replica2`…: the order of DATABASE_REPLICA_URLS (metrics and logs name it so). */
  readonly name: string;
  readonly pool: pg.Pool;
  inRotation: boolean;
  /** The position it had replayed at the last check (null: not known, or no longer a replica). */
  replayed: bigint | null;
  /** How stale its data may be, at the last check (null: not known). */
  lagMs: number | null;
  /** Reads that failed here and were answered by the primary since the start, by why. */
  readonly retriedOnPrimary: Record<RetryReason, number>;
};

/** Why a read left a replica for the primary: it went unanswered past REPLICA_QUERY_TIMEOUT_MS, or failed. */
export type RetryReason = 'timeout' | 'error';

/** Where a read ran: `primary`, or a replica by name. */
export type ReadTarget = string;

/** The primary's position at a check, to tell how long ago a replica's position was the primary's. */
type Sample = { at: number; lsn: bigint };

export class ReplicaSet {
  readonly replicas: Replica[];
  /** Reads answered by each target since the start. */
  readonly reads = new Map<ReadTarget, number>();
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private next = 0;

  constructor(
    private readonly primary: pg.Pool,
    urls: readonly string[],
    private readonly options: { maxLagMs: number; queryTimeoutMs: number; schema?: string; logger: Logger },
  ) {
    this.replicas = urls.map((url, i) => ({
      name: `replica${i + 1}`,
      pool: replicaPool(url, options),
      inRotation: false,
      replayed: null,
      lagMs: null,
      retriedOnPrimary: { timeout: 0, error: 0 },
    }));
    this.replicas.forEach((replica, i) => replica.pool.on('error', (error) => this.leave(replica, error, `pool error of ${redactUrl(urls[i])}`)));
  }

  /** Checks once now, then every HEALTH_CHECK_INTERVAL_MS until closed. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), HEALTH_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * A replica in rotation that has replayed past `position` (any in rotation when null), taking turns;
   * undefined when none has: the read goes to the primary rather than wait.
   */
  pick(position: bigint | null): Replica | undefined {
    const count = this.replicas.length;
    for (let i = 0; i < count; i++) {
      const replica = this.replicas[(this.next + i) % count];
      if (!replica.inRotation || replica.replayed === null) continue;
      if (position !== null && replica.replayed < position) continue;
      this.next = (this.next + i + 1) % count;
      return replica;
    }
    return undefined;
  }

  counted(target: ReadTarget): void {
    this.reads.set(target, (this.reads.get(target) ?? 0) + 1);
  }

  /**
   * A read failed on `replica` and is about to be asked of the primary. A replica that did not answer
   * in time, or lost the connection, leaves the rotation at once, before the next check: the reads
   * after this one go to the primary without waiting out the timeout too. A statement it refused (one
   * cancelled for a conflict with recovery) leaves it in rotation.
   */
  readFailed(replica: Replica, error: unknown): void {
    const reason: RetryReason = timedOut(error) ? 'timeout' : 'error';
    replica.retriedOnPrimary[reason]++;
    if (reason === 'timeout') this.leave(replica, error, 'read unanswered in time');
    else if (connectionFailureOf(error)) this.leave(replica, error);
  }

  /** Takes a replica out of rotation at once; the health check brings it back. */
  leave(replica: Replica, error: unknown, what = 'read failed'): void {
    if (replica.inRotation) this.options.logger.warn({ replica: replica.name, reason: describeConnectionFailure(error) }, `replica out of rotation: ${what}`);
    replica.inRotation = false;
  }

  /** One health check of every replica; a check still running when the next is due is not doubled. */
  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkAll(): Promise<void> {
    let primary: bigint;
    try {
      const { rows } = await withTimeout(this.primary.query<{ lsn: string }>(PRIMARY_POSITION));
      primary = lsnOf(rows[0].lsn);
    } catch {
      // Without the primary's position no lag can be told: every replica keeps its state until it can.
      return;
    }
    const now = Date.now();
    this.samples.push({ at: now, lsn: primary });
    // Older samples than the largest lag that keeps a replica in rotation tell nothing more.
    const keepSince = now - this.options.maxLagMs - 2 * HEALTH_CHECK_INTERVAL_MS;
    while (this.samples.length > 1 && this.samples[0].at < keepSince) this.samples.shift();
    await Promise.all(this.replicas.map((replica) => this.checkOne(replica, primary)));
  }

  private async checkOne(replica: Replica, primary: bigint): Promise<void> {
    try {
      // Bounded by the driver, not raced: a check that goes unanswered destroys its connection (below).
      const { rows } = await replica.pool.query<{ lsn: string | null }>(REPLAY_POSITION);
      const replayed = rows[0].lsn === null ? null : lsnOf(rows[0].lsn);
      replica.replayed = replayed;
      replica.lagMs = replayed === null ? null : this.lagOf(replayed, primary);
      const fit = replica.lagMs !== null && replica.lagMs <= this.options.maxLagMs;
      if (fit !== replica.inRotation) {
        const state = { replica: replica.name, lagMs: replica.lagMs };
        this.options.logger[fit ? 'info' : 'warn'](
          state,
          fit ? 'replica in rotation' : replayed === null ? 'replica out of rotation: not in recovery' : 'replica out of rotation: lagging',
        );
      }
      replica.inRotation = fit;
    } catch (error) {
      replica.lagMs = null;
      this.leave(replica, error, 'health check failed');
    }
  }

  /**
   * How stale a replica that has replayed up to `replayed` may be: nothing when it has everything the
   * primary had at this check; else the time since the newest check whose primary position it has
   * passed (an upper bound, to the checks' interval). Unknown (null) when it has passed none kept.
   */
  private lagOf(replayed: bigint, primary: bigint): number | null {
    if (replayed >= primary) return 0;
    const now = Date.now();
    for (let i = this.samples.length - 1; i >= 0; i--) if (this.samples[i].lsn <= replayed) return now - this.samples[i].at;
    return null;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checking?.catch(() => undefined);
    await Promise.all(this.replicas.map((replica) => replica.pool.end().catch(() => undefined)));
  }
}

const PRIMARY_POSITION = 'select pg_current_wal_lsn()::text as lsn';
/** A replica's replay position, unanswered after CHECK_TIMEOUT_MS whatever REPLICA_QUERY_TIMEOUT_MS says (a typed QueryConfig lacks `query_timeout`). */
const REPLAY_POSITION: pg.QueryConfig & { query_timeout: number } = { text: 'select pg_last_wal_replay_lsn()::text as lsn', query_timeout: CHECK_TIMEOUT_MS };

/**
 * A replica's pool. `query_timeout`: a statement unanswered that long fails (pg's own timer); its
 * connection, released with the error, is then removed from the pool and its socket destroyed (pg ends
 * a client with a statement in flight by destroying the socket), so a replica that stopped or vanished
 * behind a black hole holds no connection of the pool until TCP gives up on it.
 */
function replicaPool(url: string, options: { queryTimeoutMs: number; schema?: string }): pg.Pool {
  const { schema, queryTimeoutMs } = options;
  const pool = new pg.Pool({ connectionString: url, max: REPLICA_POOL_MAX, connectionTimeoutMillis: CHECK_TIMEOUT_MS, query_timeout: queryTimeoutMs });
  releaseDeadConnections(pool);
  pool.on('connect', (client) => {
    // A replica that goes away ends its connections, checked out ones too, whose statements then fail
    // (and are asked of the primary): the error the connection also emits is no process's end.
    client.on('error', () => undefined);
    // Queued before the statement the client is made for, as on the primary's pool: one statement.
    const settings = schema ? `${searchPathStatement(schema)}; ${SESSION_SETTINGS}` : SESSION_SETTINGS;
    void client.query(settings).catch(() => undefined);
  });
  return pool;
}

/** The primary's check, raced against CHECK_TIMEOUT_MS: its pool is the ORM's, whose settings are not this module's. */
function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The replica sets of open ORMs, by the configuration their EntityManagers share. */
const replicaSets = new WeakMap<object, ReplicaSet>();

/** The replicas an EntityManager's reads may use (undefined: none configured, every read on the primary). */
export const replicaSetOf = (em: { config: object }): ReplicaSet | undefined => replicaSets.get(em.config);

/**
 * Opens the replicas of a server's ORM and starts their health check; closing the ORM closes them.
 */
export async function openReplicas(orm: Orm, options: ReplicaOptions, logger: Logger): Promise<ReplicaSet> {
  const primary = await orm.em.getConnection().getNativeClient();
  const { urls, ...settings } = options;
  const set = new ReplicaSet(primary, urls, { ...settings, schema: orm.config.get('schema'), logger });
  replicaSets.set(orm.em.config, set);
  const close = orm.close.bind(orm);
  orm.close = async (force?: boolean) => {
    await set.close();
    await close(force);
  };
  await set.start();
  return set;
}
