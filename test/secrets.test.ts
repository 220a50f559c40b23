/**
 * Server secrets sealed under the master key, on the real database: what a dump of `server_secret`
 * shows, the secrets still working across restarts (integration secrets, SAML metadata and signing,
 * signed PDF URLs, visitor claims), rotation, refusals (no key, a wrong key, an altered value, a lost
 * key file), the embedded key file, and values stored in clear before sealing existed.
 *
 * Secrets are made through the public doors; SQL looks behind them at the stored values.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { masterKeyOf } from '../src/auth/master-key.js';
import { serverSecret, storedSecret } from '../src/auth/secrets.js';
import { loadConfig } from '../src/kernel/config.js';
import { Integration } from '../src/domain/integrations/index.js';
import { openSecrets } from '../src/domain/integrations/index.js';
import { signingKey } from '../src/domain/saml/index.js';
import { createLogger } from '../src/kernel/logger.js';
import { startServer } from '../src/server.js';
import { createPage, createSpace, openChangeRequest } from './support/content.js';
import { useCleanups } from './support/cleanups.js';
import { TEST_SECRET_KEY, type FreshDatabase } from './support/database.js';
import { callerFor, newOrganization, newUser } from './support/factories.js';
import { identityProviderKeys } from './support/saml.js';
import { startTestServer, type TestServer } from './support/server.js';

const onServer = !!process.env.TEST_DATABASE_URL;
const KEY_A = 'a'.repeat(64);
const KEY_B = Buffer.alloc(32, 'b').toString('base64');
const KEY_C = Buffer.alloc(48, 'c').toString('base64url');
const idOf = (key: string) => masterKeyOf(key, 'test').id;
const SECRET_NAMES = ['file-download-urls', 'integration-secrets-key', 'saml-signing-key', 'visitor-claims'];
const INTEGRATION_SECRETS = { API_SECRET: 'sk_live_kept-across-restarts-0123' };

// Every database and server of a test is cleaned up after it, whatever it ends with.
const cleanups = useCleanups();

/** A server on `db` whose log lines land in `lines`. */
async function start(db: FreshDatabase, env: Record<string, string> = {}, lines: string[] = []): Promise<TestServer> {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const server = await startTestServer(env, { database: db, logger: createLogger('info', sink) });
  let stopped = false;
  const stop = server.stop.bind(server);
  server.stop = async () => {
    if (!stopped) await stop();
    stopped = true;
  };
  cleanups.add(() => server.stop());
  return server;
}

/** The key file of an embedded database. */
function keyFileOf(db: FreshDatabase) {
  if (!('dataDir' in db.database)) throw new Error('an embedded database has a key file');
  return join(db.database.dataDir, 'secret.key');
}

const embeddedKey = (db: FreshDatabase) => readFileSync(keyFileOf(db), 'utf8').trim();

