/**
 * Idempotency keys (docs/behaviour/idempotency.md): a REST POST or a GraphQL mutation sent with an
 * `Idempotency-Key` runs once per user and key; the same request again replays the first answer, another
 * request with the key is refused 422, one arriving while the first runs 409; refusals and server errors
 * free the key; answers are kept 24 hours and then purged. Through both doors, on the real database, with
 * racing requests on one instance and (on PostgreSQL) on two instances of one database.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_PURGE_INTERVAL_MS, IDEMPOTENCY_PURGE_JOB } from '../src/http/idempotency/purge.js';
import { Job } from '../src/jobs/entities.js';
import { ManualClock } from '../src/kernel/clock.js';
import { freshDatabase, onServer, type FreshDatabase } from './support/database.js';
import { newOrganization, newUser, rest, type Caller, type Response } from './support/factories.js';
import { parseMetrics, valueOf } from './support/metrics.js';
import { spawnServer, stopProcess, waitFor, type ServerProcess } from './support/processes.js';
import { statementsDuring } from './support/sql.js';
import { startTestServer, useTestServer, type TestServer } from './support/server.js';

const HOUR = 3_600_000;
const METRICS_TOKEN = 'idempotency-metrics-token';
// A job worker that never polls during the tests: the server schedules the recurring jobs at start, the tests run them.
const server = useTestServer({ METRICS_TOKEN, JOB_POLL_MS: String(24 * HOUR) });

type Space = { id: string; title: string };
type Spaces = { items: Space[] };
type ErrorBody = { error: { code: number; message: string } };
type GraphqlAnswer = { data?: { createSpace: Space }; errors?: { message: string; extensions: { code: string; status: number } }[] };

let owner: Caller;
let organizationId: string;

beforeAll(async () => {
  owner = await newUser(server);
  organizationId = (await newOrganization(server, owner)).id;
});

const spacesPath = () => `/v1/orgs/${organizationId}/spaces`;
const keyed = (key: string) => ({ 'idempotency-key': key });

async function spaceTitles(caller: Caller = owner): Promise<string[]> {
  const res = await caller.rest<Spaces>('GET', `${spacesPath()}?limit=1000`);
  expect(res.status).toBe(200);
  return res.body.items.map((space) => space.title);
}

const count = async (title: string) => (await spaceTitles()).filter((t) => t === title).length;

const records = async (key: string) =>
  server.em().getConnection().execute<{ status: number | null }[]>(`select "status" from "idempotency_record" where "key" = ?`, [key]);

async function replays(door: string): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  return valueOf(parseMetrics(await res.text()), 'docs_server_idempotent_replays_total', { door }) ?? 0;
}

function expectError(res: Response<unknown>, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code: status, message: expect.stringMatching(message) as unknown } });
}

describe('a REST POST with an Idempotency-Key', () => {
  it('runs once: the same request again replays the first answer (status, body, Location), marked as a replay', async () => {
    const key = randomUUID();
    const before = await replays('rest');
    const first = await owner.rest('POST', spacesPath(), { title: 'Once' }, keyed(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    const again = await owner.rest('POST', spacesPath(), { title: 'Once' }, keyed(key));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await count('Once')).toBe(1);
    expect(await replays('rest')).toBe(before + 1);
  });

  it('counts the body by its JSON: the same fields in another order or spacing are the same request', async () => {
    const key = randomUUID();
    const first = await owner.rest<Space>('POST', spacesPath(), '{"title":"Ordered","visibility":"private"}', keyed(key));
    expect(first.status).toBe(201);
    const again = await owner.rest<Space>('POST', spacesPath(), '{ "visibility": "private",\n  "title": "Ordered" }', keyed(key));
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await count('Ordered')).toBe(1);
    // Where the body is optional, none reads as {} (as the door reads it).
    const optional = randomUUID();
    const none = await owner.rest<Space>('POST', `/v1/orgs/${organizationId}/collections`, undefined, keyed(optional));
    expect(none.status).toBe(201);
    const braces = await owner.rest<Space>('POST', `/v1/orgs/${organizationId}/collections`, {}, keyed(optional));
    expect(braces.headers.get('idempotency-replayed')).toBe('true');
    expect(braces.body.id).toBe(none.body.id);
  });

  it('answers 422 to another request with a used key (another body, another path), changing nothing', async () => {
    const key = randomUUID();
    expect((await owner.rest('POST', spacesPath(), { title: 'Used' }, keyed(key))).status).toBe(201);
    expectError(await owner.rest('POST', spacesPath(), { title: 'Other' }, keyed(key)), 422, /^Idempotency-Key: already used for another request/);
    const collection = await owner.rest('POST', `/v1/orgs/${organizationId}/collections`, { title: 'Used' }, keyed(key));
    expectError(collection, 422, /^Idempotency-Key: already used/);
    expect(await count('Other')).toBe(0);
    expect(await count('Used')).toBe(1);
    const collections = await owner.rest<Spaces>('GET', `/v1/orgs/${organizationId}/collections`);
    expect(collections.body.items.filter((c) => c.title === 'Used')).toEqual([]);
  });

  it("keeps each user's keys apart: the same key from two users runs for each", async () => {
    const key = randomUUID();
    const other = await newUser(server);
    const theirs = await newOrganization(server, other);
    const mine = await owner.rest<Space>('POST', spacesPath(), { title: 'Mine' }, keyed(key));
    const yours = await other.rest<Space>('POST', `/v1/orgs/${theirs.id}/spaces`, { title: 'Mine' }, keyed(key));
    expect([mine.status, yours.status]).toEqual([201, 201]);
    expect(yours.body.id).not.toBe(mine.body.id);
    expect(yours.headers.get('idempotency-replayed')).toBeNull();
    // Another user's key cannot be used to read an answer: the same request by another user runs as theirs.
    const intruder = await newUser(server);
    const refused = await intruder.rest('POST', spacesPath(), { title: 'Mine' }, keyed(key));
    expectError(refused, 404, /not found/);
    expect(await count('Mine')).toBe(1);
  });

  it('keeps no refusal: a 4xx frees the key, so the request corrected (or the same, once allowed) runs', async () => {
    const key = randomUUID();
    const tooLong = await owner.rest('POST', spacesPath(), { title: 'x'.repeat(51) }, keyed(key));
    expect(tooLong.status).toBe(400);
    expect(await records(key)).toEqual([]);
    const corrected = await owner.rest('POST', spacesPath(), { title: 'Corrected' }, keyed(key));
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('idempotency-replayed')).toBeNull();
    expect(await records(key)).toEqual([{ status: 201 }]);
  });

  it('refuses a malformed key with 400 before anything runs: empty, longer than 255, not visible ASCII', async () => {
    for (const key of ['', 'k'.repeat(256), 'clé-é', 'a key', '"quoted key"']) {
      const res = await rest(server, owner.token, 'POST', spacesPath(), { title: 'Bad key' }, keyed(key));
      expectError(res, 400, /^Idempotency-Key: must be 1 to 255 visible ASCII characters$/);
    }
    expect(await count('Bad key')).toBe(0);
    // 255 characters is the limit; a Structured Field string ("…") is the same key unquoted.
    const longest = 'k'.repeat(254) + randomUUID().slice(0, 1);
    expect((await owner.rest('POST', spacesPath(), { title: 'Longest key' }, keyed(longest))).status).toBe(201);
    const quoted = await owner.rest('POST', spacesPath(), { title: 'Longest key' }, keyed(`"${longest}"`));
    expect(quoted.headers.get('idempotency-replayed')).toBe('true');
    expect(await count('Longest key')).toBe(1);
  });

  it('leaves anonymous requests and other methods to the door: 401 without a token, keys ignored on PATCH', async () => {
    const anonymous = await rest(server, null, 'POST', spacesPath(), { title: 'Anonymous' }, keyed(randomUUID()));
    expectError(anonymous, 401, /Authentication required/);
    const badToken = await rest(server, 'not-a-token', 'POST', spacesPath(), { title: 'Anonymous' }, keyed(randomUUID()));
    expect(badToken.status).toBe(401);
    const space = await owner.rest<Space>('POST', spacesPath(), { title: 'Patched' });
    const key = randomUUID();
    for (const title of ['Patched once', 'Patched twice']) {
      const res = await owner.rest<Space>('PATCH', `/v1/spaces/${space.body.id}`, { title }, keyed(key));
      expect(res.status).toBe(200);
      expect(res.body.title).toBe(title);
    }
    expect(await records(key)).toEqual([]);
  });

  it('answers 409 with Retry-After while the first request with the key runs, and takes over a key abandoned for 5 minutes before any write', async () => {
    const key = randomUUID();
    const body = { title: 'In flight' };
    // The fingerprint of the request, as the first run's row holds it: made by a first run, then set back
    // in flight as a request that died before its write committed leaves it.
    expect((await owner.rest('POST', spacesPath(), body, keyed(key))).status).toBe(201);
    const connection = server.em().getConnection();
    await connection.execute(`update "idempotency_record" set "status" = null, "body" = null, "committed_at" = null, "started_at" = ? where "key" = ?`, [
      server.clock.now(),
      key,
    ]);
    const running = await owner.rest<ErrorBody>('POST', spacesPath(), body, keyed(key));
    expect(running.status).toBe(409);
    expect(running.headers.get('retry-after')).toBe('1');
    expect(running.body.error.message).toMatch(/^Idempotency-Key: a request with this key is still being processed/);
    server.clock.advance(5 * 60_000);
    const takenOver = await owner.rest('POST', spacesPath(), body, keyed(key));
    expect(takenOver.status).toBe(201);
    expect(takenOver.headers.get('idempotency-replayed')).toBeNull();
    expect(await count('In flight')).toBe(2);
  });

  it('lets 10 identical requests at once create one space: each answers the one success or 409', async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => owner.rest('POST', spacesPath(), { title: 'Raced' }, keyed(key))));
    const successes = answers.filter((res) => res.status === 201);
    expect(successes.length).toBeGreaterThanOrEqual(1);
    for (const res of answers) {
      if (res.status === 201) expect(res.body).toEqual(successes[0].body);
      else expectError(res, 409, /still being processed/);
    }
    console.log(`10 identical keyed POSTs at once: ${successes.length} answered 201 (one ran, the others replays), ${10 - successes.length} answered 409`);
    expect(await count('Raced')).toBe(1);
    const after = await owner.rest('POST', spacesPath(), { title: 'Raced' }, keyed(key));
    expect(after.body).toEqual(successes[0].body);
  });
});

describe('a keyed request whose write committed', () => {
  it("marks its record in the write's own transaction", async () => {
    const key = randomUUID();
    expect((await owner.rest('POST', spacesPath(), { title: 'Marked' }, keyed(key))).status).toBe(201);
    const [row] = await server
      .em()
      .getConnection()
      .execute<{ committed: boolean }[]>(`select "committed_at" is not null as "committed" from "idempotency_record" where "key" = ?`, [key]);
    expect(row).toEqual({ committed: true });
  });

  it('never runs again when its answer was lost (the instance stopped between the commit and storing it): 409, one space', async () => {
    const key = randomUUID();
    const body = { title: 'Answer lost' };
    // Storing this key's answer fails, as when the instance dies right after the write committed.
    const connection = server.em().getConnection();
    await connection.execute(`create function "lose_answer"() returns trigger language plpgsql as $$ begin raise exception 'answer lost'; end $$`);
    await connection.execute(
      `create trigger "lose_answer" before update of "status" on "idempotency_record" for each row
        when (new."status" is not null and new."key" = '${key}') execute function "lose_answer"()`,
    );
    try {
      // The client is taken never to have received this answer.
      expect((await owner.rest('POST', spacesPath(), body, keyed(key))).status).toBe(201);
    } finally {
      await connection.execute(`drop trigger "lose_answer" on "idempotency_record"`);
      await connection.execute(`drop function "lose_answer"()`);
    }
    expect(await records(key)).toEqual([{ status: null }]);
    // Held as running for the 5 minutes a live request may take…
    const early = await owner.rest('POST', spacesPath(), body, keyed(key));
    expectError(early, 409, /still being processed/);
    // …then known as carried out: told so, and not run again (before the mark it ran a second time here).
    server.clock.advance(5 * 60_000);
    for (let retry = 0; retry < 2; retry++) {
      const late = await owner.rest('POST', spacesPath(), body, keyed(key));
      expectError(late, 409, /^Idempotency-Key: the request with this key was carried out, but its answer was lost; it will not run again/);
      expect(late.headers.get('retry-after')).toBeNull();
    }
    expect(await count('Answer lost')).toBe(1);
    // Another request with the key is still another request.
    expectError(await owner.rest('POST', spacesPath(), { title: 'Other' }, keyed(key)), 422, /already used/);
    // Kept, as answers are, 24 hours from the commit: then the key is free again.
    server.clock.advance(24 * HOUR - 5 * 60_000);
    expect((await owner.rest('POST', spacesPath(), body, keyed(key))).status).toBe(201);
    expect(await count('Answer lost')).toBe(2);
  });
});

describe('the cost of a key', () => {
  const tokenReads = (statements: string[]) => statements.filter((text) => text.includes('secret_hash')).length;
  // The statements of the request itself: the event outbox's dispatcher, woken by the write, runs beside it.
  const ofTheRequest = async (work: () => Promise<unknown>) => (await statementsDuring(work)).filter((text) => !/"dispatched_at"|as "eventId"/.test(text));

  it('reads the token once: a keyed POST makes three statements more than one without (claim, mark, answer); a replay three in all', async () => {
    await owner.rest('POST', spacesPath(), { title: 'Warm-up' });
    const plain = await ofTheRequest(() => owner.rest('POST', spacesPath(), { title: 'Counted' }));
    const key = randomUUID();
    const first = await ofTheRequest(() => owner.rest('POST', spacesPath(), { title: 'Counted' }, keyed(key)));
    const replayed = await ofTheRequest(() => owner.rest('POST', spacesPath(), { title: 'Counted' }, keyed(key)));
    expect([tokenReads(plain), tokenReads(first), tokenReads(replayed)]).toEqual([1, 1, 1]);
    expect(first.length).toBe(plain.length + 3);
    expect(replayed.length).toBe(3);
    console.log(`statements of a space's POST: ${plain.length} without a key, ${first.length} with one, ${replayed.length} for a replay`);
  });

  it('reads the token once for a keyed GraphQL mutation too', async () => {
    const CREATE = 'mutation($organizationId: ID!) { createSpace(organizationId: $organizationId, input: { title: "Counted mutation" }) { id } }';
    const statements = await statementsDuring(() =>
      rest(server, owner.token, 'POST', '/graphql', { query: CREATE, variables: { organizationId } }, keyed(randomUUID())),
    );
    expect(tokenReads(statements)).toBe(1);
  });
});

describe('a GraphQL mutation with an Idempotency-Key', () => {
  const CREATE = 'mutation($organizationId: ID!, $input: CreateSpaceInput!) { createSpace(organizationId: $organizationId, input: $input) { id title } }';
  const post = (body: unknown, key: string, token = owner.token): Promise<Response<GraphqlAnswer>> => rest(server, token, 'POST', '/graphql', body, keyed(key));

  it('runs once and replays its answer', async () => {
    const key = randomUUID();
    const before = await replays('graphql');
    const request = { query: CREATE, variables: { organizationId, input: { title: 'Mutated once' } } };
    const first = await post(request, key);
    expect(first.status).toBe(200);
    expect(first.body.data?.createSpace.title).toBe('Mutated once');
    const again = await post(request, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await count('Mutated once')).toBe(1);
    expect(await replays('graphql')).toBe(before + 1);
  });

  it("answers 422 in GraphQL's shape to other variables with the key, and frees a key whose mutation failed", async () => {
    const key = randomUUID();
    expect((await post({ query: CREATE, variables: { organizationId, input: { title: 'Mutated' } } }, key)).status).toBe(200);
    const other = await post({ query: CREATE, variables: { organizationId, input: { title: 'Mutated again' } } }, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      errors: [{ message: expect.stringMatching(/^Idempotency-Key: already used/) as unknown, extensions: { code: 'UNPROCESSABLE_CONTENT', status: 422 } }],
    });
    const failedKey = randomUUID();
    const refused = await post({ query: CREATE, variables: { organizationId: 'nope', input: { title: 'Nowhere' } } }, failedKey);
    expect(refused.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect(await records(failedKey)).toEqual([]);
  });

  it('ignores the key on a query, and refuses a malformed key on a mutation', async () => {
    const query = await post({ query: '{ viewer { id } }' }, randomUUID());
    expect(query.status).toBe(200);
    const again = await post({ query: '{ viewer { id } }' }, 'same');
    const twice = await post({ query: '{ viewer { id } }' }, 'same');
    expect([again.headers.get('idempotency-replayed'), twice.headers.get('idempotency-replayed')]).toEqual([null, null]);
    const bad = await post({ query: CREATE, variables: { organizationId, input: { title: 'Bad' } } }, '');
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0].extensions).toEqual({ code: 'BAD_REQUEST', status: 400 });
  });
});

describe('expiry', () => {
  it('replays for 24 hours; then the key runs again, and the hourly job purges the expired records', async () => {
    const key = randomUUID();
    expect((await owner.rest('POST', spacesPath(), { title: 'Expiring' }, keyed(key))).status).toBe(201);
    server.clock.advance(24 * HOUR - 1000);
    expect((await owner.rest('POST', spacesPath(), { title: 'Expiring' }, keyed(key))).headers.get('idempotency-replayed')).toBe('true');
    server.clock.advance(1000);
    const rerun = await owner.rest('POST', spacesPath(), { title: 'Expiring' }, keyed(key));
    expect(rerun.status).toBe(201);
    expect(rerun.headers.get('idempotency-replayed')).toBeNull();
    expect(await count('Expiring')).toBe(2);

    const pending = await server.em().find(Job, { kind: IDEMPOTENCY_PURGE_JOB, lockedUntil: null });
    expect(pending).toHaveLength(1);
    server.clock.advance(24 * HOUR + IDEMPOTENCY_PURGE_INTERVAL_MS);
    await server.runDueJobs();
    const [{ n }] = await server.em().getConnection().execute<{ n: number }[]>(`select count(*)::int as n from "idempotency_record"`);
    expect(n).toBe(0);
    const next = await server.em().find(Job, { kind: IDEMPOTENCY_PURGE_JOB, lockedUntil: null });
    expect(next.map((job) => job.runAt.getTime())).toEqual([server.clock.now().getTime() + IDEMPOTENCY_PURGE_INTERVAL_MS]);
  });
});

// The embedded database is one process by design (its data directory is locked): on PostgreSQL only.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one database', () => {
  let database: FreshDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await freshDatabase();
    a = await startTestServer({}, { database });
    b = await startTestServer({}, { database });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.dispose();
  });

  it('share the keys: 10 identical keyed POSTs through both at once create one space, each answering it or 409', async () => {
    const caller = await newUser(a);
    const organization = await newOrganization(a, caller);
    const path = `/v1/orgs/${organization.id}/spaces`;
    const key = randomUUID();
    const answers: Response<Space>[] = await Promise.all(
      Array.from({ length: 10 }, (_, i) => rest(i % 2 ? b : a, caller.token, 'POST', path, { title: 'Across instances' }, keyed(key))),
    );
    const successes = answers.filter((res) => res.status === 201);
    expect(successes.length).toBeGreaterThanOrEqual(1);
    for (const res of answers) {
      if (res.status === 201) expect(res.body).toEqual(successes[0].body);
      else expect(res.status).toBe(409);
    }
    console.log(`10 identical keyed POSTs through two instances at once: ${successes.length} answered 201, ${10 - successes.length} answered 409`);
    for (const instance of [a, b]) {
      const replayed = await rest(instance, caller.token, 'POST', path, { title: 'Across instances' }, keyed(key));
      expect(replayed.body).toEqual(successes[0].body);
      expect(replayed.headers.get('idempotency-replayed')).toBe('true');
    }
    const list: Response<Spaces> = await rest(b, caller.token, 'GET', path);
    expect(list.body.items.filter((space) => space.title === 'Across instances')).toHaveLength(1);
  });
});

// A server process of its own, killed with SIGKILL: on PostgreSQL only, as the other tests of several instances.
describe.skipIf(!process.env.TEST_DATABASE_URL)('an instance killed between the commit and storing the answer', () => {
  let database: FreshDatabase;
  let survivor: TestServer;
  let killed: ServerProcess | undefined;

  beforeAll(async () => {
    database = await freshDatabase();
    // The killed process writes times by the system clock: the survivor's is set to it.
    survivor = await startTestServer({}, { database, clock: new ManualClock(new Date()) });
  });
  afterAll(async () => {
    if (killed) await stopProcess(killed);
    await survivor?.stop();
    await database?.dispose();
  });

  const sql = <T>(text: string) =>
    onServer(process.env.TEST_DATABASE_URL!, async (client) => {
      await client.query(`set search_path to "${database.env.DATABASE_SCHEMA}"`);
      return (await client.query(text)).rows as T[];
    });

  async function until(holds: () => Promise<boolean>, what: string) {
    for (const deadline = Date.now() + 60_000; !(await holds()); await sleep(50)) {
      if (Date.now() > deadline) throw new Error(`not seen within 60 s: ${what}`);
    }
  }

  it('leaves the key carried out: a retry through another instance answers 409 and creates no second space', { timeout: 180_000 }, async () => {
    const caller = await newUser(survivor);
    const organization = await newOrganization(survivor, caller);
    const path = `/v1/orgs/${organization.id}/spaces`;
    const key = randomUUID();
    killed = await spawnServer({ ...database.env, PUBLIC_URL: 'http://docs.test', LOG_LEVEL: 'fatal' });
    const child = killed;
    await waitFor(child, async () => (await fetch(`${child.url}/healthz`).catch(() => undefined))?.status === 200);
    // Storing this key's answer waits: the process is killed while its write is committed and its answer not stored.
    await sql(`create function "hold_answer"() returns trigger language plpgsql as $$ begin perform pg_sleep(120); return new; end $$`);
    await sql(
      `create trigger "hold_answer" before update of "status" on "idempotency_record" for each row
        when (new."status" is not null and new."key" = '${key}') execute function "hold_answer"()`,
    );
    const lost = fetch(`${child.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ title: 'Killed' }),
    }).catch(() => undefined);
    const held = `select pid from pg_stat_activity where wait_event = 'PgSleep' and query like 'update "idempotency_record" set "status"%'`;
    await until(async () => (await sql(held)).length > 0, 'the answer being stored');
    expect(await sql(`select "committed_at" is not null as "committed" from "idempotency_record" where "key" = '${key}'`)).toEqual([{ committed: true }]);
    await stopProcess(child, 'SIGKILL');
    // The killed process's statement ends with it (its session stays until PostgreSQL notices: end it).
    await sql(`select pg_terminate_backend(pid) from (${held}) held`);
    await until(async () => (await sql(held)).length === 0, 'the statement ended');
    await sql(`drop trigger "hold_answer" on "idempotency_record"`);
    await sql(`drop function "hold_answer"()`);
    expect((await lost)?.status).toBeUndefined();
    expect(await sql(`select "status", "committed_at" is not null as "committed" from "idempotency_record" where "key" = '${key}'`)).toEqual([
      { status: null, committed: true },
    ]);

    // Before 5 minutes the key is held as running (a live request could still be answering); then:
    survivor.clock.set(new Date());
    expectError(await rest(survivor, caller.token, 'POST', path, { title: 'Killed' }, keyed(key)), 409, /still being processed/);
    survivor.clock.advance(5 * 60_000);
    const retry = await rest(survivor, caller.token, 'POST', path, { title: 'Killed' }, keyed(key));
    expectError(retry, 409, /carried out, but its answer was lost/);
    const spaces: Response<Spaces> = await rest(survivor, caller.token, 'GET', path);
    expect(spaces.body.items.filter((space) => space.title === 'Killed')).toHaveLength(1);
  });
});
