import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The prefix of this server's own metrics (prom-client's process metrics keep their usual names). */
export const PREFIX = 'docs_server_';

/** Request durations: from a millisecond-fast read to the slowest answers (an insights aggregate, a PDF). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Statement durations: most take well under a millisecond. */
const STATEMENT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export type ServerMetrics = ReturnType<typeof createServerMetrics>;

/**
 * The metrics of one running server, in a registry of its own (never prom-client's global one: a
 * process may run several servers, tests do). What is counted as it happens is made here; what is read
 * at scrape time (the database pool, the job queue) is added once the database is open
 * (src/metrics/database.ts, src/metrics/job-queue.ts). docs/behaviour/metrics.md lists them all.
 */
export function createServerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requestDuration: new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from a request arriving to its answer sent, by operation (REST operation id, GraphQL operation name), door, method and status',
      labelNames: ['operation', 'door', 'method', 'status'] as const,
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    requestsInFlight: new Gauge({
      name: `${PREFIX}http_requests_in_flight`,
      help: 'Requests being answered',
      registers,
    }),
    statementDuration: new Histogram({
      name: `${PREFIX}db_statement_duration_seconds`,
      help: 'Time of SQL statements, by kind (select, insert, update, delete, other)',
      labelNames: ['kind'] as const,
      buckets: STATEMENT_BUCKETS,
      registers,
    }),
    jobsCompleted: new Counter({
      name: `${PREFIX}jobs_completed_total`,
      help: 'Durable jobs this instance ran to completion, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    jobsFailed: new Counter({
      name: `${PREFIX}jobs_failed_total`,
      help: 'Durable job runs of this instance that failed (each is retried with backoff), by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    idempotentReplays: new Counter({
      name: `${PREFIX}idempotent_replays_total`,
      help: 'Answers replayed for a repeated Idempotency-Key instead of running the request again, by door',
      labelNames: ['door'] as const,
      registers,
    }),
    insightsEventsIngested: new Counter({
      name: `${PREFIX}insights_events_ingested_total`,
      help: 'Insights events stored and acknowledged to their sender',
      registers,
    }),
  };
}
