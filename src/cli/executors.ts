import { execute, parse, type ExecutionResult } from 'graphql';
import pino from 'pino';
import type { Viewer } from '../auth/viewer.js';
import { systemClock } from '../kernel/clock.js';
import { databaseOf, type Config } from '../config.js';
import { migrate, openOrm } from '../db/orm.js';
import { IngestState } from '../domain/insights/index.js';
import { contextFor } from '../graphql/request-context.js';
import { buildSchema } from '../graphql/schema.js';
import { createLogger } from '../logger.js';
import { unreachable, type ServerAccess } from './server-access.js';

/** Runs the admin CLI's GraphQL operations somewhere: on a database it opened, or through a server. */
export type Executor = {
  /** The operation's data, or throws its first error (a DomainError's message is meant for the operator). */
  execute(document: string, variables: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
};

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
  const orm = await openOrm(databaseOf(config), { holder: 'cli' });
  try {
    await migrate(orm);
  } catch (error) {
    await orm.close();
    throw error;
  }
  const schema = buildSchema();
  // Output is the operator's: logs, if any, go to stderr.
  const deps = { orm, config, clock: systemClock, logger: createLogger('warn', pino.destination(2)), ingest: new IngestState(orm) };
  return {
    async execute(document, variables) {
      const contextValue = contextFor(deps, orm.em.fork(), LOCAL_OPERATOR);
      return dataOf(await execute({ schema, document: parse(document), variableValues: variables, contextValue }));
    },
    close: async () => {
      await deps.ingest.close();
      await orm.close();
    },
  };
}

/** Executes operations through the GraphQL door of the server that holds the embedded data directory. */
export function throughServer(access: ServerAccess): Executor {
  const { server, token } = access;
  return {
    async execute(document, variables) {
      let response: Response;
      try {
        response = await fetch(`${access.url}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: document, variables }),
        });
      } catch (error) {
        throw unreachable(access, error);
      }
      const body = (await response.json().catch(() => null)) as ExecutionResult | null;
      const [first] = body?.errors ?? [];
      if (response.status === 401) {
        throw new Error(`${server} refused the token in ${access.tokenSource}: ${first?.message ?? 'unauthenticated'}`);
      }
      if (first) throw new Error(first.message);
      if (!response.ok || !body?.data) throw new Error(`${server} answered HTTP ${response.status}`);
      return body.data;
    },
    close: async () => {},
  };
}