/** `select name, value from server_secret`: what a dump of the table shows. */
async function dump(server: TestServer): Promise<Record<string, string>> {
  const rows = await server.em().getConnection().execute<{ name: string; value: string }[]>('select name, value from server_secret order by name');
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

const keyIdsOf = (values: Record<string, string>) =>
  new Set(Object.values(values).map((value) => /^sealed:v1:([0-9a-f]{12}):[A-Za-z0-9_-]+$/.exec(value)?.[1]));

/** What the secrets do, seen through the doors, to compare across restarts. */
type Observed = { certificate: string; pdfStatus: number; claims: string };

/**
 * Uses each server secret through the public doors (making it on first use): publishes an integration
 * with secrets, creates a SAML provider and reads the SP metadata, signs a PDF URL, pings for visitor
 * claims. Returns the integration's name and the PDF URL to check again later.
 */
async function useEverySecret(server: TestServer) {
  const admin = await newUser(server);
  const organization = await newOrganization(server, admin);
  const integration = `sealed-${organization.id.toLowerCase()}`;
  const published = await admin.rest('POST', `/v1/integrations/${integration}`, {
    organization: organization.id,
    title: 'Sealed',
    description: 'Keeps a secret',
    scopes: [],
    script: 'export default {}',
    secrets: INTEGRATION_SECRETS,
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  const provider = await admin.rest('POST', `/v1/orgs/${organization.id}/saml`, {
    label: 'Okta',
    entityID: 'https://idp.example.com/metadata',
    ssoURL: 'https://idp.example.com/sso',
    certificate: identityProviderKeys().certificate,
  });
  expect(provider.status, JSON.stringify(provider.body)).toBe(201);
  const space = await createSpace(admin, organization.id, { title: 'Handbook' });
  const cr = await openChangeRequest(admin, space.id);
  await createPage(admin, space.id, cr.id, { title: 'Introduction', markdown: 'Welcome.' });
  const pdf = await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`);
  expect(pdf.status).toBe(200);
  return { admin, organizationId: organization.id, integration, providerId: provider.body.id as string, pdfUrl: new URL(pdf.body.url) };
}

type Used = Awaited<ReturnType<typeof useEverySecret>>;

async function observe(server: TestServer, used: Used): Promise<Observed> {
  const metadata = await fetch(`${server.url}/saml/${used.providerId}/metadata`);
  expect(metadata.status).toBe(200);
  const certificate = /<ds:X509Certificate>([^<]+)</.exec(await metadata.text())![1];
  // A login start signs an AuthnRequest with the stored private key.
  const login = await fetch(`${server.url}/saml/${used.providerId}/start`, { redirect: 'manual' });
  expect(login.status).toBe(302);
  expect(new URL(login.headers.get('location')!).searchParams.get('Signature')).toBeTruthy();
  const pdfStatus = (await fetch(`${server.url}${used.pdfUrl.pathname}${used.pdfUrl.search}`)).status;
  const ping = await used.admin.rest('POST', `/v1/orgs/${used.organizationId}/ping`);
  expect(ping.status).toBe(200);
  // Integration secrets are never shown: look behind the doors.
  const row = await server.em().findOneOrFail(Integration, { name: used.integration });
  expect(await openSecrets(server.em(), server.clock, used.integration, row.secrets!)).toEqual(INTEGRATION_SECRETS);
  return { certificate, pdfStatus, claims: ping.body.serviceVisitorClaims };
}

/** The same caller, on a server started anew (its token lives in the database). */
const onAgain = (server: TestServer, used: Used): Used => ({ ...used, admin: callerFor(server, used.admin.user, used.admin.token) });

/** A server started on a fresh database with `env`, every secret used on it, and what they answered then. */
async function startUsingEverySecret(env: Record<string, string> = {}) {
  const db = await cleanups.database();
  const first = await start(db, env);
  const used = await useEverySecret(first);
  return { db, first, used, before: await observe(first, used) };
}

describe('the stored secrets', () => {
  it('are sealed, so that a dump of server_secret shows no key material, and keep working across a restart', async () => {
    const db = await cleanups.database();
    // Embedded, the first start makes the key file, private to its user; later starts use it.
    if (!onServer) expect(existsSync(keyFileOf(db))).toBe(false);
    const first = await start(db);
    if (!onServer) expect(statSync(keyFileOf(db)).mode & 0o777).toBe(0o600);
    const used = await useEverySecret(first);
    const before = await observe(first, used);
    expect(before.pdfStatus).toBe(200);
    const stored = await dump(first);
    expect(Object.keys(stored)).toEqual(SECRET_NAMES);
    expect(keyIdsOf(stored)).toEqual(new Set([idOf(onServer ? TEST_SECRET_KEY : embeddedKey(db))]));

    const text = JSON.stringify(stored);
    expect(text).not.toMatch(/BEGIN|PRIVATE|CERTIFICATE/);
    for (const name of ['file-download-urls', 'integration-secrets-key', 'visitor-claims']) {
      const key = await serverSecret(first.em(), first.clock, name);
      for (const encoding of ['base64', 'base64url', 'hex'] as const) expect(text).not.toContain(key.toString(encoding));
    }
    const saml = await signingKey(first.em(), first.clock, first.deps.config);
    for (const line of saml.privateKey.split('\n').filter((line) => line && !line.startsWith('-----'))) expect(text).not.toContain(line);
    await first.stop();

    const second = await start(db);
    expect(await observe(second, onAgain(second, used))).toEqual(before);
    expect(await dump(second)).toEqual(stored);
    if (!onServer) expect(Buffer.from(embeddedKey(db), 'base64')).toHaveLength(32);
  });
});

describe('rotation', () => {
  it('re-seals every value under SECRET_KEY when the old key is in SECRET_KEY_PREVIOUS, then needs only the new key', async () => {
    const { db, first, used, before } = await startUsingEverySecret({ SECRET_KEY: KEY_A });
    expect(keyIdsOf(await dump(first))).toEqual(new Set([idOf(KEY_A)]));
    await first.stop();

    const lines: string[] = [];
    const rotated = await start(db, { SECRET_KEY: KEY_B, SECRET_KEY_PREVIOUS: `${KEY_C}, ${KEY_A}` }, lines);
    expect(keyIdsOf(await dump(rotated))).toEqual(new Set([idOf(KEY_B)]));
    const resealedLine = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'sealed the server secrets under the current master key');
    expect(resealedLine).toMatchObject({ sealed: [], resealed: SECRET_NAMES, key: idOf(KEY_B) });
    expect(await observe(rotated, onAgain(rotated, used))).toEqual(before);
    await rotated.stop();

    const after = await start(db, { SECRET_KEY: KEY_B });
    expect(await observe(after, onAgain(after, used))).toEqual(before);
    await after.stop();
    await expect(start(db, { SECRET_KEY: KEY_A })).rejects.toThrow(`is sealed with key ${idOf(KEY_B)}, which is not configured`);
  });
});

describe('refusals', () => {
  it('a wrong key, or a value altered or moved to another secret, refuses the start, naming the problem, and changes nothing', async () => {
    const { db, first, used, before } = await startUsingEverySecret({ SECRET_KEY: KEY_A });
    const stored = await dump(first);
    await first.stop();

    const refused = start(db, { SECRET_KEY: KEY_C });
    await expect(refused).rejects.toThrow(
      new RegExp(
        `^Server secrets in the database do not open: "file-download-urls" is sealed with key ${idOf(KEY_A)}, which is not configured; .*` +
          `The current key is ${idOf(KEY_C)} \\(SECRET_KEY\\); start with the key they were sealed with as SECRET_KEY`,
      ),
    );
    await expect(refused).rejects.not.toThrow(/\n/);

    const again = await start(db, { SECRET_KEY: KEY_A });
    expect(await dump(again)).toEqual(stored);
    expect(await observe(again, onAgain(again, used))).toEqual(before);
    // The integration-secrets key's sealed value put in place of the download-URL key's.
    await again.em().getConnection().execute('update server_secret set value = ? where name = ?', [stored['integration-secrets-key'], 'file-download-urls']);
    await again.stop();
    await expect(start(db, { SECRET_KEY: KEY_A })).rejects.toThrow(
      `"file-download-urls" does not open with key ${idOf(KEY_A)}, which it names: the stored value was altered or belongs to another secret`,
    );
  });

  it('with DATABASE_URL and no SECRET_KEY, refuses at once with one line saying how to make a key', async () => {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', JOB_POLL_MS: '0', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    await expect(startServer(config)).rejects.toThrow(
      /^SECRET_KEY is required with DATABASE_URL: make one with `openssl rand -base64 32` and give the same value to every instance$/,
    );
  });

  it('refuses a SECRET_KEY or SECRET_KEY_PREVIOUS that is not 32 random bytes, without echoing it', () => {
    for (const env of [{ SECRET_KEY: 'correct horse battery staple' }, { SECRET_KEY: 'ab'.repeat(20) }, { SECRET_KEY_PREVIOUS: `${KEY_A},short-key` }]) {
      const attempt = () => loadConfig(env);
      expect(attempt).toThrow(/must be 32 or more random bytes in hex or base64 \(make one with `openssl rand -base64 32`\)/);
      try {
        attempt();
      } catch (error) {
        for (const value of Object.values(env)) expect((error as Error).message).not.toContain(value);
      }
    }
  });
});

describe.skipIf(onServer)('the embedded key file', () => {
  it('when lost while the database holds sealed values, the start refuses and leaves no new key file', async () => {
    const db = await cleanups.database();
    const file = keyFileOf(db);
    const first = await start(db);
    await useEverySecret(first);
    await first.stop();
    const key = readFileSync(file, 'utf8');
    rmSync(file);
    await expect(start(db)).rejects.toThrow(`${file} did not exist: restore the key file backed up with this database`);
    expect(existsSync(file)).toBe(false);
    writeFileSync(file, key, { mode: 0o600 });
    await start(db);
  });
});

describe('values stored in clear before sealing', () => {
  /** A database as an older version left it: the same secrets, stored in clear. */
  async function clearDatabase() {
    const { db, first, used, before } = await startUsingEverySecret();
    const em = first.em();
    for (const name of SECRET_NAMES) {
      const text = await storedSecret(em, first.clock, name, () => {
        throw new Error(`${name} exists`);
      });
      await em.getConnection().execute('update server_secret set value = ? where name = ?', [text, name]);
    }
    expect(JSON.stringify(await dump(first))).toContain('BEGIN PRIVATE KEY');
    await first.stop();
    return { db, used, before };
  }

  const sealedLines = (lines: string[]) =>
    lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'sealed the server secrets under the current master key');

  it('are sealed at start, and keep working', async () => {
    const { db, used, before } = await clearDatabase();
    const lines: string[] = [];
    const server = await start(db, {}, lines);
    expect(sealedLines(lines)).toEqual([expect.objectContaining({ sealed: SECRET_NAMES, resealed: [] })]);
    const values = await dump(server);
    expect(keyIdsOf(values).size).toBe(1);
    expect(JSON.stringify(values)).not.toMatch(/BEGIN|PRIVATE/);
    expect(await observe(server, onAgain(server, used))).toEqual(before);
  });

  it.skipIf(!onServer)('are sealed once when several instances start at once', async () => {
    const { db, used, before } = await clearDatabase();
    const { url, schema } = db.database as { url: string; schema: string };
    // Another session holds the rows while three instances start, until all three wait for it
    // (directly, or behind one another): then they all meet the values in clear at once.
    const [holder, watcher] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    for (const client of [holder, watcher]) {
      await client.connect();
      cleanups.add(() => client.end());
    }
    const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    await holder.query('begin');
    await holder.query(`select name from "${schema}".server_secret for update`);
    const logs: string[][] = [[], [], []];
    let settled = false;
    const starting = Promise.all(logs.map((lines) => start(db, { SECRET_KEY: TEST_SECRET_KEY }, lines))).finally(() => (settled = true));
    while (!settled && (await waitingBehind(watcher, holderPid)) < logs.length) await new Promise((resolve) => setTimeout(resolve, 20));
    await holder.query('commit');
    const servers = await starting;

    expect(
      logs
        .flatMap(sealedLines)
        .flatMap((entry) => entry.sealed)
        .sort(),
    ).toEqual(SECRET_NAMES);
    expect(keyIdsOf(await dump(servers[0]))).toEqual(new Set([idOf(TEST_SECRET_KEY)]));
    for (const server of servers) expect(await observe(server, onAgain(server, used))).toEqual(before);
  });
});

/**
 * How many sessions wait for the session `pid`, directly or behind another waiting one (asked outside
 * a transaction: inside one, pg_stat_activity stays as it was at its first use).
 */
async function waitingBehind(client: pg.Client, pid: number): Promise<number> {
  const { rows } = await client.query<{ count: string }>(
    `with recursive waiting(pid) as (
       select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid))
       union
       select activity.pid from pg_stat_activity activity join waiting on waiting.pid = any(pg_blocking_pids(activity.pid))
     )
     select count(*) from waiting`,
    [pid],
  );
  return Number(rows[0].count);
}
