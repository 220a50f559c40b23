import { systemClock, type Clock } from './kernel/clock.js';
import { databaseOf, type Config } from './kernel/config.js';
import { createApp } from './app.js';
import { loadKeyring } from './auth/master-key.js';
import { sealStoredSecrets } from './auth/secrets.js';
import { checkOwnerToken, provisionOwner, writeAdminToken, type Provisioned } from './provision.js';
import { dataDirLockOf, migrate, openOrm, type Database } from './db/orm.js';
import { reachDatabase } from './db/reach-database.js';
import { IngestState } from './domain/insights/index.js';
import { fanOutOnNotice } from './domain/webhooks/index.js';
import { EventHub } from './events/hub.js';
import { createHttpServer } from './http/http-server.js';
import { serveSubscriptions } from './domain/live/index.js';
import { agreeOnPublicUrl } from './instances/agreement.js';
import { jobHandlersOf } from './jobs/handlers.js';
import { areas } from './areas.js';
import { entities } from './entities.js';
import { runDueJobs, startWorker, type JobEnv } from './jobs/queue.js';
import { scheduleRecurringJobs } from './jobs/recurring.js';
import { createLogger, type Logger } from './kernel/logger.js';
import { watchDatabase } from './metrics/database.js';
import { watchReplicas } from './metrics/replicas.js';
import { openReplicas } from './db/replicas.js';
import { metricsApp } from './metrics/endpoint.js';
import { watchJobQueue } from './metrics/job-queue.js';
import { createServerMetrics, type ServerMetrics } from './metrics/registry.js';
import { RateLimits } from './rate-limits/rate-limits.js';

/** Every durable job kind of this server and its handler, made once from the areas. */
const jobHandlers = jobHandlersOf(areas);

export type RunningServer = Awaited<ReturnType<typeof startServer>>;

type StartOptions = {
  clock?: Clock;
  logger?: Logger;
  database?: Database;
  /** Create the owner, an organization and a token on a first start (an empty database). */
  provision?: boolean;
};

/**
 * Binds the port, opens the database, applies migrations, provisions (if asked), then serves: until
 * then every request is answered 503, so that `/healthz` says 200 only once all of that is done.
 * `stop()` undoes all of it.
 */
export async function startServer(config: Config, options: StartOptions = {}) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = createServerMetrics();
  // Bound first: a port in use fails before the database is touched.
  const http = createHttpServer(config);
  const port = await http.listen(config.port, config.host);
  // The metrics port, when configured, serves /metrics only, and starts and stops with the main one.
  const metricsHttp = config.metrics.port === undefined ? undefined : createHttpServer(config);
  const closeAll = () => Promise.all([http.drain(AbortSignal.timeout(0)), metricsHttp?.drain(AbortSignal.timeout(0))]);
  const metricsPort = await metricsHttp
    ?.listen(config.metrics.port!, config.metrics.host, { port: 'METRICS_PORT', host: 'METRICS_HOST' })
    .catch(async (error) => {
      await closeAll();
      throw error;
    });
  const opened = await openApp(config, { ...options, clock, logger, metrics }, () => http.draining).catch(async (error) => {
    await closeAll();
    throw error;
  });
  const { deps, app, schema, stopApollo, provisioned } = opened;
  const { orm } = deps;
  const jobEnv: JobEnv = { config, logger, onOutcome: (kind, outcome) => (outcome === 'completed' ? metrics.jobsCompleted : metrics.jobsFailed).inc({ kind }) };
  const worker = config.jobPollMs > 0 ? startWorker(orm, clock, jobHandlers, jobEnv, config.jobPollMs) : undefined;
  // Instances that run jobs hand events to webhook endpoints as their notices arrive.
  const stopFanOut = config.jobPollMs > 0 ? fanOutOnNotice(orm, deps.events, clock, logger) : undefined;
  http.serve(app);
  // GraphQL subscriptions: WebSocket upgrades of /graphql on the same port.
  const live = serveSubscriptions(http.server, deps, schema);
  metricsHttp?.serve(metricsApp(metrics, config.metrics, logger));
  // Serving: the admin CLI may come through this server from now on.
  dataDirLockOf(orm)?.describe({ url: localUrl(config.host, port) });

  let stopped: Promise<void> | undefined;
  /** The one shutdown path: drain within SHUTDOWN_TIMEOUT_MS, then close what serves, then the database. */
  const stop = async () => {
    // One bound for the requests in flight and the job running.
    const deadline = AbortSignal.timeout(config.shutdownTimeoutMs);
    // Subscriptions end first (sockets closed with 1001, Going away: clients reconnect elsewhere); an
    // upgraded socket would otherwise hold the drain until its deadline.
    await live.close();
    stopFanOut?.();
    const [drained] = await Promise.all([http.drain(deadline), worker?.stop(deadline), metricsHttp?.drain(deadline)]);
    if (!drained) logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown: connections still busy at the bound were closed');
    await stopApollo();
    await deps.ingest.close();
    deps.rateLimits.stop();
    await deps.events.close();
    await orm.close();
  };

  return {
    deps,
    server: http.server,
    port,
    /** Where this process reaches itself. */
    url: localUrl(config.host, port),
    /** Where this process reaches its metrics port (undefined without METRICS_PORT). */
    metricsUrl: metricsPort === undefined ? undefined : localUrl(config.metrics.host, metricsPort),
    /** What a first start created (null when the database had users, or when not asked to provision). */
    provisioned,
    /** The WebSocket door's subscriptions (its feed counts the open streams). */
    live,
    /** Runs the durable jobs that are due now (by the server's clock). */
    runDueJobs: () => runDueJobs(orm, clock, jobHandlers, jobEnv),
    stop(): Promise<void> {
      stopped ??= stop();
      return stopped;
    },
  };
}

