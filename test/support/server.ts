import { type Viewer } from '../../src/kernel/viewer.js';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { loadConfig } from '../../src/kernel/config.js';
import type { Context } from '../../src/kernel/context.js';
import { contextFor } from '../../src/graphql/request-context.js';
import { ownEntityManager } from '../../src/db/writes.js';
import { createLogger, type Logger } from '../../src/kernel/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { freshDatabase, TEST_SECRET_KEY, type FreshDatabase } from './database.js';

export type TestServer = RunningServer & {
  clock: ManualClock;
  /** A fresh EntityManager, for factories and for looking behind the doors. */
  em(): EntityManager;
  /** A domain context for a viewer, for factories that call services directly. */
  context(viewer: Viewer | null): Context;
};

/**
 * Starts the whole server on an ephemeral port with a manual clock and no background job worker
 * (tests run due jobs explicitly), on a database of the file's own (see freshDatabase).
 */
export type TestServerOptions = { logger?: Logger; clock?: ManualClock; database?: FreshDatabase; provision?: boolean };

export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  // A database given by the caller outlives this server (a restart test starts another on it).
  const fresh = options.database ?? (await freshDatabase());
  const key = 'url' in fresh.database ? { SECRET_KEY: TEST_SECRET_KEY } : {};
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', JOB_POLL_MS: '0', PUBLIC_URL: 'http://docs.test', ...key, ...env });
  const clock = options.clock ?? new ManualClock(new Date('2026-01-15T12:00:00.000Z'));
  const running = await startServer(config, {
    clock,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    database: fresh.database,
    provision: options.provision,
  });
  return {
    ...running,
    clock,
    em: () => running.deps.orm.em.fork(),
    context: (viewer) => contextFor(running.deps, ownEntityManager(running.deps.orm.em), viewer),
    async stop() {
      await running.stop();
      if (!options.database) await fresh.dispose();
    },
  };
}

/** The test server's clock time as the API writes times (ISO 8601, UTC). */
export const serverNow = (server: TestServer) => server.clock.now().toISOString();

/**
 * A test server for the enclosing file or describe block: started in beforeAll, stopped in afterAll.
 * The answer stands for the running server, so tests use it as one (`server.url`, `newUser(server)`);
 * using it before the hook has run throws.
 */
export function useTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): TestServer {
  let running: TestServer | undefined;
  beforeAll(async () => {
    running = await startTestServer(env, options);
  });
  afterAll(() => running?.stop());
  const current = () => {
    if (!running) throw new Error('The test server is not running yet: use it in tests and hooks, not while the file is collected');
    return running;
  };
  return new Proxy({} as TestServer, {
    get: (_target, property) => Reflect.get(current(), property),
    has: (_target, property) => Reflect.has(current(), property),
  });
}
