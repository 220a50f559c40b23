/**
 * The audit log: every mutation through either door, from the outbox (changes as the areas record
 * them, refusals as the doors do), listed to organization admins newest first with filters and keyset
 * pages; refusals of queries are never recorded; retention deletes old events already delivered.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_RETENTION_INTERVAL_MS, AUDIT_RETENTION_JOB, scheduleAuditRetention } from '../src/domain/audit/index.js';
import { DomainEvent, type DomainEventRow } from '../src/events/entities.js';
import { recordServerEvent } from '../src/events/record.js';
import { Job } from '../src/jobs/entities.js';
import { commentsPath } from './support/comments.js';
import { createSpace } from './support/content.js';
import { eventsOf } from './support/events.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller, type OrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';

const SECOND = 1000;
const DAY = 86_400_000;
const RETENTION_DAYS = 30;

// No job worker (nor the webhook fan-out that comes with it, which would mark every event dispatched):
// the retention test schedules and runs its job itself.
const server = useTestServer({ AUDIT_RETENTION_DAYS: String(RETENTION_DAYS) });

const logPath = (organizationId: string, query: Record<string, string | number> = {}) => {
  const params = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
  return `/v1/orgs/${organizationId}/audit-log${params.size ? `?${params}` : ''}`;
};

const LOOPBACK = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

/** The organization of the sequence, its space, and what each step did. */
let team: OrganizationWithRoles;
let spaceId: string;
let times: Date[];
let restCommentId: string;
let graphqlCommentId: string;
let mixedCommentId: string;

/** The sequence's entries as compared: what the log says of each. */
const summary = (item: Record<string, any>) => ({
  type: item.type,
  actor: item.actor?.id ?? null,
  door: item.door,
  operation: item.operation,
  outcome: item.outcome,
  target: item.target,
});

