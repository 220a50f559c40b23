/**
 * Live GraphQL subscriptions over WebSocket (graphql-ws) at /graphql on the server's own port: an event
 * reaches its subscribers once it is committed (from this instance, and on PostgreSQL from another
 * instance on the same database); access is checked when subscribing and again before each event, so a
 * viewer removed from the organization (or whose token is revoked) stops receiving: the subscription
 * ends with the refusal's error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PENDING_EVENTS } from '../src/domain/live/index.js';
import { ApiToken } from '../src/domain/users/index.js';
import type { DomainEventRow } from '../src/events/entities.js';
import { commentsPath, postComment } from './support/comments.js';
import { createSpace } from './support/content.js';
import { freshDatabase, type FreshDatabase } from './support/database.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { startTestServer, useTestServer, type TestServer } from './support/server.js';
import { subscribe, wsClient } from './support/subscriptions.js';

const server = useTestServer();

const SPACE_COMMENTS = `subscription Comments($spaceId: ID!, $changeRequestId: ID) {
  spaceComments(spaceId: $spaceId, changeRequestId: $changeRequestId) { id type organizationId actor { id } door operation target payload }
}`;
const ORGANIZATION_EVENTS = `subscription Org($organizationId: ID!, $types: [String!]) {
  organizationEvents(organizationId: $organizationId, types: $types) { id type }
}`;

const codesOf = (errors: unknown) => (errors as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code);

describe('subscriptions over WebSocket', () => {
  it("delivers a space's comment posted through REST, with its actor and payload", async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const client = wsClient(server, team.read.token);
    const comments = await subscribe(server, client, SPACE_COMMENTS, { spaceId: space.id });
    expect(comments.refused).toBeUndefined();
    const posted = await postComment(team.edit, commentsPath(space.id), 'Live!');
    const { value } = await comments.next();
    expect(value?.errors).toBeUndefined();
    expect(value?.data?.spaceComments).toMatchObject({
      type: 'comment.posted',
      organizationId: team.organization.id,
      actor: { id: team.edit.user.id },
      door: 'rest',
      operation: 'postCommentInSpace',
      target: { spaceId: space.id, commentId: posted.id },
      payload: { object: 'comment', id: posted.id, body: { markdown: 'Live!' } },
    });
    await comments.stop();
    await client.dispose();
  });

  it('delivers only the events of what was subscribed to, to each subscriber', async () => {
    const team = await newOrganizationWithRoles(server);
    const [watched, other] = await Promise.all([createSpace(team.admin, team.organization.id), createSpace(team.admin, team.organization.id)]);
    const client = wsClient(server, team.admin.token);
    const comments = await subscribe(server, client, SPACE_COMMENTS, { spaceId: watched.id });
    const everything = await subscribe(server, client, ORGANIZATION_EVENTS, { organizationId: team.organization.id, types: ['comment.*'] });
    await postComment(team.admin, commentsPath(other.id), 'elsewhere');
    const here = await postComment(team.admin, commentsPath(watched.id), 'here');
    // The organization's stream has both, in order; the space's only its own.
    expect((await everything.next()).value?.data?.organizationEvents.type).toBe('comment.posted');
    expect((await everything.next()).value?.data?.organizationEvents.id).toEqual(expect.any(String));
    expect((await comments.next()).value?.data?.spaceComments.target.commentId).toBe(here.id);
    await client.dispose();
  });

  it('refuses a viewer without access, a non-admin on the organization, and no token', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const outsider = wsClient(server, team.outsider.token);
    const refused = await subscribe(server, outsider, SPACE_COMMENTS, { spaceId: space.id });
    expect(codesOf(refused.refused?.errors)).toEqual(['NOT_FOUND']);
    expect((await refused.next()).done).toBe(true);
    const reader = wsClient(server, team.read.token);
    const notAdmin = await subscribe(server, reader, ORGANIZATION_EVENTS, { organizationId: team.organization.id });
    expect(codesOf(notAdmin.refused?.errors)).toEqual(['FORBIDDEN']);
    const anonymous = wsClient(server, null);
    const noToken = await subscribe(server, anonymous, SPACE_COMMENTS, { spaceId: space.id });
    expect(codesOf(noToken.refused?.errors)).toEqual(['UNAUTHENTICATED']);
    await Promise.all([outsider.dispose(), reader.dispose(), anonymous.dispose()]);
  });

  it('closes the connection of a bad token with 4401', async () => {
    const client = wsClient(server, 'dp_not-a-token');
    const attempt = await subscribe(server, client, SPACE_COMMENTS, { spaceId: 'x' });
    expect(attempt.failedToConnect).toMatchObject({ code: 4401 });
    await client.dispose();
  });

  it('answers bad arguments and documents with 4xx errors', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const client = wsClient(server, team.admin.token);
    const badType = await subscribe(server, client, ORGANIZATION_EVENTS, { organizationId: team.organization.id, types: ['comment.exploded'] });
    expect(codesOf(badType.refused?.errors)).toEqual(['BAD_REQUEST']);
    const noTypes = await subscribe(server, client, ORGANIZATION_EVENTS, { organizationId: team.organization.id, types: [] });
    expect(codesOf(noTypes.refused?.errors)).toEqual(['BAD_REQUEST']);
    const badChangeRequest = await subscribe(server, client, SPACE_COMMENTS, { spaceId: space.id, changeRequestId: 'nope' });
    expect(codesOf(badChangeRequest.refused?.errors)).toEqual(['NOT_FOUND']);
    const unknownField = client.iterate({ query: 'subscription { noSuchThing { id } }' });
    await expect(unknownField.next()).rejects.toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) })]);
    const query = client.iterate({ query: '{ viewer { id } }' });
    await expect(query.next()).rejects.toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) })]);
    await client.dispose();
  });

  it('answers a subscription sent to POST /graphql with 400, naming the WebSocket door', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const answer = await team.admin.gql(SPACE_COMMENTS, { spaceId: space.id });
    expect({ status: answer.status, codes: codesOf(answer.errors) }).toEqual({ status: 400, codes: ['BAD_REQUEST'] });
    expect(answer.errors![0].message).toMatch(/WebSocket/);
  });

  it('stops delivering to a viewer removed from the organization: the subscription ends with 404', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const client = wsClient(server, team.read.token);
    const comments = await subscribe(server, client, SPACE_COMMENTS, { spaceId: space.id });
    await postComment(team.admin, commentsPath(space.id), 'before');
    expect((await comments.next()).value?.data?.spaceComments.type).toBe('comment.posted');
    const removed = await team.admin.rest('DELETE', `/v1/orgs/${team.organization.id}/members/${team.read.user.id}`);
    expect(removed.status).toBe(204);
    await postComment(team.admin, commentsPath(space.id), 'after');
    await expect(comments.next()).rejects.toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
    await client.dispose();
  });

  it('stops delivering once the token is revoked: the subscription ends with 401', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const client = wsClient(server, team.read.token);
    const comments = await subscribe(server, client, SPACE_COMMENTS, { spaceId: space.id });
    await server.em().nativeUpdate(ApiToken, { user: team.read.user.id }, { revokedAt: server.clock.now() });
    await postComment(team.admin, commentsPath(space.id), 'after');
    await expect(comments.next()).rejects.toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
    await client.dispose();
  });

  it('ends a stream its consumer does not keep up with, past MAX_PENDING_EVENTS, so that memory stays bounded', async () => {
    const before = server.live.feed.openStreams;
    const stream = server.live.feed.open({ organizationId: 'any', takesType: () => true, takesEvent: () => true });
    const event = { id: 'e', type: 'comment.posted' } as DomainEventRow;
    for (let i = 0; i <= MAX_PENDING_EVENTS; i++) stream.push(event);
    await expect(stream.next()).rejects.toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
    expect(server.live.feed.openStreams).toBe(before);
  });

  it('ends the streams of a stopping server, whose sockets close with 1001', async () => {
    const own = await startTestServer();
    const team = await newOrganizationWithRoles(own);
    const space = await createSpace(team.admin, team.organization.id);
    const client = wsClient(own, team.read.token);
    const closed = new Promise<number>((resolve) => client.on('closed', (event) => resolve((event as { code: number }).code)));
    await subscribe(own, client, SPACE_COMMENTS, { spaceId: space.id });
    await own.stop();
    expect(await closed).toBe(1001);
    expect(own.live.feed.openStreams).toBe(0);
    await client.dispose();
  });
});

describe('subscriptions under a low GRAPHQL_MAX_COST', () => {
  const cheap = useTestServer({ GRAPHQL_MAX_COST: '100' });

  it('refuses a subscription document above the cost limit with the message of POST /graphql, and serves one below it', async () => {
    const team = await newOrganizationWithRoles(cheap);
    const space = await createSpace(team.admin, team.organization.id);
    // 20 aliased actors of 7 values each: a cost of 141.
    const actors = Array.from({ length: 20 }, (_, i) => `a${i}: actor { id displayName email photoURL urls { location } }`).join(' ');
    const costly = `subscription($spaceId: ID!) { spaceComments(spaceId: $spaceId) { ${actors} } }`;
    const overHttp = await team.admin.gql(costly, { spaceId: space.id });
    expect(overHttp.status).toBe(400);
    const message = overHttp.errors![0].message;
    expect(message).toMatch(/^Query cost limit of 100 exceeded: the answer could hold 141 values/);

    const client = wsClient(cheap, team.read.token);
    const refused = client.iterate({ query: costly, variables: { spaceId: space.id } });
    await expect(refused.next()).rejects.toEqual([expect.objectContaining({ message, extensions: { code: 'BAD_REQUEST', status: 400 } })]);
    const served = await subscribe(cheap, client, SPACE_COMMENTS, { spaceId: space.id });
    expect(served.refused).toBeUndefined();
    await postComment(team.edit, commentsPath(space.id), 'within the limit');
    expect((await served.next()).value?.data?.spaceComments).toMatchObject({ payload: { body: { markdown: 'within the limit' } } });
    await client.dispose();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('subscriptions with several instances on one PostgreSQL', () => {
  let database: FreshDatabase;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    database = await freshDatabase();
    first = await startTestServer({}, { database });
    second = await startTestServer({}, { database });
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await database?.dispose();
  });

  it('delivers to a subscriber of one instance an event produced through another', async () => {
    const team = await newOrganizationWithRoles(first);
    const space = await createSpace(team.admin, team.organization.id);
    const client = wsClient(first, team.read.token);
    const comments = await subscribe(first, client, SPACE_COMMENTS, { spaceId: space.id });
    // Posted through the second instance (its own REST door, its own transaction).
    const res = await fetch(`${second.url}${commentsPath(space.id)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${team.edit.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: { markdown: 'from the other instance' } }),
    });
    expect(res.status).toBe(200);
    const posted = (await res.json()) as { id: string };
    const { value } = await comments.next();
    expect(value?.data?.spaceComments).toMatchObject({ type: 'comment.posted', target: { commentId: posted.id }, actor: { id: team.edit.user.id } });
    await client.dispose();
  });
  it('hands on the events committed while its listening connection was down, each once', async () => {
    const team = await newOrganizationWithRoles(first);
    const space = await createSpace(team.admin, team.organization.id);
    const client = wsClient(first, team.read.token);
    const comments = await subscribe(first, client, SPACE_COMMENTS, { spaceId: space.id });
    await postComment(team.edit, commentsPath(space.id), 'heard');
    expect((await comments.next()).value?.data?.spaceComments).toMatchObject({ payload: { body: { markdown: 'heard' } } });
    // Both instances' listening connections are cut; they listen again after a backoff of at least 500 ms.
    const [cut] = await first.deps.orm.em.getConnection().execute<{ cut: string }[]>(
      `select count(pg_terminate_backend(pid)) as cut from pg_stat_activity
       where datname = current_database() and query = 'listen "domain_event_' || current_schema() || '"'`,
    );
    expect(Number(cut.cut)).toBe(2);
    const missed = await fetch(`${second.url}${commentsPath(space.id)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${team.edit.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: { markdown: 'committed while nobody listened' } }),
    });
    expect(missed.status).toBe(200);
    expect((await comments.next()).value?.data?.spaceComments).toMatchObject({ payload: { body: { markdown: 'committed while nobody listened' } } });
    // Listening again: the next event comes through its notice, and the caught-up one is not repeated.
    await postComment(team.edit, commentsPath(space.id), 'heard again');
    expect((await comments.next()).value?.data?.spaceComments).toMatchObject({ payload: { body: { markdown: 'heard again' } } });
    await client.dispose();
  });
});