/** The database (migrated, provisioned if asked) and the application on it; the database is closed again if a step fails. */
async function openApp(config: Config, options: StartOptions & { clock: Clock; logger: Logger; metrics: ServerMetrics }, stopping: () => boolean) {
  const { clock, logger, metrics } = options;
  const database = options.database ?? databaseOf(config);
  // The data directory first: the key file beside the database is read or made by its holder only.
  const orm = await openOrm(database, { entities });
  let events: EventHub | undefined;
  try {
    const keyring = loadKeyring(config, database, logger);
    if ('url' in database) await reachDatabase(orm, database.url, { timeoutMs: config.databaseConnectTimeoutMs, logger });
    const applied = await migrate(orm);
    if (applied.length) logger.info({ applied }, 'applied database migrations');
    await agreeOnPublicUrl(orm.em.fork(), clock, config, logger);
    await sealStoredSecrets(orm, keyring, logger);
    const provisioned: Provisioned | null = options.provision ? await provisionOwner(orm.em.fork(), clock, config) : null;
    if (options.provision) await checkOwnerToken(orm.em.fork(), config, logger);
    // The admin CLI comes through this server while it holds an embedded data directory, with this token.
    if (options.provision && 'dataDir' in database) await writeAdminToken(orm.em.fork(), clock, database.dataDir);
    // Instances that run jobs keep the housekeeping jobs scheduled.
    if (config.jobPollMs > 0) await scheduleRecurringJobs(areas, orm.em.fork(), config, clock.now());
    if ('url' in database && database.replicas) watchReplicas(metrics, await openReplicas(orm, database.replicas, logger));
    await watchDatabase(metrics, orm);
    watchJobQueue(metrics, orm, clock, Object.keys(jobHandlers), logger);
    events = await EventHub.open(orm, logger);
    const deps = {
      areas,
      orm,
      config,
      clock,
      logger,
      ingest: new IngestState(orm, (ingested) => metrics.insightsEventsIngested.inc(ingested)),
      rateLimits: await RateLimits.open(orm, config.rateLimits, logger),
      events,
    };
    const { app, schema, stop: stopApollo } = await createApp(deps, { stopping }, metrics);
    return { deps, app, schema, stopApollo, provisioned };
  } catch (error) {
    await events?.close();
    await orm.close();
    throw error;
  }
}

/** A URL of the server on this machine: the loopback address when it listens on every interface. */
function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
