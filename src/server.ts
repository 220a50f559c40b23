import type { Server } from 'node:http';
import { systemClock, type Clock } from './clock.js';
import { databaseOf, type Config } from './config.js';
import { createApp } from './app.js';
import { loadKeyring } from './auth/master-key.js';
import { sealStoredSecrets } from './auth/secrets.js';
import { migrate, openOrm, type Database } from './db/orm.js';
import { jobHandlers } from './jobs/handlers.js';
import { runDueJobs, startWorker } from './jobs/queue.js';
import { createLogger, type Logger } from './logger.js';

export type RunningServer = Awaited<ReturnType<typeof startServer>>;

/** Opens the database, applies migrations, and serves HTTP; `stop()` undoes all of it. */
export async function startServer(config: Config, options: { clock?: Clock; logger?: Logger; database?: Database } = {}) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = options.database ?? databaseOf(config);
  // The data directory first: the key file beside the database is read or made by its holder only.
  const orm = await openOrm(database);
  try {
    const keyring = loadKeyring(config, database, logger);
    const applied = await migrate(orm);
    if (applied.length) logger.info({ applied }, 'applied database migrations');
    await sealStoredSecrets(orm, keyring, logger);
  } catch (error) {
    await orm.close();
    throw error;
  }
  const deps = { orm, config, clock, logger };
  const { app, stop: stopApollo } = await createApp(deps);
  const stopWorker = config.jobPollMs > 0 ? startWorker(orm, clock, jobHandlers, { config, logger }, config.jobPollMs) : () => {};
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    deps,
    server,
    port,
    /** Where this process reaches itself. */
    url: localUrl(config.host, port),
    /** Runs the durable jobs that are due now (by the server's clock). */
    runDueJobs: () => runDueJobs(orm, clock, jobHandlers, { config, logger }),
    async stop() {
      stopWorker();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopApollo();
      await orm.close();
    },
  };
}

/** A URL of the server on this machine: the loopback address when it listens on every interface. */
function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
