/**
 * Webhooks: organization admins manage endpoints through both doors; committed events reach a local
 * receiver signed per Standard Webhooks (verified with the same library), in order per endpoint, again
 * after a failure (each attempt in the log), on request, and not at all once the endpoint is disabled
 * after a run of failures; a private address is refused when connecting too (the allow-list or DNS may
 * have changed since the endpoint was made); failed attempts are logged at warn without the secret or
 * signature; a delivery cut off by a killed server arrives after the restart.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/kernel/clock.js';
import { fanOutEvents } from '../src/domain/webhooks/index.js';
import { FAN_OUT_JOB } from '../src/domain/webhooks/index.js';
import { enqueueUnlessPending } from '../src/jobs/queue.js';
import { commentsPath, postComment } from './support/comments.js';
import { createSpace } from './support/content.js';
import { expectError } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { freshDatabase, type FreshDatabase } from './support/database.js';
import { capturedLogs } from './support/logs.js';
import { spawnServer, stopProcess, type ServerProcess } from './support/processes.js';
import { useTestServer } from './support/server.js';
import { startReceiver } from './support/webhook-receiver.js';

const logs = capturedLogs('warn');
// The signature's timestamp is the server's clock: near the real time, which the receiver's check uses.
const server = useTestServer(
  { FETCH_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_DISABLE_AFTER_FAILURES: '3' },
  { clock: new ManualClock(new Date()), logger: logs.logger },
);

/** The warnings logged about failed attempts at `webhookId`'s deliveries. */
const failedAttemptsLogged = (webhookId: string) =>
  logs.lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'webhook delivery attempt failed' && entry.webhook === webhookId);

const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

/** What the poll and the endpoints' jobs do, at the server's now: fan out, then deliver what is due. */
async function deliverDue() {
  const now = server.clock.now();
  await enqueueUnlessPending(server.em(), FAN_OUT_JOB, now, now, { earlier: true });
  await server.runDueJobs();
}

const webhooksPath = (organizationId: string) => `/v1/orgs/${organizationId}/webhooks`;

async function createWebhook(admin: Caller, organizationId: string, body: Record<string, unknown>) {
  const res = await admin.rest('POST', webhooksPath(organizationId), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; [key: string]: any };
}

