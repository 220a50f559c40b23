import { MasterKeyError } from './auth/master-key.js';
import { writeAdminToken } from './cli/admin-token.js';
import { loadConfig } from './config.js';
import { provisionOwner, welcomeMessage } from './db/bootstrap.js';
import { DataDirectoryLocked } from './db/data-dir-lock.js';
import { dataDirLockOf } from './db/orm.js';
import { startServer } from './server.js';

const config = loadConfig();
const running = await startServer(config).catch((error: unknown) => {
  // Refusals for the operator (the master key, a data directory in use): their one line says what to do.
  if (!(error instanceof MasterKeyError || error instanceof DataDirectoryLocked)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
});
const { deps } = running;
const provisioned = await provisionOwner(deps.orm.em.fork(), deps.clock, config);
const dataDirLock = dataDirLockOf(deps.orm);
if (dataDirLock) {
  // The admin CLI comes through this server while it holds the directory: its token, then where to call.
  await writeAdminToken(deps.orm.em.fork(), deps.clock, config.dataDir);
  dataDirLock.describe({ url: running.url });
}
if (provisioned) process.stdout.write(welcomeMessage(config, provisioned) + '\n');
deps.logger.info(
  { port: running.port, database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})` },
  `listening on ${config.publicUrl}: GraphQL at /graphql, REST at /v1`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    deps.logger.info({ signal }, 'shutting down');
    await running.stop();
    process.exit(0);
  });
}
