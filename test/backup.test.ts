import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkBackup } from '../src/backup/archive.js';
import { LOCK_FILE, lockDataDir, readHolder } from '../src/db/data-dir-lock.js';
import { dataDirLockOf } from '../src/db/orm.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { runCliInProcess } from './support/cli.js';
import { freshDatabase } from './support/database.js';
import { newOrganization, newUser, rest, type Caller } from './support/factories.js';
import { runCliProcess, spawnServer, stopProcess, waitFor, type ServerProcess } from './support/processes.js';
import { startTestServer, type TestServer, useTestServer } from './support/server.js';

/**
 * Backups: GET /admin/backup (both databases: who may call it; on PostgreSQL it says to use pg_dump),
 * and on the embedded database `cli backup` / `cli restore`, through a running server and without one.
 */
const onServer = !!process.env.TEST_DATABASE_URL;
const scratch = mkdtempSync(join(tmpdir(), 'dp-test-backup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function instanceAdmin(server: TestServer): Promise<string> {
  const user = await createUser(server.em(), server.clock, { email: `admin-${newId().toLowerCase()}@example.com`, displayName: 'Admin', instanceAdmin: true });
  return (await createApiToken(server.em(), server.clock, user.id, 'backups')).secret;
}

describe('GET /admin/backup', () => {
  const server = useTestServer();
  let user: Caller;
  let adminToken: string;

  beforeAll(async () => {
    user = await newUser(server);
    adminToken = await instanceAdmin(server);
  });

  it('requires an instance administrator: 401 without a token or with a bad one, 403 for any other user', async () => {
    for (const token of [null, 'dp_not-a-token']) {
      const res = await rest(server, token, 'GET', '/admin/backup');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } });
    }
    const refused = await rest(server, user.token, 'GET', '/admin/backup');
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 403, message: 'Only instance administrators may do this' } } });
  });

  it.skipIf(!onServer)('on PostgreSQL answers 404 saying to use pg_dump', async () => {
    const res = await rest(server, adminToken, 'GET', '/admin/backup');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('pg_dump');
  });

  it.skipIf(onServer)('streams a backup archive of the embedded database to an instance administrator, two at once', async () => {
    const download = async () => {
      const res = await fetch(`${server.url}/admin/backup`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/gzip');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="backup-[\dTZ-]+\.tar\.gz"$/);
      return checkBackup(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream));
    };
    for (const manifest of await Promise.all([download(), download()])) {
      expect(manifest).toMatchObject({ format: 'docs-platform-backup', version: 1, migration: expect.stringMatching(/^Migration\d+$/) });
    }
    // The snapshots they were sent from are removed once sent.
    const snapshots = join(dataDirLockOf(server.deps.orm)!.dataDir, 'backup-snapshots');
    await vi.waitFor(() => expect(readdirSync(snapshots)).toEqual([]));
  });

  it('`cli backup` with DATABASE_URL says to use pg_dump, with the schema', async () => {
    const result = await runCliInProcess(['backup', join(scratch, 'never.tar.gz')], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      DATABASE_SCHEMA: 'docs',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`pg_dump --format=custom --no-owner --schema='docs' --file=<file> "$DATABASE_URL"`);
    expect(existsSync(join(scratch, 'never.tar.gz'))).toBe(false);
  });
});

