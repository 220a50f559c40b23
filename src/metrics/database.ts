import type { PGlite, Transaction } from '@electric-sql/pglite';
import { Gauge } from 'prom-client';
import type pg from 'pg';
import type { Orm } from '../kernel/database.js';
import { embeddedDatabase } from '../db/embedded-databases.js';
import { PREFIX, type ServerMetrics } from './registry.js';
import { statementKind } from './statement-kind.js';

type Usage = { inUse: number; idle: number; waiting: number; max: number };

/**
 * The database's metrics: how long statements take, timed where they are sent, at the driver (a
 * `pg` client of the pool on a server, the PGlite instance embedded), so that every statement counts,
 * the ORM's, the hand-written ones and the COPYs of insights ingestion alike; and how the
 * connections are used, read at scrape time.
 */
export async function watchDatabase(metrics: ServerMetrics, orm: Orm): Promise<void> {
  const observe = (sql: string, seconds: number) => metrics.statementDuration.observe({ kind: statementKind(sql) }, seconds);
  const pglite = embeddedDatabase(orm);
  const usage = pglite ? timeEmbedded(pglite, observe) : timePool(await orm.em.getConnection().getNativeClient(), observe);
  const registers = [metrics.registry];
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Database connections of the pool, by state (in_use, idle); the embedded database is one connection',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { inUse, idle } = usage();
      this.set({ state: 'in_use' }, inUse);
      this.set({ state: 'idle' }, idle);
    },
  });
  const figure = (name: string, help: string, read: (now: Usage) => number) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      registers,
      collect() {
        this.set(read(usage()));
      },
    });
  figure('db_pool_waiting', 'Callers waiting for a database connection', (now) => now.waiting);
  figure('db_pool_max_connections', 'Most connections the pool opens', (now) => now.max);
}

type Observe = (sql: string, seconds: number) => void;

const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** Times each statement of the pool's clients (each client once, as it is first handed out); answers the pool's usage. */
function timePool(pool: pg.Pool, observe: Observe): () => Usage {
  const timed = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (timed.has(client)) return;
    timed.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const started = process.hrtime.bigint();
      const sql = textOf(args[0]);
      const result = query(...args);
      let observed = false;
      const done = () => {
        if (!observed) observe(sql, since(started));
        observed = true;
      };
      if (isPromise(result)) result.then(done, done);
      // A COPY stream: done when it has been written, or failed.
      else if (isEmitter(result)) for (const event of ['finish', 'end', 'error']) result.once(event, done);
      return result;
    }) as typeof client.query;
  });
  const max = pool.options.max ?? 10;
  return () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount, max });
}

/**
 * Times each statement sent to the embedded database (outside a transaction, its wait for the one
 * connection included) and counts who holds or waits for that connection: a statement outside a
 * transaction, or a transaction from BEGIN to its end.
 */
function timeEmbedded(pglite: PGlite, observe: Observe): () => Usage {
  let holders = 0;
  const held = async <T>(work: () => Promise<T>): Promise<T> => {
    holders += 1;
    try {
      return await work();
    } finally {
      holders -= 1;
    }
  };
  const timed = async <T>(sql: string, work: () => Promise<T>): Promise<T> => {
    const started = process.hrtime.bigint();
    try {
      return await work();
    } finally {
      observe(sql, since(started));
    }
  };
  const { query, exec, transaction } = { query: pglite.query.bind(pglite), exec: pglite.exec.bind(pglite), transaction: pglite.transaction.bind(pglite) };
  pglite.query = ((sql, params, options) => held(() => timed(sql, () => query(sql, params, options)))) as typeof pglite.query;
  pglite.exec = (sql, options) => held(() => timed(sql, () => exec(sql, options)));
  pglite.transaction = ((callback: (tx: Transaction) => Promise<unknown>) =>
    held(() =>
      transaction((tx) => {
        // The transaction as it is (its `closed` getter included), its statements timed.
        const timedTx: Transaction = Object.create(tx);
        timedTx.query = ((sql, params, options) => timed(sql, () => tx.query(sql, params, options))) as Transaction['query'];
        timedTx.exec = (sql, options) => timed(sql, () => tx.exec(sql, options));
        return callback(timedTx);
      }),
    )) as typeof pglite.transaction;
  return () => {
    const inUse = Math.min(holders, 1);
    return { inUse, idle: 1 - inUse, waiting: holders - inUse, max: 1 };
  };
}

function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  const text = (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as Promise<unknown> | null)?.then === 'function';
const isEmitter = (value: unknown): value is NodeJS.EventEmitter => typeof (value as NodeJS.EventEmitter | null)?.once === 'function';
