/**
 * Instances on one database agree or refuse: the first start that sets PUBLIC_URL records it, a start
 * with another value refuses (in-process: InstanceDisagreement; as a process: one line and exit 1),
 * PUBLIC_URL_PREVIOUS changes it on purpose; an OWNER_TOKEN that is not the provisioned owner's token
 * is warned about and changes nothing. Starts follow each other on one database (an embedded data
 * directory has one process at a time); on a PostgreSQL server, two also start at once.
 */
import { describe, expect, it } from 'vitest';
import { InstanceDisagreement } from '../src/instances/agreement.js';
import { InstanceSetting } from '../src/instances/entities.js';
import { hashTokenSecret } from '../src/auth/tokens.js';
import { useCleanups } from './support/cleanups.js';
import type { FreshDatabase } from './support/database.js';
import { capturedLogs } from './support/logs.js';
import { runMigration } from './support/migrations.js';
import { spawnServer, stopProcess } from './support/processes.js';
import { startTestServer, type TestServer } from './support/server.js';

const onServer = !!process.env.TEST_DATABASE_URL;
const OWNER_TOKEN = 'instances-test-owner-token-0123456789';
const OTHER_TOKEN = 'instances-test-other-token-0123456789';

const cleanups = useCleanups();

/** Starts a server on `db` (provisioning as a first start does); its warnings land in `warnings`. */
async function start(db: FreshDatabase, env: Record<string, string>, warnings: string[] = []): Promise<TestServer> {
  const { logger, lines } = capturedLogs('warn');
  const server = await startTestServer(env, { database: db, logger, provision: true }).finally(() => {
    warnings.push(...lines.map((line) => JSON.parse(line).msg as string));
  });
  cleanups.add(() => server.stop());
  return server;
}

/** Starts a server on `db` and stops it again, with the warnings it logged. */
async function startAndStop(db: FreshDatabase, env: Record<string, string>): Promise<string[]> {
  const warnings: string[] = [];
  const server = await start(db, env, warnings);
  await server.stop();
  return warnings;
}

async function recorded(server: TestServer) {
  return Object.fromEntries((await server.em().find(InstanceSetting, {})).map((row) => [row.name, row.value]));
}

async function locationOfOwnOrganization(server: TestServer, token: string) {
  const res = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: { urls: { location: string } }[] }).items[0].urls.location;
}

describe('PUBLIC_URL', () => {
  it('is recorded by the first start; the same URL starts again, written another way; another URL is refused naming both and changes nothing', async () => {
    const db = await cleanups.database();
    const first = await start(db, { PUBLIC_URL: 'https://docs.example.com', OWNER_TOKEN });
    expect(await recorded(first)).toMatchObject({ public_url: 'https://docs.example.com' });
    await first.stop();

    // Case of scheme and host, the default port and a trailing slash do not count.
    const again = await start(db, { PUBLIC_URL: 'HTTPS://Docs.Example.com:443/', OWNER_TOKEN });
    await again.stop();

    const refusal = start(db, { PUBLIC_URL: 'https://other.example.com', OWNER_TOKEN });
    await expect(refusal).rejects.toThrow(InstanceDisagreement);
    const message = (await refusal.catch((error: Error) => error.message)) as string;
    expect(message).toContain('PUBLIC_URL is https://other.example.com');
    expect(message).toContain('served at https://docs.example.com');
    expect(message).toContain('PUBLIC_URL_PREVIOUS=https://docs.example.com');
    expect(message).not.toContain('\n');

    // Nothing changed: the recorded URL starts, and builds the URLs.
    const after = await start(db, { PUBLIC_URL: 'https://docs.example.com', OWNER_TOKEN });
    expect(await recorded(after)).toMatchObject({ public_url: 'https://docs.example.com' });
    expect(await locationOfOwnOrganization(after, OWNER_TOKEN)).toMatch(/^https:\/\/docs\.example\.com\/v1\/orgs\//);
  });

  it('is refused when unset once a value is recorded; nothing is recorded while it is unset', async () => {
    const db = await cleanups.database();
    // Unset: every start uses its local default, and nothing binds the next one.
    expect(await startAndStop(db, { PUBLIC_URL: '' })).toEqual([]);
    const first = await start(db, { PUBLIC_URL: 'https://docs.example.com/help/' });
    expect(await recorded(first)).toMatchObject({ public_url: 'https://docs.example.com/help' });
    await first.stop();
    await expect(start(db, { PUBLIC_URL: '' })).rejects.toThrow(
      /^PUBLIC_URL is not set \(this instance would use http:\/\/localhost:0\) but this database is served at https:\/\/docs\.example\.com\/help: set PUBLIC_URL=https:\/\/docs\.example\.com\/help/,
    );
  });

  it('changes on purpose with PUBLIC_URL_PREVIOUS naming the recorded value; a stale PUBLIC_URL_PREVIOUS changes nothing', async () => {
    const db = await cleanups.database();
    await startAndStop(db, { PUBLIC_URL: 'https://old.example.com', OWNER_TOKEN });
    await expect(start(db, { PUBLIC_URL: 'https://new.example.com', PUBLIC_URL_PREVIOUS: 'https://elsewhere.example.com' })).rejects.toThrow(
      /^PUBLIC_URL is https:\/\/new\.example\.com but this database is served at https:\/\/old\.example\.com/,
    );

    const warnings: string[] = [];
    const moved = await start(db, { PUBLIC_URL: 'https://new.example.com', PUBLIC_URL_PREVIOUS: 'https://old.example.com/', OWNER_TOKEN }, warnings);
    expect(warnings).toEqual([expect.stringMatching(/^PUBLIC_URL changed: recorded the new value/)]);
    expect(await recorded(moved)).toMatchObject({ public_url: 'https://new.example.com' });
    expect(await locationOfOwnOrganization(moved, OWNER_TOKEN)).toMatch(/^https:\/\/new\.example\.com\/v1\/orgs\//);
    await moved.stop();

    // Left in the configuration, PUBLIC_URL_PREVIOUS is harmless; the old URL is now the one refused.
    expect(await startAndStop(db, { PUBLIC_URL: 'https://new.example.com', PUBLIC_URL_PREVIOUS: 'https://old.example.com', OWNER_TOKEN })).toEqual([]);
    await expect(start(db, { PUBLIC_URL: 'https://old.example.com' })).rejects.toThrow(/served at https:\/\/new\.example\.com/);
  });

  it.skipIf(!onServer)('two instances starting at once with different values: the first records its value, the other is refused', async () => {
    const db = await cleanups.database();
    const starts = await Promise.allSettled(['https://a.example.com', 'https://b.example.com'].map((url) => start(db, { PUBLIC_URL: url })));
    const started = starts.filter((result) => result.status === 'fulfilled');
    const refused = starts.filter((result) => result.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0].reason).toBeInstanceOf(InstanceDisagreement);
    const winner = (started[0] as PromiseFulfilledResult<TestServer>).value;
    expect(refused[0].reason.message).toContain(`served at ${(await recorded(winner)).public_url}`);
  });

  it('a server process that disagrees exits 1 with one line on stderr, naming both values', async () => {
    const db = await cleanups.database();
    await startAndStop(db, { PUBLIC_URL: 'https://docs.example.com' });
    const server = await spawnServer({ ...db.env, PUBLIC_URL: 'https://elsewhere.example.com' });
    cleanups.add(() => stopProcess(server));
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(/^error: PUBLIC_URL is https:\/\/elsewhere\.example\.com but this database is served at https:\/\/docs\.example\.com: /),
    ]);
    expect(server.stdout()).not.toMatch(/listening/);
  }, 120_000);
});

