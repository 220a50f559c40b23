import { MasterKeyError } from './auth/master-key.js';
import { loadConfig } from './config.js';
import { provisionOwner, welcomeMessage } from './db/bootstrap.js';
import { startServer } from './server.js';

const config = loadConfig();
const running = await startServer(config).catch((error: unknown) => {
  // A refusal over the master key is for the operator: its one line says what to do.
  if (!(error instanceof MasterKeyError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
const { deps } = running;
const provisioned = await provisionOwner(deps.orm.em.fork(), deps.clock, config);
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
