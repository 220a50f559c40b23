import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../src/jobs/entities.js';
import { enqueue, runDueJobs } from '../src/jobs/queue.js';
import { freshDatabase, TEST_SECRET_KEY } from './support/database.js';
import { freePort, spawnServer, type ServerProcess } from './support/processes.js';
import { startTestServer } from './support/server.js';

/**
 * The process's life: `node --import tsx src/main.ts` as operators run it, started, probed and
 * signalled from outside. Every wait is bounded so that a process that does not answer or does not
 * exit fails the test instead of hanging it.
 */
const OWNER_TOKEN = 'lifecycle-test-owner-token-0123456789';
const WAIT_MS = 60_000;
const TEST_MS = 180_000;

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database?.dispose());

type Started = ServerProcess;
const children = new Set<ChildProcess>();
afterEach(() => {
  // A test that failed half-way leaves no process behind (nor a held database).
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

/** Starts the server as a process of its own on the file's database. */
async function start(env: Record<string, string> = {}, port?: number): Promise<Started> {
  const server = await spawnServer({ ...database.env, LOG_LEVEL: 'info', OWNER_TOKEN, JOB_POLL_MS: '50', ...env, ...(port ? { PORT: String(port) } : {}) });
  children.add(server.child);
  return server;
}

/** Resolves with `work`'s value, or fails naming `what` after WAIT_MS. */
async function within<T>(what: string, work: Promise<T>, server?: Started): Promise<T> {
  const late = sleep(WAIT_MS, undefined, { ref: false }).then(() => {
    throw new Error(`gave up waiting: ${what}${server ? `\nstdout: ${server.stdout().slice(-2000)}\nstderr: ${server.stderr().slice(-2000)}` : ''}`);
  });
  return Promise.race([work, late]);
}

/** Polls until `check` returns a value (not undefined), for at most WAIT_MS. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, server?: Started): Promise<T> {
  return within(
    what,
    (async () => {
      for (;;) {
        const value = await check();
        if (value !== undefined) return value;
        if (server && server.child.exitCode !== null) throw new Error(`the server exited while waiting: ${what}\n${server.stderr()}`);
        await sleep(20);
      }
    })(),
    server,
  );
}

async function call(server: Started, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${OWNER_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

type Answer = { status: number; body: unknown } | 'refused';

/** Polls /healthz from now on; resolves at the first 200 with every answer before it. */
async function healthzUntilReady(server: Started): Promise<Answer[]> {
  const earlier: Answer[] = [];
  await until(
    'GET /healthz answering 200',
    async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${server.port}/healthz`);
        const answer = { status: res.status, body: await res.json() };
        if (res.status === 200) return true;
        earlier.push(answer);
      } catch (error) {
        if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') throw error;
        earlier.push('refused');
      }
      return undefined;
    },
    server,
  );
  return earlier;
}

/** Starts the server and waits until it is ready; with the id of the owner's organization. */
async function startReady(env: Record<string, string> = {}): Promise<Started & { organizationId: string }> {
  const server = await start(env);
  await healthzUntilReady(server);
  const { body } = await call(server, 'GET', '/v1/orgs');
  return { ...server, organizationId: (body.items as { id: string }[])[0].id };
}

async function stopped(server: Started, signal: NodeJS.Signals = 'SIGTERM') {
  server.child.kill(signal);
  return within(`exit after ${signal}`, server.exited, server);
}

/** A raw HTTP/1.1 connection: what the server sent so far, and when it closed its side. */
async function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  return {
    socket,
    received: () => received,
    closed,
    waitFor: (what: string, pattern: RegExp) => until(what, () => (pattern.test(received) ? true : undefined)),
  };
}

/** Whether a new connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Opens a POST whose headers the server has taken (it answered `100 Continue`) and whose body is not sent yet. */
async function postAwaitingBody(port: number, path: string, body: unknown) {
  const json = JSON.stringify(body);
  const connection = await rawConnection(port);
  connection.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${OWNER_TOKEN}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await connection.waitFor('100 Continue', /^HTTP\/1\.1 100 Continue\r\n\r\n/);
  return { ...connection, sendBody: () => connection.socket.write(json) };
}

describe('start-up', () => {
  it(
    'answers /healthz 200 only once the owner token works; every answer before is 503 or a refused connection',
    async () => {
      const server = await start();
      const earlier = await healthzUntilReady(server);
      expect((await call(server, 'GET', '/v1/user')).status).toBe(200);
      for (const answer of earlier) {
        if (answer !== 'refused') expect(answer).toEqual({ status: 503, body: { status: 'starting', error: { code: 503, message: expect.any(String) } } });
      }
      await until('the listening line', () => (server.stdout().includes('listening on') ? true : undefined), server);
      // The welcome (first start) comes before the line that says the server listens.
      expect(server.stdout().indexOf('The token is the value of OWNER_TOKEN')).toBeGreaterThanOrEqual(0);
      expect(server.stdout().indexOf('The token is the value of OWNER_TOKEN')).toBeLessThan(server.stdout().indexOf('listening on'));
      expect(await stopped(server)).toEqual({ code: 0, signal: null });
    },
    TEST_MS,
  );

  it(
    'exits 1 naming EADDRINUSE and the port when the port is taken, printing no token and no "listening"',
    async () => {
      const holder = createServer().listen(0, '127.0.0.1');
      await once(holder, 'listening');
      const { port } = holder.address() as { port: number };
      try {
        const server = await start({ OWNER_TOKEN: '' }, port);
        expect(await within('exit on a taken port', server.exited, server)).toEqual({ code: 1, signal: null });
        expect(server.stderr()).toContain('EADDRINUSE');
        expect(server.stderr()).toContain(String(port));
        expect(server.stderr().trim().split('\n')).toHaveLength(1);
        expect(server.stdout()).not.toMatch(/token|listening/i);
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    },
    TEST_MS,
  );
});

describe('start-up errors', () => {
  /** The process's exit and its one line on stderr, for a start that must fail. */
  async function failedStart(env: Record<string, string>) {
    const server = await start(env);
    const exit = await within('exit of a start that cannot succeed', server.exited, server);
    const lines = server.stderr().trim().split('\n');
    return { server, exit, lines };
  }

  it(
    'retries an unreachable DATABASE_URL with backoff, logging each retry, then exits 1 naming the server and the cause',
    async () => {
      const port = await freePort();
      const { server, exit, lines } = await failedStart({
        DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${port}/docs`,
        SECRET_KEY: TEST_SECRET_KEY,
        DATABASE_CONNECT_TIMEOUT_MS: '1500',
      });
      expect(exit).toEqual({ code: 1, signal: null });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^error: Cannot use the database server 127\\.0\\.0\\.1:${port} \\(DATABASE_URL\\): ECONNREFUSED .*gave up after \\d+ s`),
      );
      const retries = server
        .stdout()
        .split('\n')
        .filter((line) => line.includes('database unreachable; retrying'));
      expect(retries.length).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(retries[0])).toMatchObject({
        server: `127.0.0.1:${port}`,
        attempt: 1,
        retryInMs: expect.any(Number),
        cause: expect.stringContaining('ECONNREFUSED'),
      });
      expect(server.stdout() + server.stderr()).not.toContain('hunter2');
      expect(server.stdout()).not.toMatch(/token|listening/i);
    },
    TEST_MS,
  );

  it(
    'exits 1 at once, naming the directory and the cause, when DATA_DIR cannot be written',
    async () => {
      // Root may write anywhere chmod forbids: a path under a file fails for everyone.
      const { server, exit, lines } = await failedStart({ DATABASE_URL: '', DATA_DIR: '/etc/hostname/data' });
      expect(exit).toEqual({ code: 1, signal: null });
      expect(lines).toEqual(['error: Cannot use DATA_DIR /etc/hostname/data: ENOTDIR (a part of the path is a file, not a directory)']);
      expect(server.stdout()).not.toMatch(/token|listening/i);
    },
    TEST_MS,
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'exits 1 at once on an unknown database, without creating it or retrying',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = '/no_such_database_of_the_tests';
      const { server, exit, lines } = await failedStart({ DATABASE_URL: url.href, DATABASE_CONNECT_TIMEOUT_MS: '60000' });
      expect(exit).toEqual({ code: 1, signal: null });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^error: Cannot use the database server .+ \(DATABASE_URL\): no such database: 3D000 database "no_such_database_of_the_tests" does not exist$/,
      );
      expect(server.stdout()).not.toContain('retrying');
    },
    TEST_MS,
  );
});

describe('shutdown', () => {
  it(
    'on SIGTERM finishes the request in flight, refuses new connections, closes idle ones and exits 0',
    async () => {
      const server = await startReady();
      const idle = await rawConnection(server.port);
      idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await idle.waitFor('the idle connection answered', /\r\n\r\n\{"status":"ok"\}$/);
      expect(idle.received()).not.toMatch(/\r\nconnection: close\r\n/i);
      // Idle connections are kept longer than load balancers keep theirs (AWS ALB: 60 s).
      expect(idle.received()).toMatch(/\r\nkeep-alive: timeout=65\r\n/i);
      const inFlight = await postAwaitingBody(server.port, `/v1/orgs/${server.organizationId}/spaces`, { title: 'Sent while draining' });

      server.child.kill('SIGTERM');
      await until('new connections refused', async () => ((await refused(server.port)) ? true : undefined), server);
      await within('the idle keep-alive connection closed', idle.closed, server);

      inFlight.sendBody();
      await within('the in-flight request answered and its connection closed', inFlight.closed, server);
      expect(inFlight.received()).toMatch(/\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
      expect(inFlight.received()).toMatch(/\r\nconnection: close\r\n/i);
      const created = JSON.parse(inFlight.received().slice(inFlight.received().lastIndexOf('\r\n\r\n') + 4));
      expect(created).toMatchObject({ id: expect.any(String), title: 'Sent while draining' });

      expect(await within('exit after SIGTERM', server.exited, server)).toEqual({ code: 0, signal: null });
      expect(server.stdout()).not.toContain('shutdown did not finish');
    },
    TEST_MS,
  );

  it(
    'exits 0 after SIGTERM when started again on an existing database, with what it acknowledged before',
    async () => {
      const first = await startReady();
      const space = await call(first, 'POST', `/v1/orgs/${first.organizationId}/spaces`, { title: 'Kept across restarts' });
      expect(space.status).toBe(201);
      expect(await stopped(first)).toEqual({ code: 0, signal: null });

      // Again on the same database; a request that never finishes is cut at the bound.
      const second = await startReady({ SHUTDOWN_TIMEOUT_MS: '500', KEEP_ALIVE_TIMEOUT_MS: '75000' });
      const kept = await call(second, 'GET', `/v1/spaces/${space.body.id}`);
      expect(kept).toMatchObject({ status: 200, body: { title: 'Kept across restarts' } });
      expect(kept.headers.get('keep-alive')).toBe('timeout=75');
      const neverFinished = await postAwaitingBody(second.port, `/v1/orgs/${second.organizationId}/spaces`, { title: 'Never sent' });
      expect(await stopped(second)).toEqual({ code: 0, signal: null });
      await within('the unfinished request closed', neverFinished.closed, second);
      expect(second.stdout()).not.toContain('shutdown did not finish');
    },
    TEST_MS,
  );

  it(
    'exits at once, non-zero, on a second signal during the drain',
    async () => {
      const server = await startReady({ SHUTDOWN_TIMEOUT_MS: '600000' });
      await postAwaitingBody(server.port, `/v1/orgs/${server.organizationId}/spaces`, { title: 'Held' });
      server.child.kill('SIGTERM');
      await until('new connections refused', async () => ((await refused(server.port)) ? true : undefined), server);
      expect(await stopped(server, 'SIGINT')).toEqual({ code: 128 + 2, signal: null });
    },
    TEST_MS,
  );
});

describe('job worker', () => {
  it('once stopping, starts no further job and gives back the claims of those it has not started', async () => {
    const server = await startTestServer();
    try {
      const em = server.em();
      for (const n of [1, 2]) enqueue(em, server.clock, 'lifecycle-test', { n });
      await em.flush();
      const stopping = new AbortController();
      const ran: unknown[] = [];
      const handlers = {
        'lifecycle-test': async (_em: unknown, payload: Record<string, unknown>) => {
          ran.push(payload.n);
          stopping.abort();
        },
      };
      const env = { config: server.deps.config, logger: server.deps.logger };
      expect(await runDueJobs(server.deps.orm, server.clock, handlers, env, stopping.signal)).toBe(1);
      expect(ran).toHaveLength(1);
      // The other is due again at once, its try not counted.
      expect(await server.em().find(Job, {})).toMatchObject([{ attempts: 0, lockedUntil: null }]);
      expect(await runDueJobs(server.deps.orm, server.clock, handlers, env)).toBe(1);
      expect(ran.sort()).toEqual([1, 2]);
    } finally {
      await server.stop();
    }
  });
});