describe('OWNER_TOKEN', () => {
  it("is only warned about when it is not the provisioned owner's token: it authenticates nobody, the provisioned one still works", async () => {
    const db = await cleanups.database();
    expect(await startAndStop(db, { OWNER_TOKEN })).toEqual([]);
    // The same token again: nothing to say.
    expect(await startAndStop(db, { OWNER_TOKEN })).toEqual([]);

    const warnings: string[] = [];
    const other = await start(db, { OWNER_TOKEN: OTHER_TOKEN }, warnings);
    expect(warnings).toEqual([expect.stringMatching(/^OWNER_TOKEN is not the token this database was provisioned with .*it authenticates nobody; remove it/)]);
    expect((await fetch(`${other.url}/v1/user`, { headers: { authorization: `Bearer ${OTHER_TOKEN}` } })).status).toBe(401);
    expect((await fetch(`${other.url}/v1/user`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } })).status).toBe(200);
  });

  it('is warned about once the provisioned token is revoked; a database provisioned without it warns too', async () => {
    const db = await cleanups.database();
    const first = await start(db, { OWNER_TOKEN });
    const [token] = (
      (await await fetch(`${first.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OWNER_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ apiTokens { id label } }' }),
      }).then((res) => res.json())) as { data: { apiTokens: { id: string; label: string }[] } }
    ).data.apiTokens;
    expect(token).toMatchObject({ label: 'owner (first start)' });
    const revoked = await fetch(`${first.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation($id: ID!) { revokeApiToken(id: $id) }', variables: { id: token.id } }),
    });
    expect(revoked.status).toBe(200);
    await first.stop();
    expect(await startAndStop(db, { OWNER_TOKEN })).toEqual([
      expect.stringMatching(/^OWNER_TOKEN is the token this database was provisioned with, revoked since: .*it authenticates nobody/),
    ]);

    // Provisioned with a token made by the first start (OWNER_TOKEN unset), then started with one.
    const unset = await cleanups.database();
    await startAndStop(unset, { OWNER_TOKEN: '' });
    expect(await startAndStop(unset, { OWNER_TOKEN })).toEqual([expect.stringMatching(/^OWNER_TOKEN is not the token this database was provisioned with/)]);
  });

  it("of a database provisioned before the fingerprint was recorded: the migration takes it from the owner's first token", async () => {
    const db = await cleanups.database();
    const server = await start(db, { PUBLIC_URL: 'https://docs.example.com', OWNER_TOKEN });
    await runMigration(server.deps.orm, 'Migration20261210090000', 'down');
    await runMigration(server.deps.orm, 'Migration20261210090000', 'up');
    // PUBLIC_URL is recorded again by the next start that sets it.
    expect(await recorded(server)).toEqual({ owner_token_sha256: hashTokenSecret(OWNER_TOKEN) });
    await server.stop();
    expect(await startAndStop(db, { PUBLIC_URL: 'https://docs.example.com', OWNER_TOKEN })).toEqual([]);
    expect(await startAndStop(db, { PUBLIC_URL: 'https://docs.example.com', OWNER_TOKEN: OTHER_TOKEN })).toEqual([
      expect.stringMatching(/^OWNER_TOKEN is not the token this database was provisioned with/),
    ]);
  });
});
