import { execute, parse, type ExecutionResult } from 'graphql';
import pino from 'pino';
import type { Viewer } from '../auth/viewer.js';
import { systemClock } from '../clock.js';
import { databaseOf, type Config } from '../config.js';
import type { DataDirectoryLocked, LockHolder } from '../db/data-dir-lock.js';
import { migrate, openOrm } from '../db/orm.js';
import { contextFor } from '../graphql/context.js';
import { buildSchema } from '../graphql/schema.js';
import { createLogger } from '../logger.js';
import { ADMIN_TOKEN_FILE, readAdminToken } from './admin-token.js';

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
  const deps = { orm, config, clock: systemClock, logger: createLogger('warn', pino.destination(2)) };
  return {
    async execute(document, variables) {
      const contextValue = contextFor(deps, orm.em.fork(), LOCAL_OPERATOR);
      return dataOf(await execute({ schema, document: parse(document), variableValues: variables, contextValue }));
    },
    close: () => orm.close(),
  };
}

/** How the admin CLI reaches the server that holds an embedded data directory: where, with which token. */
export type ServerAccess = {
  url: string;
  token: string;
  /** "the server (process N) that holds DIR", for messages. */
  server: string;
  /** Where the token came from, for messages. */
  tokenSource: string;
};

/**
 * The server that holds a data directory the CLI could not take, or an error saying to try again: a
 * server that has not started to listen, the CLI or a migration run hold it only for a moment.
 */
export function serverHolding(refusal: DataDirectoryLocked): LockHolder & { url: string } {
  const { holder } = refusal;
  if (holder?.kind !== 'server' || !holder.url) {
    throw new Error(`${refusal.message}; try again when it has ${holder?.kind === 'server' ? 'started' : 'finished'}`);
  }
  return { ...holder, url: holder.url };
}

/** The server holding the data directory and an instance administrator's token for it: ADMIN_TOKEN, or the one the server wrote into the directory. */
export function serverAccess(holder: LockHolder & { url: string }, dataDir: string, env: NodeJS.ProcessEnv): ServerAccess {
  const given = env.ADMIN_TOKEN?.trim();
  const token = given || readAdminToken(dataDir);
  const server = `the server (process ${holder.pid}) that holds ${dataDir}`;
  if (!token) {
    throw new Error(`${server} has not written ${ADMIN_TOKEN_FILE} there: give an instance administrator's API token in ADMIN_TOKEN`);
  }
  return { url: holder.url, token, server, tokenSource: given ? 'ADMIN_TOKEN' : `${dataDir}/${ADMIN_TOKEN_FILE}` };
}

/** A request to the server failed before it answered: says which server and why. */
export const unreachable = (access: ServerAccess, error: unknown) =>
  new Error(`${access.server} does not answer at ${access.url}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);

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
