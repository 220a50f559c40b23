/**
 * Webhook URLs that deliveries could never reach are refused when an endpoint is made or changed,
 * through both doors, with a 400 naming FETCH_ALLOW_PRIVATE: private addresses in every spelling URL
 * parsing normalizes, and localhost names; nothing is made, changed or recorded. FETCH_ALLOW_PRIVATE
 * lets them through as it lets deliveries through. A name that does not resolve is taken.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/kernel/clock.js';
import { FAN_OUT_JOB } from '../src/domain/webhooks/index.js';
import { enqueueUnlessPending } from '../src/jobs/queue.js';
import { commentsPath, postComment } from './support/comments.js';
import { createSpace } from './support/content.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer, type TestServer } from './support/server.js';
import { startReceiver } from './support/webhook-receiver.js';

const strict = useTestServer();
// The signature's timestamp is the server's clock: near the real time, which the receiver's check uses.
const allowing = useTestServer({ FETCH_ALLOW_PRIVATE: '127.0.0.1' }, { clock: new ManualClock(new Date()) });

const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const SETTING = ', which this server does not fetch unless FETCH_ALLOW_PRIVATE allows it';

/** Each spelling of a private address, and the refusal it gets without FETCH_ALLOW_PRIVATE. */
const PRIVATE_URLS: [string, RegExp][] = [
  ['http://127.0.0.1:9/hook', /^url: 127\.0\.0\.1 is a loopback address/],
  ['http://0.0.0.0:9/hook', /^url: 0\.0\.0\.0 is an unspecified address/],
  ['http://[::ffff:127.0.0.1]:9/hook', /^url: ::ffff:7f00:1 is at 127\.0\.0\.1, a loopback address/],
  ['http://[::ffff:7f00:1]:9/hook', /^url: ::ffff:7f00:1 is at 127\.0\.0\.1, a loopback address/],
  ['http://2130706433:9/hook', /^url: 127\.0\.0\.1 is a loopback address/],
  ['http://127.1:9/hook', /^url: 127\.0\.0\.1 is a loopback address/],
  ['http://0x7f.1:9/hook', /^url: 127\.0\.0\.1 is a loopback address/],
  ['http://[::1]:9/hook', /^url: ::1 is a loopback address/],
  ['http://localhost:9/hook', /^url: localhost is at (127\.0\.0\.1|::1), a loopback address/],
  ['http://LOCALHOST./hook', /^url: localhost\. is at (127\.0\.0\.1|::1), a loopback address/],
  ['http://hooks.localhost/hook', /^url: hooks\.localhost is at (127\.0\.0\.1|::1), a loopback address/],
  ['https://10.1.2.3/hook', /^url: 10\.1\.2\.3 is a private address/],
  ['http://169.254.169.254/latest', /^url: 169\.254\.169\.254 is a link-local address/],
  ['http://[fe80::1]/hook', /^url: fe80::1 is a link-local address/],
];

const webhooksPath = (organizationId: string) => `/v1/orgs/${organizationId}/webhooks`;

/** What the poll and the endpoints' jobs do, at the server's now: fan out, then deliver what is due. */
async function deliverDue(server: TestServer) {
  const now = server.clock.now();
  await enqueueUnlessPending(server.em(), FAN_OUT_JOB, now, now, { earlier: true });
  await server.runDueJobs();
}

const CREATE = `mutation($o: ID!, $input: CreateWebhookInput!) { createWebhook(organizationId: $o, input: $input) { id } }`;
const UPDATE = `mutation($o: ID!, $w: ID!, $input: UpdateWebhookInput!) { updateWebhook(organizationId: $o, webhookId: $w, input: $input) { id } }`;

