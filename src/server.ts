import type { Server } from 'node:http';
import { systemClock, type Clock } from './clock.js';
import { databaseOf, type Config } from './config.js';
import { createApp } from './app.js';
import { migrate, openOrm, type Database } from './db/orm.js';
import { closeBatchPool } from './domain/insights/batch-pool.js';
import { closeGroupCommitOf } from './domain/insights/storage.js';
import { jobHandlers } from './jobs/handlers.js';
import { runDueJobs, startWorker } from './jobs/queue.js';
import { createLogger, type Logger } from './logger.js';

export type RunningServer = Awaited<ReturnType<typeof startServer>>;

/** Opens the database, applies migrations, and serves HTTP; `stop()` undoes all of it. */
export async function startServer(config: Config, options: { clock?: Clock; logger?: Logger; database?: Database } = {}) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const orm = await openOrm(options.database ?? databaseOf(config));
  const applied = await migrate(orm);
  if (applied.length) logger.info({ applied }, 'applied database migrations');
  const deps = { orm, config, clock, logger };
  const { app, stop: stopApollo } = await createApp(deps);
  const worker = config.jobPollMs > 0 ? startWorker(orm, clock, jobHandlers, { config, logger }, config.jobPollMs) : undefined;
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    deps,
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    /** Runs the durable jobs that are due now (by the server's clock). */
    runDueJobs: () => runDueJobs(orm, clock, jobHandlers, { config, logger }),
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await worker?.stop(AbortSignal.timeout(10_000));
      await closed;
      await stopApollo();
      await closeBatchPool();
      await closeGroupCommitOf(orm.em);
      await orm.close();
    },
  };
}
