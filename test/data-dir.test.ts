import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir, readHolder } from '../src/db/data-dir-lock.js';
import { newId } from '../src/kernel/ids.js';
import { freshDatabase } from './support/database.js';
import { runCliProcess, spawnServer, stopProcess, waitFor, type ServerProcess } from './support/processes.js';

/**
 * The embedded database's data directory belongs to one process: servers and the admin CLI started on
 * it in processes of their own, as an operator starts them. (On a PostgreSQL server there is no data
 * directory to hold, so the PostgreSQL run of the suite has nothing to test here.)
 */
const onServer = !!process.env.TEST_DATABASE_URL;

describe.skipIf(onServer)('the embedded data directory', { timeout: 120_000 }, () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let dataDir: string;
  let server: ServerProcess | undefined;
  const ownerToken = `owner-${newId()}`;
  const userEmail = `carol-${newId().toLowerCase()}@example.com`;
  let userToken = '';

  beforeAll(async () => {
    fresh = await freshDatabase();
    dataDir = fresh.env.DATA_DIR!;
  });
  afterAll(async () => {
    if (server) await stopProcess(server);
    await fresh?.dispose();
  });

  /** Starts a server on the directory and waits until the admin CLI can come through it. */
  async function startHolder() {
    const started = await spawnServer({ DATA_DIR: dataDir, OWNER_TOKEN: ownerToken });
    await waitFor(started, () => readHolder(join(dataDir, LOCK_FILE))?.url === started.url);
    return started;
  }

  const call = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${server!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: await res.json().catch(() => undefined) }));

  const cli = (args: string[], env: Record<string, string> = {}) => runCliProcess(args, { DATA_DIR: dataDir, ...env });

  it('belongs to one server: a second refuses at once, naming the directory and the holder', async () => {
    server = await startHolder();
    const second = await spawnServer({ DATA_DIR: dataDir, OWNER_TOKEN: ownerToken });
    expect((await second.exited).code).toBe(1);
    const [stdout, stderr] = [second.stdout(), second.stderr()];
    expect(stderr).toContain(`error: ${dataDir} is in use by process ${server.child.pid} (a server, since `);
    expect(stdout).not.toMatch(/token|listening/i);
    expect((await call(ownerToken, 'GET', '/v1/user')).status).toBe(200);
  });

  it('runs the admin CLI through the server that holds it', async () => {
    const user = await cli(['user:create', '--email', userEmail, '--name', 'Carol']);
    expect(user).toMatchObject({ code: 0, stderr: '' });
    expect(user.stdout).toMatch(/^[0-9A-Za-z]{20}\n$/);

    const token = await cli(['token:create', '--email', userEmail, '--label', 'laptop']);
    expect(token.code).toBe(0);
    expect(token.stderr).toContain(`for ${userEmail}`);
    userToken = token.stdout.trim();
    const viewer = await call(userToken, 'GET', '/v1/user');
    expect(viewer).toMatchObject({ status: 200, body: { id: user.stdout.trim(), email: userEmail, displayName: 'Carol' } });

    const org = await cli(['org:create', '--title', 'Carol Docs', '--owner', userEmail]);
    expect(org.code).toBe(0);
    const organizationId = org.stdout.trim();
    expect(await call(userToken, 'GET', `/v1/orgs/${organizationId}`)).toMatchObject({ status: 200, body: { id: organizationId, title: 'Carol Docs' } });

    const owner = (await call(ownerToken, 'GET', '/v1/user')).body;
    expect(await cli(['member:add', '--org', organizationId, '--email', owner.email, '--role', 'review'])).toEqual({
      code: 0,
      stdout: `${owner.id}\n`,
      stderr: '',
    });
    expect((await call(userToken, 'GET', `/v1/orgs/${organizationId}/members/${owner.id}`)).body).toMatchObject({ role: 'review' });

    expect(await cli(['user:create', '--email', userEmail, '--name', 'Carol'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: email: a user with e-mail ${userEmail} already exists\n`,
    });
    const refused = await cli(['user:create', '--email', `x-${userEmail}`, '--name', 'X'], { ADMIN_TOKEN: 'dp_not-a-token' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`refused the token in ADMIN_TOKEN`);
    // The token a user holds is no instance administrator's.
    const notAdmin = await cli(['user:create', '--email', `y-${userEmail}`, '--name', 'Y'], { ADMIN_TOKEN: userToken });
    expect(notAdmin).toEqual({ code: 1, stdout: '', stderr: 'error: Only instance administrators may do this\n' });
  });

  it('is taken over from a killed server with every acknowledged write', async () => {
    const [organization] = (await call(userToken, 'GET', '/v1/orgs')).body.items;
    const titles = Array.from({ length: 12 }, (_, i) => `Acknowledged ${i}`);
    for (const title of titles) {
      expect((await call(userToken, 'POST', `/v1/orgs/${organization.id}/spaces`, { title })).status).toBe(201);
    }
    await stopProcess(server!, 'SIGKILL');

    // The lock died with its holder: the CLI opens the directory itself at once.
    const direct = await cli(['user:create', '--email', `dave-${userEmail}`, '--name', 'Dave']);
    expect(direct).toMatchObject({ code: 0, stderr: '' });

    server = await startHolder();
    const spaces = await call(userToken, 'GET', `/v1/orgs/${organization.id}/spaces?limit=100`);
    expect(spaces.status).toBe(200);
    expect(spaces.body.items.map((s: { title: string }) => s.title).sort()).toEqual([...titles].sort());
    const token = await cli(['token:create', '--email', `dave-${userEmail}`]);
    expect((await call(token.stdout.trim(), 'GET', '/v1/user')).body).toMatchObject({ email: `dave-${userEmail}` });
    await stopProcess(server, 'SIGKILL');
    server = undefined;
  });

  it('held by the admin CLI, refuses a server', async () => {
    const lock = lockDataDir(dataDir, 'cli');
    try {
      const refused = await spawnServer({ DATA_DIR: dataDir });
      expect((await refused.exited).code).toBe(1);
      expect(refused.stderr()).toContain(`${dataDir} is in use by process ${process.pid} (the admin CLI, since `);
    } finally {
      lock.release();
    }
  });
});