async function createWebhook(admin: Caller, organizationId: string, url: string) {
  const res = await admin.rest('POST', webhooksPath(organizationId), { url, eventTypes: ['comment.posted'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; url: string; secret: string };
}

async function webhookEvents(server: TestServer, organizationId: string) {
  const rows = await server
    .em()
    .getConnection()
    .execute<{ type: string }[]>(`select type from domain_event where organization_id = ? and type like 'webhook.%' order by seq`, [organizationId]);
  return rows.map((row) => row.type);
}

function expectRefused(res: { errors?: { message: string; extensions?: Record<string, unknown> }[] }, message: RegExp) {
  expectGqlError(res, 'BAD_REQUEST', message);
  expect(res.errors![0].extensions?.status).toBe(400);
}

describe('without FETCH_ALLOW_PRIVATE', () => {
  it('refuses every spelling of a private address at creation and at change, on both doors, changing nothing', async () => {
    const { admin, organization } = await newOrganizationWithRoles(strict);
    const organizationId = organization.id;
    const kept = await createWebhook(admin, organizationId, 'https://hooks.example.com/kept');
    for (const [url, refusal] of PRIVATE_URLS) {
      const message = new RegExp(`${refusal.source}${SETTING}$`);
      expectError(await admin.rest('POST', webhooksPath(organizationId), { url, eventTypes: ['*'] }), 400, message);
      expectError(await admin.rest('PATCH', `${webhooksPath(organizationId)}/${kept.id}`, { url }), 400, message);
      expectRefused(await admin.gql(CREATE, { o: organizationId, input: { url, eventTypes: ['*'] } }), message);
      expectRefused(await admin.gql(UPDATE, { o: organizationId, w: kept.id, input: { url, active: false } }), message);
    }
    const listed = await admin.rest('GET', webhooksPath(organizationId));
    expect(listed.body.items.map((w: { id: string; url: string; active: boolean }) => [w.id, w.url, w.active])).toEqual([[kept.id, kept.url, true]]);
    expect(await webhookEvents(strict, organizationId)).toEqual(['webhook.created']);
  });

  it('takes a name that does not resolve (it may later): deliveries say it does not resolve', async () => {
    const { admin, edit, organization } = await newOrganizationWithRoles(strict);
    const space = await createSpace(admin, organization.id);
    // .invalid never resolves (RFC 6761).
    const created = await createWebhook(admin, organization.id, 'https://hooks.invalid/hook');
    expect(created.url).toBe('https://hooks.invalid/hook');
    const changed = await admin.rest('PATCH', `${webhooksPath(organization.id)}/${created.id}`, { url: 'https://other.invalid/hook' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await postComment(edit, commentsPath(space.id));
    await deliverDue(strict);
    const deliveries = (await admin.rest('GET', `${webhooksPath(organization.id)}/${created.id}/deliveries`)).body.items;
    expect(deliveries[0].attempts).toEqual([expect.objectContaining({ status: 'failed', error: 'other.invalid does not resolve' })]);
  });

  it('leaves a change that keeps the URL alone', async () => {
    const { admin, organization } = await newOrganizationWithRoles(strict);
    const created = await createWebhook(admin, organization.id, 'https://hooks.example.com/same');
    const res = await admin.rest('PATCH', `${webhooksPath(organization.id)}/${created.id}`, { url: created.url, description: 'Same place' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('with FETCH_ALLOW_PRIVATE covering 127.0.0.1', () => {
  it('takes every spelling of 127.0.0.1, and refuses the private addresses it does not cover', async () => {
    const { admin, organization } = await newOrganizationWithRoles(allowing);
    const spellings = [
      'http://127.0.0.1:9/hook',
      'http://[::ffff:127.0.0.1]:9/hook',
      'http://[::ffff:7f00:1]:9/hook',
      'http://2130706433:9/hook',
      'http://127.1:9/hook',
    ];
    for (const url of spellings) await createWebhook(admin, organization.id, url);
    const viaGraphql = await admin.gql(CREATE, { o: organization.id, input: { url: 'http://127.1:10/hook', eventTypes: ['*'] } });
    expect(viaGraphql.errors).toBeUndefined();
    expectError(
      await admin.rest('POST', webhooksPath(organization.id), { url: 'http://0.0.0.0:9/hook', eventTypes: ['*'] }),
      400,
      /^url: 0\.0\.0\.0 is an unspecified address/,
    );
    expectError(
      await admin.rest('POST', webhooksPath(organization.id), { url: 'http://10.1.2.3/hook', eventTypes: ['*'] }),
      400,
      /^url: 10\.1\.2\.3 is a private address/,
    );
    expect((await admin.rest('GET', webhooksPath(organization.id))).body.items).toHaveLength(spellings.length + 1);
  });

  it('delivers to an endpoint made with such a spelling', async () => {
    const { admin, edit, organization } = await newOrganizationWithRoles(allowing);
    const space = await createSpace(admin, organization.id);
    const hook = await startReceiver();
    receivers.push(hook);
    await createWebhook(admin, organization.id, hook.url.replace('127.0.0.1', '127.1'));
    await postComment(edit, commentsPath(space.id), 'Arrives');
    await deliverDue(allowing);
    expect(hook.received.map((r) => JSON.parse(r.body).data.body.markdown)).toEqual(['Arrives']);
  });
});
