/**
 * Domain events of the discussion and publishing areas: comments and replies, sites and their
 * structure, share links, translations, OpenAPI specs and integrations. Each change, made through a
 * public door, records one event with its actor, target and payload; a refused change records none;
 * concurrent identical changes record one event per change that committed.
 */
import { describe, expect, it } from 'vitest';
import type { DomainEventRow } from '../src/events/entities.js';
import { commentsPath, postComment, postReply } from './support/comments.js';
import { createSpace, openChangeRequest } from './support/content.js';
import { eventsOf, lastEventSeq } from './support/events.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

/** The events of `organizationId` recorded since `afterSeq`, by type. */
async function eventsSince(organizationId: string, afterSeq: number, type?: string): Promise<DomainEventRow[]> {
  const events = await eventsOf(server, organizationId, afterSeq);
  return type ? events.filter((e) => e.type === type) : events;
}

describe('comment and reply events', () => {
  it('records edits, resolution, reopening, reactions and deletion of a space comment', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const base = commentsPath(space.id);
    const comment = await postComment(team.edit, base, 'First');
    const org = team.organization.id;
    let seq = await lastEventSeq(server);

    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { body: { markdown: 'Second' } })).status).toBe(200);
    const [edited] = await eventsSince(org, seq);
    expect(edited).toMatchObject({
      type: 'comment.edited',
      actorUserId: team.edit.user.id,
      door: 'rest',
      target: { spaceId: space.id, commentId: comment.id },
      payload: { object: 'comment', id: comment.id, body: { markdown: 'Second' }, editedAt: server.clock.now().toISOString(), changes: ['body'] },
    });

    seq = await lastEventSeq(server);
    expect((await team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: true, addedReactions: ['👍'] })).status).toBe(200);
    const resolvedAndReacted = await eventsSince(org, seq);
    expect(resolvedAndReacted.map((e) => e.type)).toEqual(['comment.resolved', 'comment.reacted']);
    expect(resolvedAndReacted[0]).toMatchObject({ actorUserId: team.admin.user.id, payload: { status: 'resolved', resolvedBy: team.admin.user.id } });
    expect(resolvedAndReacted[1]!.payload).toMatchObject({ id: comment.id, reactions: { user: team.admin.user.id, added: ['👍'], removed: [] }, changes: ['reactions'] });

    seq = await lastEventSeq(server);
    // Resolving again changes nothing, so it announces nothing; reopening does.
    expect((await team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: true })).status).toBe(200);
    expect(await eventsSince(org, seq)).toEqual([]);
    expect((await team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: false, removedReactions: ['👍', '🎉'] })).status).toBe(200);
    const reopened = await eventsSince(org, seq);
    expect(reopened.map((e) => e.type)).toEqual(['comment.reopened', 'comment.reacted']);
    expect(reopened[0]!.payload).toMatchObject({ status: 'open', resolvedBy: null, resolvedAt: null });
    expect(reopened[1]!.payload).toMatchObject({ reactions: { added: [], removed: ['👍'] } });

    seq = await lastEventSeq(server);
    expect((await team.edit.rest('DELETE', `${base}/${comment.id}`)).status).toBe(204);
    const [deleted] = await eventsSince(org, seq);
    expect(deleted).toMatchObject({ type: 'comment.deleted', actorUserId: team.edit.user.id, target: { commentId: comment.id }, payload: { id: comment.id, body: { markdown: 'Second' } } });
  });

  it('records replies posted, edited, reacted to and deleted in a change request, and a reply resolving its comment', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const changeRequest = await openChangeRequest(team.edit, space.id);
    const base = commentsPath(space.id, changeRequest.id);
    const comment = await postComment(team.edit, base, 'Look');
    const org = team.organization.id;
    let seq = await lastEventSeq(server);

    const reply = await postReply(team.admin, base, comment.id, 'Seen');
    const [posted] = await eventsSince(org, seq);
    expect(posted).toMatchObject({
      type: 'comment_reply.posted',
      actorUserId: team.admin.user.id,
      target: { spaceId: space.id, changeRequestId: changeRequest.id, commentId: comment.id, commentReplyId: reply.id },
      payload: { object: 'comment-reply', id: reply.id, comment: comment.id, postedBy: team.admin.user.id, body: { markdown: 'Seen' } },
    });

    seq = await lastEventSeq(server);
    const replyPath = `${base}/${comment.id}/replies/${reply.id}`;
    expect((await team.admin.rest('PUT', replyPath, { body: { markdown: 'Seen, fixed' }, resolved: true, addedReactions: ['🎉'] })).status).toBe(200);
    const updated = await eventsSince(org, seq);
    expect(updated.map((e) => e.type)).toEqual(['comment_reply.edited', 'comment.resolved', 'comment_reply.reacted']);
    expect(updated[0]!.payload).toMatchObject({ id: reply.id, body: { markdown: 'Seen, fixed' }, changes: ['body'] });
    expect(updated[1]).toMatchObject({ target: { commentId: comment.id, changeRequestId: changeRequest.id }, payload: { id: comment.id, status: 'resolved' } });
    expect(updated[2]!.payload).toMatchObject({ id: reply.id, reactions: { added: ['🎉'], removed: [] } });

    seq = await lastEventSeq(server);
    expect((await team.admin.rest('DELETE', replyPath)).status).toBe(204);
    const [deleted] = await eventsSince(org, seq);
    expect(deleted).toMatchObject({ type: 'comment_reply.deleted', target: { commentReplyId: reply.id }, payload: { id: reply.id } });
  });

  it('records nothing for a refused change: no access (403), bad input (400), a deleted space (409)', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const base = commentsPath(space.id);
    const comment = await postComment(team.edit, base, 'Mine');
    const seq = await lastEventSeq(server);
    expect((await team.read.rest('PUT', `${base}/${comment.id}`, { body: { markdown: 'Not yours' } })).status).toBe(403);
    expect((await team.read.rest('DELETE', `${base}/${comment.id}`)).status).toBe(403);
    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { body: { markdown: '' } })).status).toBe(400);
    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { addedReactions: ['not an emoji'] })).status).toBe(400);
    expect((await team.admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { resolved: true })).status).toBe(409);
    expect((await eventsSince(team.organization.id, seq)).filter((e) => !e.type.startsWith('space.'))).toEqual([]);
  });

  it('records one event for two concurrent identical reactions, and one for two concurrent resolutions', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const base = commentsPath(space.id);
    const comment = await postComment(team.edit, base, 'Race');
    const seq = await lastEventSeq(server);
    const reactions = await Promise.all([1, 2].map(() => team.admin.rest('PUT', `${base}/${comment.id}`, { addedReactions: ['🚀'] })));
    expect(reactions.map((r) => r.status)).toEqual([200, 200]);
    const resolutions = await Promise.all([1, 2].map(() => team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: true })));
    expect(resolutions.map((r) => r.status)).toEqual([200, 200]);
    const events = await eventsSince(team.organization.id, seq);
    expect(events.map((e) => e.type)).toEqual(['comment.reacted', 'comment.resolved']);
  });
});
