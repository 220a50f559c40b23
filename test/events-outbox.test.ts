/**
 * The outbox of domain events: a change writes its event in its own transaction, with who made it,
 * through which door and operation, from where; a rolled-back change announces nothing; the event hub
 * hears each committed event once.
 */
import { describe, expect, it } from 'vitest';
import { DomainEvent } from '../src/events/entities.js';
import { recordServerEvent } from '../src/events/record.js';
import { commentsPath } from './support/comments.js';
import { createSpace } from './support/content.js';
import { collectNotices, eventsOf } from './support/events.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

describe('the outbox', () => {
  it('records a comment posted through REST with its actor, token, door, operation, address and payload', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const hub = collectNotices(server);
    const posted = await team.edit.rest('POST', commentsPath(space.id), { body: { markdown: 'Ship it' } });
    expect(posted.status).toBe(200);
    const events = (await eventsOf(server, team.organization.id)).filter((e) => e.type === 'comment.posted');
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      type: 'comment.posted',
      organizationId: team.organization.id,
      actorUserId: team.edit.user.id,
      door: 'rest',
      operation: 'postCommentInSpace',
      outcome: 'succeeded',
      target: { spaceId: space.id, commentId: posted.body.id },
      payload: { object: 'comment', id: posted.body.id, postedBy: team.edit.user.id, body: { markdown: 'Ship it' }, status: 'open' },
      occurredAt: server.clock.now(),
    });
    expect(event.actorTokenId).toEqual(expect.any(String));
    expect(event.clientIp).toMatch(/127\.0\.0\.1|::1/);
    expect(event.targetIds.sort()).toEqual([space.id, posted.body.id].sort());
    const notice = await hub.waitFor((n) => n.id === event.id);
    expect(notice).toMatchObject({ type: 'comment.posted', organizationId: team.organization.id, seq: event.seq, outcome: 'succeeded' });
    hub.stop();
  });

  it('names a GraphQL mutation by its root field', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const answer = await team.admin.gql(`mutation Named($spaceId: ID!) { postComment(spaceId: $spaceId, input: { body: { markdown: "Hi" } }) { id } }`, {
      spaceId: space.id,
    });
    expect(answer.errors).toBeUndefined();
    const [event] = (await eventsOf(server, team.organization.id)).filter((e) => e.type === 'comment.posted');
    expect(event).toMatchObject({
      door: 'graphql',
      operation: 'postComment',
      actorUserId: team.admin.user.id,
      target: { commentId: answer.data.postComment.id },
    });
  });

  it('announces nothing of a rolled-back change', async () => {
    const team = await newOrganizationWithRoles(server);
    const hub = collectNotices(server);
    const em = server.deps.orm.em.fork();
    const event = { type: 'team.created', organizationId: team.organization.id, target: { teamId: 'never' }, payload: {} } as const;
    await expect(
      em.transactional(async (tx) => {
        recordServerEvent(tx, server.clock, event);
        await tx.flush();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const kept = recordServerEvent(em, server.clock, { ...event, target: { teamId: 'kept' } });
    await em.flush();
    await hub.waitFor((n) => n.id === kept.id);
    // The organization's own creation was announced too: only team.created events are this test's.
    expect(hub.notices.filter((n) => n.organizationId === team.organization.id && n.type === 'team.created').map((n) => n.id)).toEqual([kept.id]);
    expect(await em.fork().count(DomainEvent, { organizationId: team.organization.id, type: 'team.created' })).toBe(1);
    hub.stop();
  });
});
