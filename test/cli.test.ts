import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import type { Database } from '../src/db/orm.js';
import { Member } from '../src/domain/organizations/index.js';
import { newId } from '../src/kernel/ids.js';
import { createLogger } from '../src/kernel/logger.js';
import { startServer } from '../src/server.js';
import { runCliInProcess } from './support/cli.js';
import { freshDatabase, TEST_SECRET_KEY } from './support/database.js';

/**
 * The admin CLI, mostly in this process (one test runs the real executable). The embedded database
 * (PGlite) belongs to one user at a time, so the CLI and the server take turns on the same directory.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const url = process.env.TEST_DATABASE_URL;
let database: Database;
let env: NodeJS.ProcessEnv;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = process.env;
  const fresh = await freshDatabase();
  ({ database, dispose } = fresh);
  env = { ...rest, ...fresh.env };
});
afterAll(() => dispose?.());

/** The command line in this process, on this file's database. */
const cli = (...args: string[]) => runCliInProcess(args, env);

/** The real executable, as a child process. */
function spawnCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Runs CLI calls side by side on PostgreSQL, one after the other on the single-process embedded database. */
async function inTurn(...calls: string[][]) {
  if (url) return Promise.all(calls.map((args) => cli(...args)));
  const results = [];
  for (const args of calls) results.push(await cli(...args));
  return results;
}

/** Starts the server on the CLI's database, runs `check`, and stops it again (freeing an embedded database). */
async function withServer(check: (server: Awaited<ReturnType<typeof startServer>>) => Promise<void>) {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', JOB_POLL_MS: '0', SECRET_KEY: TEST_SECRET_KEY });
  const server = await startServer(config, { logger: createLogger('silent'), database });
  try {
    await check(server);
  } finally {
    await server.stop();
  }
}

async function gql(server: { url: string }, token: string, query: string) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: await res.json() };
}

const id = /^[0-9A-Za-z]{20}\n$/;
const tag = newId().toLowerCase();
const alice = `alice-${tag}@example.com`;
const bob = `bob-${tag}@example.com`;
const made = { aliceId: '', bobId: '', token: '', orgId: '' };

describe('admin CLI', { timeout: 60_000 }, () => {
  it('creates users, a token, an organization and a member, printing only what it made', async () => {
    const user = await cli('user:create', '--email', alice, '--name', 'Alice');
    expect(user).toMatchObject({ code: 0, stderr: '' });
    expect(user.stdout).toMatch(id);
    made.aliceId = user.stdout.trim();

    const token = await cli('token:create', '--email', alice, '--label', 'deploy');
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^dp_[\w-]{43}\n$/);
    expect(token.stderr).toContain(`for ${alice}`);
    made.token = token.stdout.trim();

    const org = await cli('org:create', '--title', 'Acme Docs', '--owner', alice);
    expect(org).toMatchObject({ code: 0, stderr: '' });
    expect(org.stdout).toMatch(id);
    made.orgId = org.stdout.trim();

    const other = await cli('user:create', '--email', bob, '--name', 'Bob');
    expect(other.stdout).toMatch(id);
    made.bobId = other.stdout.trim();

    const member = await cli('member:add', '--org', made.orgId, '--email', bob, '--role', 'review');
    expect(member).toEqual({ code: 0, stdout: `${made.bobId}\n`, stderr: '' });

    // A scoped token: the options are the scope of adminCreateApiToken's input.
    const scoped = await cli('token:create', '--email', bob, '--label', 'reader', '--organization', made.orgId, '--role', 'read', '--expires-in', '3600');
    expect(scoped.code).toBe(0);
    expect(scoped.stderr).toMatch(new RegExp(`limited to organization ${made.orgId}, capped at read, expires \\d{4}-`));
  });

  it('rejects bad input with a message on stderr and a non-zero exit', async () => {
    // Usage errors never open the database, so they run beside the others; those take turns on an embedded one.
    const [[role, missing], [badEmail, duplicate, unknownOrg]] = await Promise.all([
      Promise.all([cli('member:add', '--org', made.orgId, '--email', bob, '--role', 'owner'), cli('user:create', '--email', `carol-${tag}@example.com`)]),
      inTurn(
        ['user:create', '--email', 'not-an-email', '--name', 'X'],
        ['user:create', '--email', alice.toUpperCase(), '--name', 'Alice again'],
        ['member:add', '--org', 'no-such-organization', '--email', bob, '--role', 'read'],
      ),
    ]);
    expect(role).toMatchObject({ code: 2, stdout: '' });
    expect(role.stderr).toMatch(/'owner' is invalid.*read, comment, edit, review, create, admin, guest/);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain("required option '--name <displayName>' not specified");
    expect(badEmail).toEqual({ code: 1, stdout: '', stderr: 'error: email: must be an e-mail address\n' });
    expect(duplicate).toEqual({ code: 1, stdout: '', stderr: `error: email: a user with e-mail ${alice} already exists\n` });
    expect(unknownOrg).toEqual({ code: 1, stdout: '', stderr: 'error: Organization not found\n' });
  });

  it('runs as an executable with exit codes and only the result on stdout', async () => {
    const created = await spawnCli('user:create', '--email', `dave-${tag}@example.com`, '--name', 'Dave');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(id);
    const usage = await spawnCli('member:add', '--org', 'x', '--email', bob, '--role', 'owner');
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    const refused = await spawnCli('user:create', '--email', `dave-${tag}@example.com`, '--name', 'Dave');
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `error: email: a user with e-mail dave-${tag}@example.com already exists\n` });
  });

  it('issues a token the server accepts, and revokes it', async () => {
    let tokenId = '';
    await withServer(async (server) => {
      const { status, body } = await gql(
        server,
        made.token,
        '{ viewer { id email displayName } apiTokens { id label } organizations { items { id title viewerRole } } }',
      );
      expect(status).toBe(200);
      expect(body.data.viewer).toEqual({ id: made.aliceId, email: alice, displayName: 'Alice' });
      expect(body.data.apiTokens).toEqual([{ id: expect.any(String), label: 'deploy' }]);
      expect(body.data.organizations.items).toEqual([{ id: made.orgId, title: 'Acme Docs', viewerRole: 'admin' }]);
      tokenId = body.data.apiTokens[0].id;
      const membership = await server.deps.orm.em.fork().findOneOrFail(Member, { organization: made.orgId, user: made.bobId });
      expect(membership.role).toBe('review');
    });

    expect(await cli('token:revoke', '--email', alice, '--id', tokenId)).toEqual({ code: 0, stdout: `${tokenId}\n`, stderr: '' });
    expect(await cli('member:add', '--org', made.orgId, '--email', bob, '--role', 'guest')).toMatchObject({ code: 0, stdout: `${made.bobId}\n` });

    await withServer(async (server) => {
      const { status, body } = await gql(server, made.token, '{ viewer { id } }');
      expect(status).toBe(401);
      expect(body.errors[0].message).toBe('Invalid or revoked API token');
      const membership = await server.deps.orm.em.fork().findOneOrFail(Member, { organization: made.orgId, user: made.bobId });
      expect(membership.role).toBeNull();
    });
  });
});
