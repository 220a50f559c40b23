/**
 * The production start, as a supervisor runs it: the compiled server (`npm run build`) run by `node`
 * itself, the command of the systemd unit (docs/deployment.md) and of the container image (Dockerfile),
 * so that SIGTERM reaches the server, which drains and exits within its bound.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/kernel/ids.js';
import { freshDatabase } from './support/database.js';
import { siteEvent } from './support/insights.js';
import { repoRoot, spawnServer, stopProcess, waitFor, type ServerProcess } from './support/processes.js';

const OWNER_TOKEN = 'supervisor-test-owner-token-0123456789';
const CLIENTS = 4;
const TEST_MS = 180_000;

const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const docs = readFileSync(join(repoRoot, 'docs/deployment.md'), 'utf8');
const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
/** `npm run start:prod`: the production command, as words. */
const production = scripts['start:prod'].split(' ');

// Built by `npm run build`'s script, into a directory of this run's own (runs of the suite may overlap,
// and dist/ is the operator's) inside the repository, so that node_modules/ and package.json are found.
// Types are checked by `npm run typecheck`; here --no-check only saves the time.
const buildDir = join(repoRoot, '.tmp', `build-${newId()}`);
let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  expect(scripts.build).toBe('node scripts/build.mjs');
  await promisify(execFile)(process.execPath, ['scripts/build.mjs', '--no-check', '--out-dir', relative(repoRoot, buildDir)], { cwd: repoRoot });
  database = await freshDatabase();
}, TEST_MS);
afterAll(async () => {
  rmSync(buildDir, { recursive: true, force: true });
  await database?.dispose();
});

const started: ServerProcess[] = [];
afterEach(async () => {
  // A test that failed half-way leaves no process behind (nor a held database).
  while (started.length) await stopProcess(started.pop()!);
});

/** The production command's Node arguments, with dist/ replaced by this run's build. */
function productionArgs(): string[] {
  const [node, ...args] = production;
  expect(node).toBe('node');
  return args.map((arg) => (arg.startsWith('dist/') ? relative(repoRoot, join(buildDir, arg.slice('dist/'.length))) : arg));
}

async function startProduction(): Promise<ServerProcess> {
  const server = await spawnServer({ ...database.env, OWNER_TOKEN, NODE_ENV: 'production', INSIGHTS_WORKERS: '1' }, productionArgs());
  started.push(server);
  await waitFor(server, async () => (await fetch(`${server.url}/healthz`).catch(() => null))?.status === 200);
  return server;
}

type Answer = { status: number; body: any; reusedConnection: boolean; closing: boolean };

/** One request on `agent`'s connection (kept alive between requests). */
function send(agent: Agent, server: ServerProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const json = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { authorization: `Bearer ${OWNER_TOKEN}`, ...(json ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: text ? JSON.parse(text) : null,
            reusedConnection: req.reusedSocket,
            closing: res.headers.connection === 'close',
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(json);
  });
}

/**
 * A client on one keep-alive connection, creating spaces and listing them in turn until the server
 * refuses or drops its connection: the spaces it was answered 201 for, and what it was answered.
 */
async function client(server: ServerProcess, organizationId: string, n: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const created: string[] = [];
  const statuses = new Set<number>();
  let answers = 0;
  let reused = 0;
  // Answered while the server drained: it closes the connection after the answer.
  let drained = 0;
  try {
    for (let i = 0; ; i++) {
      const answer = await (i % 2
        ? send(agent, server, 'GET', `/v1/orgs/${organizationId}/spaces?limit=5`)
        : send(agent, server, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: `Client ${n}, space ${i}` }));
      answers++;
      if (answer.reusedConnection) reused++;
      if (answer.closing) drained++;
      statuses.add(answer.status);
      if (answer.status === 201) created.push(answer.body.id);
    }
  } catch (error) {
    // The end: a new connection refused, or a kept one closed by the server as a request went out.
    return { created, statuses, answers, reused, drained, end: (error as NodeJS.ErrnoException).code };
  } finally {
    agent.destroy();
  }
}

