import { Counter, Gauge } from 'prom-client';
import type { ReplicaSet } from '../db/replicas.js';
import { PREFIX, type ServerMetrics } from './registry.js';

/**
 * The replicas' metrics, read at scrape time from what the health check and the reads found: plain
 * reads per target (the primary, each replica), reads a replica failed that the primary answered,
 * each replica's lag and whether it is in rotation.
 */
export function watchReplicas(metrics: ServerMetrics, replicas: ReplicaSet): void {
  const registers = [metrics.registry];
  new Counter({
    name: `${PREFIX}db_reads_total`,
    help: 'Plain reads (the statements that answer clients, and access decisions) by target: primary, or a replica by name (replica1… in DATABASE_REPLICA_URLS order)',
    labelNames: ['target'] as const,
    registers,
    collect() {
      this.reset();
      this.inc({ target: 'primary' }, replicas.reads.get('primary') ?? 0);
      for (const replica of replicas.replicas) this.inc({ target: replica.name }, replicas.reads.get(replica.name) ?? 0);
    },
  });
  new Counter({
    name: `${PREFIX}db_replica_reads_retried_total`,
    help: 'Plain reads that failed on a replica and were answered by the primary instead, by replica and reason: timeout (unanswered past REPLICA_QUERY_TIMEOUT_MS, or no connection within 2 s) or error (a lost connection, a statement cancelled by recovery)',
    labelNames: ['replica', 'reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const replica of replicas.replicas) {
        for (const [reason, count] of Object.entries(replica.retriedOnPrimary)) this.inc({ replica: replica.name, reason }, count);
      }
    },
  });
  new Gauge({
    name: `${PREFIX}db_replica_lag_seconds`,
    help: "How stale each replica's data may be, at the last health check (absent while not known)",
    labelNames: ['replica'] as const,
    registers,
    collect() {
      this.reset();
      for (const replica of replicas.replicas) if (replica.lagMs !== null) this.set({ replica: replica.name }, replica.lagMs / 1000);
    },
  });
  new Gauge({
    name: `${PREFIX}db_replica_in_rotation`,
    help: 'Whether each replica takes reads (1) or is out of rotation (0: not answering, or lagging past REPLICA_MAX_LAG_MS)',
    labelNames: ['replica'] as const,
    registers,
    collect() {
      for (const replica of replicas.replicas) this.set({ replica: replica.name }, replica.inRotation ? 1 : 0);
    },
  });
}