describe.skipIf(onServer)('backups of the embedded database', { timeout: 180_000 }, () => {
  const ownerToken = `owner-${newId()}`;
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let dataDir: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    fresh = await freshDatabase();
    dataDir = fresh.env.DATA_DIR!;
  });
  afterAll(async () => {
    for (const server of servers) await stopProcess(server);
    await fresh?.dispose();
  });

  /** Starts a server process on a data directory; resolves once it serves (and holds the directory). */
  async function serve(dir: string) {
    // The writes under test come as fast as the server takes them: more than a token's default budget.
    const server = await spawnServer({ DATA_DIR: dir, OWNER_TOKEN: ownerToken, RATE_LIMIT_WRITES: '0' });
    servers.push(server);
    await waitFor(server, () => readHolder(join(dir, LOCK_FILE))?.url === server.url);
    return server;
  }

  const call = (server: ServerProcess, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: await res.json().catch(() => undefined) }));

  /** Every space title of an organization, page after page. */
  async function titles(server: ServerProcess, organizationId: string): Promise<Set<string>> {
    const found = new Set<string>();
    let page = '';
    do {
      const res = await call(server, 'GET', `/v1/orgs/${organizationId}/spaces?limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      expect(res.status).toBe(200);
      for (const space of res.body.items) found.add(space.title);
      page = res.body.next?.page ?? '';
    } while (page);
    return found;
  }

  it('taken through the running server while writes go on, restores every write acknowledged before it began', async () => {
    const server = await serve(dataDir);
    const organizationId = (await call(server, 'GET', '/v1/orgs')).body.items[0].id;
    // A sealed server secret (the visitor-claims key): the restored server needs the master key.
    expect((await call(server, 'POST', `/v1/orgs/${organizationId}/ping`)).status).toBe(200);

    // Writes, one after the other, each recorded with when it was sent and when it was acknowledged.
    const writes: { title: string; sentAt: number; ackedAt?: number }[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const write: (typeof writes)[number] = { title: `Write ${i}`, sentAt: Date.now() };
        writes.push(write);
        const res = await call(server, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: write.title });
        expect(res.status).toBe(201);
        write.ackedAt = Date.now();
      }
    })();
    const acknowledged = () => writes.filter((write) => write.ackedAt !== undefined).length;
    while (acknowledged() < 10) await new Promise((resolve) => setTimeout(resolve, 20));

    const file = join(scratch, 'running.tar.gz');
    const backupBegan = Date.now();
    const backup = await runCliProcess(['backup', file], { DATA_DIR: dataDir });
    const backupEnded = Date.now();
    const afterwards = acknowledged();
    while (acknowledged() < afterwards + 5) await new Promise((resolve) => setTimeout(resolve, 20));
    writing = false;
    await writer;

    expect(backup).toMatchObject({ code: 0, stdout: `${file}\n` });
    expect(backup.stderr).toContain(`through the server (process ${server.child.pid}) that holds ${dataDir}`);
    expect(backup.stderr).toMatch(/the master key is not in the backup \(its server secrets are sealed with master key [0-9a-f]{12}\)/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await vi.waitFor(() => expect(readdirSync(join(dataDir, 'backup-snapshots'))).toEqual([]));
    expect(writes.filter((write) => write.sentAt > backupEnded).length).toBeGreaterThan(0);

    // Restored here (the backup was the real executable's): without the master key it is refused before anything is written.
    const restored = join(scratch, 'restored');
    const keyless = await runCliInProcess(['restore', file, restored], {});
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toMatch(/sealed with master key [0-9a-f]{12}, and no key was given: give the key file .* with --key-file/);
    expect(existsSync(restored)).toBe(false);

    const restore = await runCliInProcess(['restore', file, restored, '--key-file', join(dataDir, 'secret.key')], {});
    expect(restore).toMatchObject({ code: 0, stdout: `${restored}\n` });
    expect(restore.stderr).toContain(`the master key is in ${join(restored, 'secret.key')}`);
    expect(readFileSync(join(restored, 'secret.key'), 'utf8')).toBe(readFileSync(join(dataDir, 'secret.key'), 'utf8'));

    // The restored directory opens with the server as operators start it.
    await stopProcess(server);
    const again = await serve(restored);
    const found = await titles(again, organizationId);
    for (const write of writes.filter((w) => w.ackedAt !== undefined && w.ackedAt < backupBegan)) expect(found).toContain(write.title);
    for (const write of writes.filter((w) => w.sentAt > backupEnded)) expect(found).not.toContain(write.title);
    const attempted = new Set(writes.map((write) => write.title));
    for (const title of found) expect(attempted.has(title)).toBe(true);
    // The sealed secret opens with the key restored beside the database.
    expect((await call(again, 'POST', `/v1/orgs/${organizationId}/ping`)).status).toBe(200);
  });

  it('without a server, backs up the directory itself; restore refuses a damaged file, a non-empty or held target', async () => {
    for (const server of servers.splice(0)) await stopProcess(server);
    const inside = await runCliInProcess(['backup', join(dataDir, 'backup.tar.gz')], { DATA_DIR: dataDir });
    expect(inside).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${join(dataDir, 'backup.tar.gz')} is inside DATA_DIR (${dataDir}): write the backup elsewhere\n`,
    });
    const file = join(scratch, 'direct.tar.gz');
    const backup = await runCliInProcess(['backup', file], { DATA_DIR: dataDir });
    expect(backup).toMatchObject({ code: 0, stdout: `${file}\n` });
    expect(backup.stderr).toContain(`backed up ${dataDir} (no server held it)`);
    // The CLI let go of the directory.
    lockDataDir(dataDir, 'cli').release();
    const key = ['--key-file', join(dataDir, 'secret.key')];

    const occupied = join(scratch, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'notes.txt'), 'mine');
    expect(await runCliInProcess(['restore', file, occupied, ...key], {})).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${occupied} is not empty: restore into a new directory (an empty one, or one that does not exist)\n`,
    });
    expect(readdirSync(occupied)).toEqual(['notes.txt']);

    const held = join(scratch, 'held');
    const lock = lockDataDir(held, 'cli');
    try {
      const refused = await runCliInProcess(['restore', file, held, ...key], {});
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`error: ${held} is in use by process ${process.pid} (the admin CLI`);
    } finally {
      lock.release();
    }

    const damaged = join(scratch, 'damaged.tar.gz');
    writeFileSync(damaged, readFileSync(file).subarray(0, Math.floor(statSync(file).size / 2)));
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    const broken = await runCliInProcess(['restore', damaged, empty, ...key], {});
    expect(broken).toMatchObject({ code: 1, stdout: '' });
    expect(broken.stderr).toContain('the archive is damaged or incomplete');
    expect(readdirSync(empty)).toEqual([]);

    const restored = await runCliInProcess(['restore', file, empty, ...key], {});
    expect(restored).toMatchObject({ code: 0, stdout: `${empty}\n` });
    expect(restored.stderr).toMatch(/: 1 users, 1 organizations, \d+ spaces/);
    const server = await startTestServer({}, { database: { database: { dataDir: empty }, env: {}, dispose: async () => {} } });
    try {
      const [organization] = (await rest(server, ownerToken, 'GET', '/v1/orgs')).body.items;
      const spaces = await rest(server, ownerToken, 'GET', `/v1/orgs/${organization.id}/spaces?limit=100`);
      expect(spaces.body.items.map((space: { title: string }) => space.title)).toContain('Write 0');
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(onServer)('a backup of the embedded database and OpenAPI spec versions', () => {
  it('restores every version of a spec, with its content', async () => {
    const fresh = await freshDatabase();
    const dataDir = fresh.env.DATA_DIR;
    try {
      const first = await startTestServer({}, { database: fresh });
      const admin = await newUser(first);
      const organization = await newOrganization(first, admin);
      const path = `/v1/orgs/${organization.id}/openapi/kept`;
      const read = async (server: TestServer) => {
        const versions = await rest(server, admin.token, 'GET', `${path}/versions`);
        const content = await rest(server, admin.token, 'GET', `${path}/versions/${(versions.body as { items: { id: string }[] }).items[1]?.id}/content`);
        return { versions: versions.body as { count: number }, content: content.body as unknown };
      };
      let before: Awaited<ReturnType<typeof read>>;
      try {
        for (const version of ['1.0.0', '2.0.0']) {
          first.clock.advance(1000);
          const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Kept', version }, paths: {} });
          expect((await admin.rest('PUT', path, { source: { text } })).status).toBeLessThan(300);
          for (let i = 0; i < 20 && (await first.runDueJobs()) > 0; i++);
        }
        before = await read(first);
        expect(before.versions.count).toBe(2);
        expect(before.content).toMatchObject({ filesystem: { 'openapi.json': { info: { version: '1.0.0' } } } });
      } finally {
        await first.stop();
      }

      const file = join(scratch, 'openapi-versions.tar.gz');
      expect(await runCliInProcess(['backup', file], { DATA_DIR: dataDir })).toMatchObject({ code: 0 });
      const restored = join(scratch, 'openapi-versions-restored');
      const keyFile = join(dataDir, 'secret.key');
      const key = existsSync(keyFile) ? ['--key-file', keyFile] : [];
      expect(await runCliInProcess(['restore', file, restored, ...key], {})).toMatchObject({ code: 0 });
      const again = await startTestServer({}, { database: { database: { dataDir: restored }, env: {}, dispose: async () => {} } });
      try {
        expect(await read(again)).toEqual(before);
      } finally {
        await again.stop();
      }
    } finally {
      await fresh.dispose();
    }
  });
});