describe('production start', () => {
  it('the supervisor examples run node on the compiled entry point with the Node flags of npm start, never npm', () => {
    // npm start runs the build too (through its launcher, which finds a current Node.js and rebuilds
    // outdated sources), with the same flags.
    expect(production).toEqual(['node', '--max-old-space-size=1024', '--max-semi-space-size=16', 'dist/src/main.js']);
    expect(scripts.start).toBe([...production.slice(0, -1), 'scripts/launch.mjs'].join(' '));

    const unit = /```ini\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';
    const execStart = unit.split('\n').filter((line) => line.startsWith('ExecStart='));
    expect(execStart).toEqual([`ExecStart=/usr/bin/node ${production.slice(1).join(' ')}`]);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    // The supervisor waits longer than the drain's bound (SHUTDOWN_TIMEOUT_MS, 10 s by default).
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1])).toBeGreaterThan(10);

    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const starts = finalStage.split('\n').filter((line) => /^(CMD|ENTRYPOINT) /.test(line));
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatch(/^CMD \[/);
    expect(JSON.parse(starts[0].slice('CMD '.length))).toEqual(production);
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);

    // Neither npm start nor its documented alternative appears where a supervisor starts the server.
    const runExamples = [...docs.matchAll(/```(?:sh|yaml)\n([\s\S]*?)```/g)]
      .map((block) => block[1])
      .filter((block) => /docker (run|compose)|services:/.test(block));
    expect(runExamples.length).toBeGreaterThanOrEqual(2);
    for (const text of [unit, finalStage, ...runExamples]) {
      expect(text).not.toMatch(/\bnpm (start|run start)|npm run start:prod|\bnpx\b|\btsx\b/);
    }
    expect(runExamples.join('\n')).toMatch(/--init/);
    expect(runExamples.join('\n')).toMatch(/init: true/);
  });

  it(
    'npm start runs the compiled server in its own process (no TypeScript loaded), which SIGTERM stops',
    async () => {
      const [node, ...args] = scripts.start.split(' ');
      expect(node).toBe('node');
      // The launcher builds dist/ first if the sources are newer (a type-check-free build of a few seconds).
      const server = await spawnServer({ ...database.env, OWNER_TOKEN, INSIGHTS_WORKERS: '1' }, ['--import', './test/support/no-typescript.mjs', ...args]);
      started.push(server);
      await waitFor(server, async () => (await fetch(`${server.url}/healthz`).catch(() => null))?.status === 200, 120_000);
      expect((await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } })).status).toBe(200);
      expect(await stopProcess(server, 'SIGTERM')).toEqual({ code: 0, signal: null });
      expect(server.stderr()).not.toContain('TypeScript at run time');
    },
    TEST_MS,
  );

  it(
    'serves from the build (migrations, schema, playground assets, the insights worker thread); under keep-alive load SIGTERM drains and exits 0, losing nothing acknowledged',
    async () => {
      const server = await startProduction();
      const setup = new Agent({ keepAlive: true });
      const organizationId = (await send(setup, server, 'GET', '/v1/orgs')).body.items[0].id as string;
      expect((await fetch(`${server.url}/graphql/assets/graphiql.js`)).status).toBe(200);
      const site = await send(setup, server, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' });
      expect(site.status).toBe(201);
      // Parsed and encoded by the compiled worker (INSIGHTS_WORKERS=1): a worker that cannot load fails the request.
      const tracked = await send(setup, server, 'POST', `/v1/orgs/${organizationId}/sites/${site.body.id}/insights/events`, { events: [siteEvent()] });
      expect(tracked.status).toBe(204);
      setup.destroy();

      const clients = Array.from({ length: CLIENTS }, (_, n) => client(server, organizationId, n));
      // Load for a while: every client has been answered on its kept connection.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const signalled = performance.now();
      server.child.kill('SIGTERM');
      const exit = await server.exited;
      const elapsedMs = performance.now() - signalled;
      const results = await Promise.all(clients);

      expect(exit).toEqual({ code: 0, signal: null });
      expect(server.stdout()).not.toContain('shutdown did not finish');
      // Generous: the drain is bounded by SHUTDOWN_TIMEOUT_MS (10 s), the backstop 5 s later exits 1.
      expect(elapsedMs).toBeLessThan(15_000);
      const answers = results.reduce((sum, r) => sum + r.answers, 0);
      const reused = results.reduce((sum, r) => sum + r.reused, 0);
      const drained = results.reduce((sum, r) => sum + r.drained, 0);
      console.log(
        `SIGTERM to exit under keep-alive load (${CLIENTS} clients, ${answers} requests answered, ${reused} on a reused connection, ${drained} in flight at SIGTERM and answered): ${Math.round(elapsedMs)} ms`,
      );
      for (const result of results) {
        expect(result.answers).toBeGreaterThan(2);
        expect(result.reused).toBeGreaterThan(0);
        expect([...result.statuses].every((status) => status === 200 || status === 201)).toBe(true);
        expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']).toContain(result.end);
      }

      // Started again from the build on the same database: every space a client was answered 201 for is there.
      const again = await startProduction();
      const check = new Agent({ keepAlive: true });
      const created = results.flatMap((result) => result.created);
      for (const id of created) expect((await send(check, again, 'GET', `/v1/spaces/${id}`)).status).toBe(200);
      check.destroy();
      expect(await stopProcess(again, 'SIGTERM')).toEqual({ code: 0, signal: null });
    },
    TEST_MS,
  );
});