async function deliveriesOf(admin: Caller, organizationId: string, webhookId: string) {
  const res = await admin.rest('GET', `${webhooksPath(organizationId)}/${webhookId}/deliveries`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as any[];
}

async function world() {
  const team = await newOrganizationWithRoles(server);
  const space = await createSpace(team.admin, team.organization.id);
  return { ...team, organizationId: team.organization.id, space };
}

describe('endpoints', () => {
  it('are created, read, listed, changed and deleted by an admin; the secret is shown once', async () => {
    const { admin, organizationId } = await world();
    const created = await createWebhook(admin, organizationId, { url: 'https://hooks.example.com/a', eventTypes: ['comment.posted'], description: 'Chat' });
    expect(created).toMatchObject({
      object: 'webhook',
      organizationId,
      url: 'https://hooks.example.com/a',
      eventTypes: ['comment.posted'],
      active: true,
      failureStreak: 0,
    });
    // REST leaves null fields out.
    expect(created).not.toHaveProperty('disabledAt');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const read = await admin.rest('GET', `${webhooksPath(organizationId)}/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    const viaGraphql = await admin.gql(`query($o: ID!, $w: ID!) { webhook(organizationId: $o, webhookId: $w) { url secret } }`, {
      o: organizationId,
      w: created.id,
    });
    expect(viaGraphql.data.webhook).toEqual({ url: 'https://hooks.example.com/a', secret: null });

    server.clock.advance(1000);
    await createWebhook(admin, organizationId, { url: 'http://hooks.example.com/b', eventTypes: ['*'] });
    const page = await admin.rest('GET', `${webhooksPath(organizationId)}?limit=1`);
    expect(page.body.items.map((w: any) => w.id)).toEqual([created.id]);
    const second = await admin.rest('GET', `${webhooksPath(organizationId)}?page=${page.body.next.page}`);
    expect(second.body.items.map((w: any) => w.url)).toEqual(['http://hooks.example.com/b']);
    expect(second.body).not.toHaveProperty('next');

    const patched = await admin.rest('PATCH', `${webhooksPath(organizationId)}/${created.id}`, { active: false, description: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ active: false, disabledReason: 'disabled by an administrator' });
    expect(patched.body).not.toHaveProperty('description');

    const rotated = await admin.rest('POST', `${webhooksPath(organizationId)}/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);

    expect((await admin.rest('DELETE', `${webhooksPath(organizationId)}/${created.id}`)).status).toBe(204);
    expectError(await admin.rest('GET', `${webhooksPath(organizationId)}/${created.id}`), 404);
  });

  it('refuse bad input with a 400 that changes nothing', async () => {
    const { admin, organizationId } = await world();
    const bad = [
      [{ url: 'ftp://hooks.example.com', eventTypes: ['*'] }, /url: must be an http or https URL/],
      [{ url: 'not a url', eventTypes: ['*'] }, /url: must be an http or https URL/],
      [{ url: 'https://hooks.example.com', eventTypes: [] }, /eventTypes: must name at least one/],
      [{ url: 'https://hooks.example.com', eventTypes: ['comment.exploded'] }, /"comment.exploded" is not an event type/],
      [{ url: 'https://hooks.example.com', eventTypes: ['*', 'comment.posted'] }, /give it alone/],
      [{ url: 'https://hooks.example.com', eventTypes: ['*'], description: 'x'.repeat(501) }, /description: must be at most 500/],
    ] as const;
    for (const [body, message] of bad) {
      const res = await admin.rest('POST', webhooksPath(organizationId), body);
      expectError(res, 400);
      expect(res.body.error.message).toMatch(message);
    }
    const listed = await admin.rest('GET', webhooksPath(organizationId));
    expect(listed.body.items).toEqual([]);
  });

  it('are for admins only: other members get 403, outsiders 404, no token 401', async () => {
    const { admin, create, read, outsider, organizationId } = await world();
    const created = await createWebhook(admin, organizationId, { url: 'https://hooks.example.com/a', eventTypes: ['*'] });
    for (const member of [create, read]) {
      expectError(await member.rest('GET', webhooksPath(organizationId)), 403);
      expectError(await member.rest('POST', webhooksPath(organizationId), { url: 'https://x.example.com', eventTypes: ['*'] }), 403);
      expectError(await member.rest('PATCH', `${webhooksPath(organizationId)}/${created.id}`, { active: false }), 403);
      expectError(await member.rest('GET', `${webhooksPath(organizationId)}/${created.id}/deliveries`), 403);
      const viaGraphql = await member.gql(`mutation($o: ID!, $w: ID!) { deleteWebhook(organizationId: $o, webhookId: $w) }`, {
        o: organizationId,
        w: created.id,
      });
      expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect([403, 404]).toContain((await outsider.rest('GET', webhooksPath(organizationId))).status);
    expectError(
      await outsider.rest('DELETE', `${webhooksPath(organizationId)}/${created.id}`),
      (await outsider.rest('GET', webhooksPath(organizationId))).status,
    );
    const anonymous = await fetch(`${server.url}${webhooksPath(organizationId)}`);
    expect(anonymous.status).toBe(401);
    expect((await admin.rest('GET', `${webhooksPath(organizationId)}/${created.id}`)).body.active).toBe(true);
  });
});

describe('deliveries', () => {
  it('reach the receiver signed per Standard Webhooks, which verifies them with the same library', async () => {
    const { admin, edit, organizationId, space } = await world();
    const hook = await receiver();
    const webhook = await createWebhook(admin, organizationId, { url: hook.url, eventTypes: ['comment.posted'] });
    const comment = await postComment(edit, commentsPath(space.id), 'Ship it');
    await deliverDue();

    expect(hook.received).toHaveLength(1);
    const [delivery] = hook.received;
    const verified = new Webhook(webhook.secret).verify(delivery.body, delivery.headers) as any;
    expect(verified).toMatchObject({
      type: 'comment.posted',
      data: { organizationId, spaceId: space.id, commentId: comment.id, object: 'comment', id: comment.id, body: { markdown: 'Ship it' } },
    });
    expect(delivery.headers['content-type']).toBe('application/json');
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(delivery.body, delivery.headers)).toThrow();

    const [logged] = await deliveriesOf(admin, organizationId, webhook.id);
    expect(logged).toMatchObject({ eventId: delivery.headers['webhook-id'], eventType: 'comment.posted', status: 'delivered', attemptCount: 1 });
    expect(logged.attempts).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded', responseStatus: 200, durationMs: expect.any(Number) })]);
    // Delivered once: nothing more to do.
    await deliverDue();
    expect(hook.received).toHaveLength(1);
  });

  it('are retried with backoff after a 500, the log showing each attempt', async () => {
    const { admin, edit, organizationId, space } = await world();
    const hook = await receiver((_, index) => (index === 0 ? 500 : 204));
    const webhook = await createWebhook(admin, organizationId, { url: hook.url, eventTypes: ['comment.posted'] });
    await postComment(edit, commentsPath(space.id));
    await deliverDue();
    expect(hook.received).toHaveLength(1);
    let [logged] = await deliveriesOf(admin, organizationId, webhook.id);
    expect(logged).toMatchObject({ status: 'pending', attemptCount: 1 });
    expect(new Date(logged.nextAttemptAt).getTime()).toBeGreaterThan(server.clock.now().getTime());

    // Not before the backoff has passed.
    await deliverDue();
    expect(hook.received).toHaveLength(1);
    server.clock.set(new Date(logged.nextAttemptAt));
    await deliverDue();
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1].headers['webhook-id']).toBe(hook.received[0].headers['webhook-id']);
    [logged] = await deliveriesOf(admin, organizationId, webhook.id);
    expect(logged).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(logged).not.toHaveProperty('nextAttemptAt');
    expect(logged.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 'failed', responseStatus: 500, error: 'the receiver answered 500' }),
      expect.objectContaining({ attempt: 2, status: 'succeeded', responseStatus: 204 }),
    ]);
    expect((await admin.rest('GET', `${webhooksPath(organizationId)}/${webhook.id}`)).body.failureStreak).toBe(0);

    // The failed attempt was logged at warn, with neither the secret nor the signature.
    const warned = failedAttemptsLogged(webhook.id);
    expect(warned).toEqual([
      expect.objectContaining({ level: 40, delivery: logged.id, event: logged.eventId, attempt: 1, responseStatus: 500, reason: 'the receiver answered 500' }),
    ]);
    const secretKey = webhook.secret.slice('whsec_'.length);
    for (const text of [secretKey, hook.received[0].headers['webhook-signature'].split(',')[1]]) {
      expect(logs.lines.some((line) => line.includes(text))).toBe(false);
    }
  });

  it('go out in order per endpoint: a failing delivery holds the later ones', async () => {
    const { admin, edit, organizationId, space } = await world();
    let failing = true;
    const hook = await receiver(() => (failing ? 503 : 200));
    const webhook = await createWebhook(admin, organizationId, { url: hook.url, eventTypes: ['comment.posted'] });
    const posted = [];
    for (const text of ['first', 'second', 'third']) posted.push(await postComment(edit, commentsPath(space.id), text));
    await deliverDue();
    // The first failed; the others wait behind it.
    expect(hook.received.map((r) => JSON.parse(r.body).data.id)).toEqual([posted[0].id]);
    failing = false;
    const [, , first] = await deliveriesOf(admin, organizationId, webhook.id);
    server.clock.set(new Date(first.nextAttemptAt));
    await deliverDue();
    expect(hook.received.map((r) => JSON.parse(r.body).data.id)).toEqual([posted[0].id, ...posted.map((c) => c.id)]);
    const log = await deliveriesOf(admin, organizationId, webhook.id);
    expect(log.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('are delivered again on request, with the same webhook-id, after the pending ones', async () => {
    const { admin, edit, organizationId, space } = await world();
    const hook = await receiver();
    const webhook = await createWebhook(admin, organizationId, { url: hook.url, eventTypes: ['comment.posted'] });
    await postComment(edit, commentsPath(space.id));
    await deliverDue();
    const [delivered] = await deliveriesOf(admin, organizationId, webhook.id);
    const again = await admin.rest('POST', `${webhooksPath(organizationId)}/${webhook.id}/deliveries/${delivered.id}/redeliver`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ eventId: delivered.eventId, status: 'pending', attemptCount: 0, attempts: [] });
    await deliverDue();
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([delivered.eventId, delivered.eventId]);
    expect((await deliveriesOf(admin, organizationId, webhook.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
    expectError(await admin.rest('POST', `${webhooksPath(organizationId)}/${webhook.id}/deliveries/nope/redeliver`), 404);
  });

  it('stop once the endpoint is disabled after the configured run of failures, which is announced', async () => {
    const { admin, edit, organizationId, space } = await world();
    const hook = await receiver(() => 500);
    const webhook = await createWebhook(admin, organizationId, { url: hook.url, eventTypes: ['comment.posted'] });
    await postComment(edit, commentsPath(space.id));
    for (let attempt = 1; attempt <= 3; attempt++) {
      await deliverDue();
      expect(hook.received).toHaveLength(attempt);
      const [logged] = await deliveriesOf(admin, organizationId, webhook.id);
      if (logged.nextAttemptAt) server.clock.set(new Date(logged.nextAttemptAt));
    }
    const disabled = (await admin.rest('GET', `${webhooksPath(organizationId)}/${webhook.id}`)).body;
    expect(disabled).toMatchObject({ active: false, failureStreak: 3, disabledReason: expect.stringMatching(/3 delivery attempts in a row failed/) });
    expect(disabled.disabledAt).toEqual(expect.any(String));
    server.clock.advance(60 * 60 * 1000);
    await deliverDue();
    expect(hook.received).toHaveLength(3);
    const events = await admin.gql(`query($o: ID!) { webhooks(organizationId: $o) { items { id active } } }`, { o: organizationId });
    expect(events.data.webhooks.items).toEqual([{ id: webhook.id, active: false }]);
    const em = server.em();
    const [announced] = await em
      .getConnection()
      .execute<{ type: string; actor_user_id: string | null; payload: any }[]>(
        `select type, actor_user_id, payload from domain_event where organization_id = ? and type = 'webhook.updated' order by seq desc limit 1`,
        [organizationId],
      );
    expect(announced).toMatchObject({ type: 'webhook.updated', actor_user_id: null, payload: { id: webhook.id, active: false } });

    // Activated again: the streak is cleared and the pending delivery goes out.
    const reactivated = await admin.rest('PATCH', `${webhooksPath(organizationId)}/${webhook.id}`, { active: true });
    expect(reactivated.body).toMatchObject({ active: true, failureStreak: 0 });
    expect(reactivated.body).not.toHaveProperty('disabledAt');
    expect(reactivated.body).not.toHaveProperty('disabledReason');
    await deliverDue();
    expect(hook.received).toHaveLength(4);
  });

  it('are made once per event and endpoint when several fan-outs run at once (SKIP LOCKED)', async () => {
    const { admin, edit, organizationId, space } = await world();
    const webhook = await createWebhook(admin, organizationId, { url: 'https://hooks.example.com/once', eventTypes: ['comment.posted'] });
    for (const text of ['one', 'two', 'three']) await postComment(edit, commentsPath(space.id), text);
    const now = server.clock.now();
    await Promise.all([1, 2, 3].map(() => server.em().transactional((tx) => fanOutEvents(tx, now))));
    const [row] = await server
      .em()
      .getConnection()
      .execute<{ deliveries: string; events: string }[]>(
        `select count(*) as deliveries, count(distinct event_id) as events from webhook_delivery where webhook_id = ?`,
        [webhook.id],
      );
    expect({ deliveries: Number(row.deliveries), events: Number(row.events) }).toEqual({ deliveries: 3, events: 3 });
  });

  it('refuse a private address when connecting, saying which setting would allow it, and log why', async () => {
    const { admin, edit, organizationId, space } = await world();
    const webhook = await createWebhook(admin, organizationId, { url: 'https://hooks.example.com/moved', eventTypes: ['comment.posted'] });
    // Made while its address was allowed (or resolved to a public one): what is refused at creation
    // (see webhook-urls.test.ts) can still be met when connecting.
    await server.em().getConnection().execute(`update webhook_endpoint set url = 'http://10.20.30.40/hook' where id = ?`, [webhook.id]);
    await postComment(edit, commentsPath(space.id));
    await deliverDue();
    const [logged] = await deliveriesOf(admin, organizationId, webhook.id);
    expect(logged).toMatchObject({ status: 'pending', attemptCount: 1 });
    const reason = '10.20.30.40 is a private address, which this server does not fetch unless FETCH_ALLOW_PRIVATE allows it';
    expect(logged.attempts[0]).toMatchObject({ status: 'failed', error: reason });
    expect(logged.attempts[0]).not.toHaveProperty('responseStatus');
    expect(failedAttemptsLogged(webhook.id)).toEqual([expect.objectContaining({ level: 40, delivery: logged.id, event: logged.eventId, attempt: 1, reason })]);
  });

  it('only of the types an endpoint asked for, of its own organization', async () => {
    const { admin, edit, organizationId, space } = await world();
    const other = await world();
    const hook = await receiver();
    await createWebhook(admin, organizationId, { url: hook.url, eventTypes: ['comment.deleted'] });
    const everything = await receiver();
    await createWebhook(other.admin, other.organizationId, { url: everything.url, eventTypes: ['*'] });
    await postComment(edit, commentsPath(space.id));
    await postComment(other.edit, commentsPath(other.space.id));
    await deliverDue();
    expect(hook.received).toEqual([]);
    expect(everything.received.map((r) => JSON.parse(r.body).type)).toEqual(['webhook.created', 'comment.posted']);
  });
});

describe('a server killed mid-delivery', () => {
  const OWNER_TOKEN = 'webhooks-test-owner-token-0123456789';
  let database: FreshDatabase;
  let running: ServerProcess | undefined;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    if (running) await stopProcess(running);
    await database?.dispose();
  });

  const start = () =>
    spawnServer({ ...database.env, OWNER_TOKEN, JOB_POLL_MS: '50', JOB_LEASE_MS: '1000', FETCH_ALLOW_PRIVATE: '127.0.0.1', LOG_LEVEL: 'warn' });

  async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}\n${running?.stderr().slice(-2000)}`);
      await sleep(50);
    }
  }

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${running!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${OWNER_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };

  it('delivers after the restart what the killed one had started', { timeout: 180_000 }, async () => {
    // The first request is left hanging: the server dies while it waits for the answer.
    const hook = await receiver((_, index) => (index === 0 ? null : 200));
    running = await start();
    await until('the server serves', async () => ((await fetch(`${running!.url}/healthz`).catch(() => null))?.status === 200 ? true : undefined));
    const organizationId = (await call('GET', '/v1/orgs')).body.items[0].id as string;
    const webhook = (await call('POST', webhooksPath(organizationId), { url: hook.url, eventTypes: ['comment.posted'] })).body;
    const space = (await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Hooks' })).body;
    expect((await call('POST', commentsPath(space.id), { body: { markdown: 'Survives' } })).status).toBe(200);

    await until('the first attempt reaches the receiver', () => (hook.received.length >= 1 ? true : undefined));
    await stopProcess(running, 'SIGKILL');
    running = await start();
    await until('the delivery arrives after the restart', () => (hook.received.length >= 2 ? true : undefined));

    const [first, second] = hook.received;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(new Webhook(webhook.secret).verify(second.body, second.headers)).toMatchObject({ type: 'comment.posted', data: { body: { markdown: 'Survives' } } });
    const log = await until('the log shows the delivery done', async () => {
      const items = (await call('GET', `${webhooksPath(organizationId)}/${webhook.id}/deliveries`)).body.items;
      return items[0]?.status === 'delivered' ? items : undefined;
    });
    expect(log).toHaveLength(1);
  });
});
