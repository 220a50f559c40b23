// First: on a Node.js that package.json's engines does not allow, one line and exit 1 before any other module runs.
import './supported-node.mjs';
import { constants } from 'node:os';
import { MasterKeyError } from './auth/master-key.js';
import { ConfigError, loadConfig, type Config } from './kernel/config.js';
import { welcomeMessage } from './provision.js';
import { DataDirectoryUnusable } from './db/data-dir-access.js';
import { DataDirectoryLocked } from './db/data-dir-lock.js';
import { DatabaseUnreachable } from './db/reach-database.js';
import { ListenError } from './http/http-server.js';
import { InstanceDisagreement } from './instances/agreement.js';
import { createLogger } from './kernel/logger.js';
import { startServer, type RunningServer } from './server.js';

/**
 * Refusals for the operator (an invalid variable, a port or data directory in use, an unusable data
 * directory, a database server that cannot be used, the master key, a PUBLIC_URL other instances do not
 * share): lines that say what to do, printed instead of a stack; exit 1. Anything else is a bug and throws.
 */
const REFUSALS = [ConfigError, ListenError, DataDirectoryLocked, DataDirectoryUnusable, DatabaseUnreachable, MasterKeyError, InstanceDisagreement];
function refuse(error: unknown): never {
  if (!(error instanceof Error) || !REFUSALS.some((kind) => error instanceof kind)) throw error;
  for (const line of error.message.split('\n')) process.stderr.write(`error: ${line}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  refuse(error);
}
const logger = createLogger(config.logLevel);

let running: RunningServer | undefined;
let stopRequested = false;

/**
 * Stops the server and lets the process end by itself: nothing may keep it alive after `stop()`. If
 * something does, or `stop()` hangs, a backstop names what is left and exits non-zero.
 */
async function shutdown(server: RunningServer) {
  // Until stop() has finished, an exit (the event loop ran empty) is a failure.
  process.exitCode = 1;
  const backstop = setTimeout(() => {
    logger.error({ resources: process.getActiveResourcesInfo() }, 'shutdown did not finish; exiting');
    process.exit(1);
  }, config.shutdownTimeoutMs + 5000);
  backstop.unref();
  try {
    await server.stop();
  } catch (err) {
    logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
  logger.info('stopped');
  process.exitCode = 0;
}

// Handled from the start: a signal during start-up stops the server as soon as it has started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopRequested) {
      logger.warn({ signal }, 'second signal: exiting without finishing the shutdown');
      process.exit(128 + constants.signals[signal]);
    }
    stopRequested = true;
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: draining requests');
    if (running) void shutdown(running);
  });
}

try {
  running = await startServer(config, { logger, provision: true });
} catch (error) {
  refuse(error);
}
if (running.provisioned) process.stdout.write(welcomeMessage(config, running.provisioned) + '\n');
logger.info(
  {
    port: running.port,
    database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})`,
    metrics: running.metricsUrl && `${running.metricsUrl}/metrics`,
  },
  `listening on ${config.publicUrl}: GraphQL at /graphql, REST at /v1`,
);
if (stopRequested) void shutdown(running);
