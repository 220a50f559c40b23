import { execute, parse, type ExecutionResult } from 'graphql';
import pino from 'pino';
import { areas } from './areas.js';
import { entities } from './entities.js';
import type { Executor } from './cli/executors.js';
import { databaseOf, type Config } from './kernel/config.js';
import { migrate, openOrm } from './db/orm.js';
import { ownEntityManager } from './db/writes.js';
import { IngestState } from './domain/insights/index.js';
import { contextFor } from './graphql/request-context.js';
import { buildSchema } from './graphql/schema.js';
import { systemClock } from './kernel/clock.js';
import { createLogger } from './kernel/logger.js';
import type { Viewer } from './kernel/viewer.js';

/**
 * Whoever can open the database itself holds every power over it: the CLI runs its operations as an
 * instance administrator that is no user of the instance.
 */
const LOCAL_OPERATOR = {
  user: { id: 'local-operator', email: '', displayName: 'Local operator', photoURL: null, instanceAdmin: true, createdAt: new Date(0) },
  tokenId: 'local-operator',
} as Viewer;

function dataOf(result: ExecutionResult): any {
  const [error] = result.errors ?? [];
  if (error) throw error.originalError ?? error;
  return result.data;
}

/**
 * Opens the configured database in this process (throws DataDirectoryLocked when another process holds
 * an embedded data directory), applies pending migrations and executes operations on it.
 */
export async function inProcess(config: Config): Promise<Executor> {
  const orm = await openOrm(databaseOf(config), { entities, holder: 'cli' });
  try {
    await migrate(orm);
  } catch (error) {
    await orm.close();
    throw error;
  }
  const schema = buildSchema(areas);
  // Output is the operator's: logs, if any, go to stderr.
  const deps = { areas, orm, config, clock: systemClock, logger: createLogger('warn', pino.destination(2)), ingest: new IngestState(orm) };
  return {
    async execute(document, variables) {
      const contextValue = contextFor(deps, ownEntityManager(orm.em), LOCAL_OPERATOR);
      return dataOf(await execute({ schema, document: parse(document), variableValues: variables, contextValue }));
    },
    close: async () => {
      await deps.ingest.close();
      await orm.close();
    },
  };
}