async function listed(caller: Caller, query: Record<string, string | number> = {}) {
  const res = await caller.rest('GET', logPath(team.organization.id, { from: times[0].toISOString(), ...query }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: Record<string, any>[]; next?: { page: string } | null };
}

beforeAll(async () => {
  team = await newOrganizationWithRoles(server);
  spaceId = (await createSpace(team.admin, team.organization.id)).id;
  times = [];
  // Each step a second after the last, so that the time filter can pick steps.
  const step = () => {
    server.clock.advance(SECOND);
    times.push(server.clock.now());
  };

  step(); // 0: a comment through REST
  const rest = await team.edit.rest('POST', commentsPath(spaceId), { body: { markdown: 'Through REST' } });
  expect(rest.status, JSON.stringify(rest.body)).toBe(200);
  restCommentId = rest.body.id;

  step(); // 1: a comment through GraphQL
  const gql = await team.admin.gql(`mutation($spaceId: ID!) { postComment(spaceId: $spaceId, input: { body: { markdown: "Through GraphQL" } }) { id } }`, {
    spaceId,
  });
  expect(gql.errors).toBeUndefined();
  graphqlCommentId = gql.data.postComment.id;

  step(); // 2: refused for lack of access (403)
  expectError(await team.read.rest('PATCH', `/v1/orgs/${team.organization.id}`, { title: 'Not mine to rename' }), 403);

  step(); // 3: refused for its input (400)
  expectError(await team.edit.rest('POST', commentsPath(spaceId), { body: { markdown: 'x' }, extra: 1 }), 400, 'extra: unknown field');

  step(); // 4: one GraphQL request, two root fields: one succeeds, one is denied
  const mixed = await team.edit.gql(
    `mutation($spaceId: ID!, $organizationId: ID!) {
      postComment(spaceId: $spaceId, input: { body: { markdown: "Mixed" } }) { id }
      updateOrganization(id: $organizationId, input: { title: "Nor mine" }) { id }
    }`,
    { spaceId, organizationId: team.organization.id },
  );
  // The refused field is non-null: the answer's data is null, though the comment was posted.
  expect(mixed.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
  const posted = (await eventsOf(server, team.organization.id)).filter((event) => event.type === 'comment.posted');
  mixedCommentId = posted[posted.length - 1].target.commentId!;
  expect(mixedCommentId).not.toBe(restCommentId);

  // Refused reads are no mutations: none of these is recorded.
  step();
  expectError(await team.read.rest('GET', logPath(team.organization.id)), 403);
  expectGqlError(await team.read.gql(`query($id: ID!) { auditLog(organizationId: $id) { items { id } } }`, { id: team.organization.id }), 'FORBIDDEN');
});

describe('the audit log lists a sequence of mutations through both doors', () => {
  it('exactly, newest first: changes and refusals with actor, door, operation, outcome, target and address', async () => {
    const { items, next } = await listed(team.admin);
    expect(next ?? null).toBeNull();
    expect(items.map(summary)).toEqual([
      {
        type: 'mutation.refused',
        actor: team.edit.user.id,
        door: 'graphql',
        operation: 'updateOrganization',
        outcome: 'denied',
        target: { organizationId: team.organization.id },
      },
      {
        type: 'comment.posted',
        actor: team.edit.user.id,
        door: 'graphql',
        operation: 'postComment,updateOrganization',
        outcome: 'succeeded',
        target: { spaceId, commentId: mixedCommentId },
      },
      { type: 'mutation.refused', actor: team.edit.user.id, door: 'rest', operation: 'postCommentInSpace', outcome: 'rejected', target: { spaceId } },
      {
        type: 'mutation.refused',
        actor: team.read.user.id,
        door: 'rest',
        operation: 'updateOrganizationById',
        outcome: 'denied',
        target: { organizationId: team.organization.id },
      },
      {
        type: 'comment.posted',
        actor: team.admin.user.id,
        door: 'graphql',
        operation: 'postComment',
        outcome: 'succeeded',
        target: { spaceId, commentId: graphqlCommentId },
      },
      {
        type: 'comment.posted',
        actor: team.edit.user.id,
        door: 'rest',
        operation: 'postCommentInSpace',
        outcome: 'succeeded',
        target: { spaceId, commentId: restCommentId },
      },
    ]);
    for (const item of items) {
      expect(item.clientIp).toMatch(LOOPBACK);
      expect(item.actorTokenId).toEqual(expect.any(String));
      expect(item.organizationId).toBe(team.organization.id);
    }
    expect(items.map((item) => item.occurredAt)).toEqual([4, 4, 3, 2, 1, 0].map((i) => times[i].toISOString()));
    expect(items[0].payload).toEqual({ status: 403, message: expect.any(String) });
    expect(items[2].payload).toEqual({ status: 400, message: 'extra: unknown field' });
    expect(items[5].payload).toMatchObject({ object: 'comment', id: restCommentId, body: { markdown: 'Through REST' } });
  });

  it('reads the same through GraphQL, where the address is shown to admins only', async () => {
    const query = `query($id: ID!, $from: DateTime) { auditLog(organizationId: $id, from: $from) {
      items { type operation outcome door clientIp actor { id } target } next { page } } }`;
    const answer = await team.admin.gql(query, { id: team.organization.id, from: times[0].toISOString() });
    expect(answer.errors).toBeUndefined();
    const rest = await listed(team.admin);
    expect(answer.data.auditLog.items.map(summary)).toEqual(rest.items.map(summary));
    expect(answer.data.auditLog.next).toBeNull();
    expect(answer.data.auditLog.items[0].clientIp).toMatch(LOOPBACK);
  });
});

describe('filters', () => {
  it('by actor', async () => {
    const { items } = await listed(team.admin, { actor: team.edit.user.id });
    expect(items.map((item) => [item.type, item.operation])).toEqual([
      ['mutation.refused', 'updateOrganization'],
      ['comment.posted', 'postComment,updateOrganization'],
      ['mutation.refused', 'postCommentInSpace'],
      ['comment.posted', 'postCommentInSpace'],
    ]);
  });

  it('by target: any id the event is about', async () => {
    expect((await listed(team.admin, { target: restCommentId })).items.map((item) => item.target.commentId)).toEqual([restCommentId]);
    const refusals = await listed(team.admin, { target: team.organization.id });
    expect(refusals.items.map((item) => item.operation)).toEqual(['updateOrganization', 'updateOrganizationById']);
  });

  it('by type and outcome', async () => {
    expect((await listed(team.admin, { type: 'mutation.refused' })).items.map((item) => item.outcome)).toEqual(['denied', 'rejected', 'denied']);
    expect((await listed(team.admin, { type: 'comment.posted' })).items).toHaveLength(3);
    expect((await listed(team.admin, { outcome: 'denied' })).items.map((item) => item.actor.id)).toEqual([team.edit.user.id, team.read.user.id]);
  });

  it('by time: from inclusive, to exclusive', async () => {
    const { items } = await listed(team.admin, { from: times[1].toISOString(), to: times[3].toISOString() });
    expect(items.map((item) => [item.type, item.door])).toEqual([
      ['mutation.refused', 'rest'],
      ['comment.posted', 'graphql'],
    ]);
  });

  it('combined', async () => {
    const { items } = await listed(team.admin, { actor: team.edit.user.id, type: 'comment.posted', target: spaceId, outcome: 'succeeded' });
    expect(items.map((item) => item.target.commentId)).toEqual([mixedCommentId, restCommentId]);
  });
});

describe('refusals', () => {
  it('to organization admins only: members 403, outsiders 404, without a token 401', async () => {
    expectError(await team.edit.rest('GET', logPath(team.organization.id)), 403);
    expectError(await team.outsider.rest('GET', logPath(team.organization.id)), 404);
    const anonymous = await fetch(`${server.url}${logPath(team.organization.id)}`);
    expect(anonymous.status).toBe(401);
  });

  it('bad filters are 400 naming the filter', async () => {
    const bad: [Record<string, string | number>, string | RegExp][] = [
      [{ type: 'comment.exploded' }, 'type: not an event type: "comment.exploded"'],
      [{ outcome: 'maybe' }, 'outcome: must be one of succeeded, denied, rejected'],
      // The facade's message for a query parameter GraphQL refuses: it names the parameter, not the value.
      [{ from: 'yesterday' }, 'from: must be an ISO 8601 date-time'],
      [{ to: '2026-13-45T00:00:00Z' }, 'to: must be an ISO 8601 date-time'],
      [{ from: times[3].toISOString(), to: times[1].toISOString() }, 'to: must be later than from'],
      [{ page: 'not-a-page' }, 'page: not a page identifier returned by this list'],
      [{ page: Buffer.from(JSON.stringify(['x'])).toString('base64url') }, 'page: not a page identifier returned by this list'],
      [{ limit: 0 }, /^limit: /],
    ];
    for (const [query, message] of bad) expectError(await team.admin.rest('GET', logPath(team.organization.id, query)), 400, message);
  });
});

describe('keyset pages', () => {
  it('walks a few hundred events page by page, newest first, each once', async () => {
    const other = await newOrganizationWithRoles(server);
    const em = server.em().fork();
    const inserted: DomainEventRow[] = [];
    for (let i = 0; i < 250; i++) {
      inserted.push(
        recordServerEvent(em, server.clock, { type: 'team.created', organizationId: other.organization.id, target: { teamId: `team-${i}` }, payload: { i } }),
      );
    }
    await em.flush();
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await other.admin.rest('GET', logPath(other.organization.id, { type: 'team.created', limit: 100, ...(page ? { page } : {}) }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.items.map((item: { id: string }) => item.id));
      page = res.body.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(3);
    expect(seen).toEqual(inserted.map((event) => event.id).reverse());
  });
});

describe('retention', () => {
  it('deletes old events once dispatched (or refused), keeps undispatched ones, and runs hourly', async () => {
    const em = server.em().fork();
    const now = server.clock.now().getTime();
    const old = new Date(now - (RETENTION_DAYS + 1) * DAY);
    const other = await newOrganizationWithRoles(server);
    const event = (name: string, occurredAt: Date, changes: Partial<DomainEventRow> = {}) => {
      const row = recordServerEvent(em, server.clock, { type: 'team.created', organizationId: other.organization.id, target: { teamId: name }, payload: {} });
      em.assign(row, { occurredAt, ...changes });
      return name;
    };
    event('old-dispatched', old, { dispatchedAt: old });
    event('old-undispatched', old);
    event('old-refused', old, { type: 'mutation.refused', outcome: 'rejected' });
    event('recent-dispatched', new Date(now - DAY), { dispatchedAt: new Date(now - DAY) });
    await em.flush();

    const pendingRuns = async () => (await server.em().fork().find(Job, { kind: AUDIT_RETENTION_JOB, lockedUntil: null })).map((job) => job.runAt.getTime());
    await scheduleAuditRetention(server.em().fork(), RETENTION_DAYS, server.clock.now());
    expect(await pendingRuns()).toHaveLength(1);
    server.clock.set(new Date(Math.max(now, ...(await pendingRuns()))));
    await server.runDueJobs();

    const left = await server
      .em()
      .fork()
      .find(DomainEvent, { organizationId: other.organization.id }, { orderBy: { seq: 'asc' } });
    expect(left.flatMap((row) => row.target.teamId ?? [])).toEqual(['old-undispatched', 'recent-dispatched']);
    expect(await pendingRuns()).toEqual([server.clock.now().getTime() + AUDIT_RETENTION_INTERVAL_MS]);
  });
});

describe('refusals whatever their input', () => {
  it('are recorded with the ids as sent, and a message that can be stored (they used to be lost)', async () => {
    const other = await newOrganizationWithRoles(server);
    const refusals = async () =>
      (await server.em().find(DomainEvent, { type: 'mutation.refused', organizationId: other.organization.id }, { orderBy: { seq: 'asc' } })).map((event) => ({
        operation: event.operation,
        target: event.target,
        targetIds: event.targetIds,
        message: (event.payload as { message: string }).message,
      }));
    // Ids PostgreSQL's array syntax treats specially: blanks, commas, braces, quotes, backslashes, NULL.
    const ids = [' ', ' ,4𠡯ò', 'NULL', 'a\\b', '"{}"'];
    for (const id of ids) {
      expectError(await other.admin.rest('PATCH', `/v1/orgs/${other.organization.id}/teams/${encodeURIComponent(id)}`, { title: 'Team' }), 404);
    }
    const recorded = await refusals();
    expect(recorded.map((row) => row.target)).toEqual(ids.map((teamId) => ({ organizationId: other.organization.id, teamId })));
    expect(recorded.map((row) => row.targetIds)).toEqual(ids.map((teamId) => [other.organization.id, teamId]));

    // Refused for a lone surrogate or NUL (in a value, a key, an id): recorded, the odd id left out of the target.
    const surrogate = await other.admin.gql(
      'mutation($org: ID!, $team: ID!) { updateTeam(organizationId: $org, teamId: $team, input: { title: "T" }) { id } }',
      {
        org: other.organization.id,
        team: 'x\ud800',
      },
    );
    expect(surrogate.status).toBe(400);
    const key = await fetch(`${server.url}/v1/orgs/${other.organization.id}/teams/x`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${other.admin.token}`, 'content-type': 'application/json' },
      body: '{"title\\u0000\\ud800":"T"}',
    });
    expect(key.status).toBe(400);
    const [graphql, rest] = (await refusals()).slice(ids.length);
    expect(graphql).toMatchObject({ operation: 'updateTeam', target: { organizationId: other.organization.id }, targetIds: [other.organization.id] });
    expect(graphql.message).toMatch(/^team: must not contain a lone surrogate/);
    expect(rest).toMatchObject({ operation: 'updateTeamInOrganizationById', target: { organizationId: other.organization.id, teamId: 'x' } });
    expect(rest.message).toBe('"title\\u0000\\ud800": must not contain the NUL character (U+0000)');
  });
});
