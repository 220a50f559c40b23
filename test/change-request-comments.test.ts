/**
 * Change-request comments (contract §4.5) through both doors on the real database: the same
 * operations as space comments on the change request's own content, its `comments` count, `resolved`
 * on replies, and the separation of the two discussions.
 */
import { describe, expect, it } from 'vitest';
import { commentsPath, postComment, postReply } from './support/comments.js';
import { createPage, createSpace, openChangeRequest, updatePage } from './support/content.js';
import { expectContract, expectError } from './support/expectations.js';
import { newMember, newOrganizationWithRoles, newUser } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

/** A space with a change request holding a new page "Draft". */
async function changeRequestWithPage() {
  const team = await newOrganizationWithRoles(server);
  const space = await createSpace(team.admin, team.organization.id);
  const cr = await openChangeRequest(team.admin, space.id);
  const { page } = await createPage(team.admin, space.id, cr.id, { title: 'Draft', markdown: 'First paragraph.\n\nSecond paragraph.' });
  return { ...team, space, cr, page: page!, base: commentsPath(space.id, cr.id) };
}

describe('change-request comments through REST', () => {
  it('serves all ten operations as the reference shapes them', async () => {
    const { admin, space, cr, page, base } = await changeRequestWithPage();
    const posted = await admin.rest('POST', base, { page: page.id, body: { markdown: 'Why a draft?' } });
    expect(posted.status).toBe(200);
    expectContract('postCommentInChangeRequest', posted);
    expect(posted.body).toMatchObject({
      target: { changeRequest: cr.id, space: space.id, page: { id: page.id, title: 'Draft', path: 'draft', outdated: false } },
      urls: { location: `http://docs.test${base}/${posted.body.id}` },
    });
    const id = posted.body.id;
    expectContract('getCommentInChangeRequest', await admin.rest('GET', `${base}/${id}?format=document`));
    const list = await admin.rest('GET', `${base}?status=open&order=asc&targetPage=${page.id}`);
    expectContract('listCommentsInChangeRequest', list);
    expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([id]);
    expectContract('updateCommentInChangeRequest', await admin.rest('PUT', `${base}/${id}`, { addedReactions: ['👀'] }));

    const reply = await admin.rest('POST', `${base}/${id}/replies`, { body: { markdown: 'To try it' } });
    expect(reply.status).toBe(200);
    expectContract('postCommentReplyInChangeRequest', reply);
    expectContract('listCommentRepliesInChangeRequest', await admin.rest('GET', `${base}/${id}/replies`));
    expectContract('getCommentReplyInChangeRequest', await admin.rest('GET', `${base}/${id}/replies/${reply.body.id}`));
    const updatedReply = await admin.rest('PUT', `${base}/${id}/replies/${reply.body.id}`, { body: { markdown: 'To try it out' } });
    expectContract('updateCommentReplyInChangeRequest', updatedReply);
    expect((await admin.rest('DELETE', `${base}/${id}/replies/${reply.body.id}`)).status).toBe(204);
    expect((await admin.rest('DELETE', `${base}/${id}`)).status).toBe(204);
    expect((await admin.rest('GET', base)).body.count).toBe(0);
  });

  it('resolves and reopens the comment through `resolved` on a reply', async () => {
    const { admin, organization, base } = await changeRequestWithPage();
    const reviewer = await newMember(server, organization.id, 'comment');
    const comment = await postComment(admin, base);
    const reply = await postReply(reviewer, base, comment.id);
    const resolved = await reviewer.rest('PUT', `${base}/${comment.id}/replies/${reply.id}`, { resolved: true });
    expect(resolved.status).toBe(200);
    expect((await admin.rest('GET', `${base}/${comment.id}`)).body).toMatchObject({
      status: 'resolved',
      resolvedAt: server.clock.now().toISOString(),
      resolvedBy: { id: reviewer.user.id },
    });
    await reviewer.rest('PUT', `${base}/${comment.id}/replies/${reply.id}`, { resolved: false });
    const reopened = (await admin.rest('GET', `${base}/${comment.id}`)).body;
    expect(reopened.status).toBe('open');
    expect(reopened.resolvedBy).toBeUndefined();
  });

  it('counts open comments on the change request, apart from the space', async () => {
    const { admin, space, cr, base } = await changeRequestWithPage();
    const a = await postComment(admin, base);
    await postComment(admin, base);
    await postComment(admin, commentsPath(space.id), 'On the space');
    await admin.rest('PUT', `${base}/${a.id}`, { resolved: true });
    const changeRequest = await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`);
    expect(changeRequest.body.comments).toBe(1);
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.comments).toBe(1);
    const gql = await admin.gql(`query($s: ID!) { changeRequests(spaceId: $s) { items { id comments } } space(id: $s) { comments } }`, { s: space.id });
    expect(gql.data).toEqual({ changeRequests: { items: [{ id: cr.id, comments: 1 }] }, space: { comments: 1 } });
    // Each discussion lists and finds its own comments only.
    expect((await admin.rest('GET', base)).body.count).toBe(2);
    expect((await admin.rest('GET', commentsPath(space.id))).body.count).toBe(1);
    expectError(await admin.rest('GET', `${commentsPath(space.id)}/${a.id}`), 404, 'Comment not found');
  });

  it('targets pages and nodes of the change request content, and tells when they changed there', async () => {
    const { admin, space, cr, page, base } = await changeRequestWithPage();
    // The page exists in the change request only.
    expectError(
      await admin.rest('POST', commentsPath(space.id), { page: page.id, body: { markdown: 'x' } }),
      400,
      `page: no page "${page.id}" in this content`,
    );
    const doc = await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${page.id}?format=document`);
    const second = doc.body.document.nodes[1].key;
    const comment = await postComment(admin, base, { page: page.id, node: second, body: { markdown: 'Reword this' } });
    expect(comment.target).toMatchObject({ node: { id: second, preview: 'Second paragraph.' }, page: { outdated: false } });
    await updatePage(admin, space.id, cr.id, page.id, { title: 'Draft 2' });
    const after = (await admin.rest('GET', `${base}/${comment.id}`)).body;
    expect(after.target.page).toMatchObject({ title: 'Draft 2', outdated: true });
  });

  it('answers 401 without a token, 404 across organizations and for a change request of another space, 403 below comment', async () => {
    const { admin, organization, space, cr, base } = await changeRequestWithPage();
    const comment = await postComment(admin, base);
    expect((await fetch(`${server.url}${base}`)).status).toBe(401);
    const outsider = await newUser(server);
    expectError(await outsider.rest('GET', `${base}/${comment.id}`), 404, 'Space not found');
    const other = await createSpace(admin, organization.id);
    expectError(await admin.rest('GET', `${commentsPath(other.id, cr.id)}/${comment.id}`), 404, 'Change request not found');
    const reader = await newMember(server, organization.id, 'read');
    expectError(await reader.rest('POST', `${base}/${comment.id}/replies`, { body: { markdown: 'x' } }), 403, 'Space: this operation needs the comment role');
    expect((await reader.rest('GET', `${base}/${comment.id}/replies`)).status).toBe(200);
    expect(space.id).toBeDefined();
  });
});

describe('change-request comments through GraphQL', () => {
  it('takes the change request id on the same fields', async () => {
    const { admin, space, cr } = await changeRequestWithPage();
    const posted = await admin.gql(
      `mutation($s: ID!, $cr: ID) { postComment(spaceId: $s, changeRequestId: $cr, input: { body: { markdown: "Hi" } }) { id target { changeRequest } } }`,
      { s: space.id, cr: String(cr.number) },
    );
    expect(posted.errors).toBeUndefined();
    expect(posted.data.postComment.target.changeRequest).toBe(cr.id);
    const listed = await admin.gql(
      `query($s: ID!, $cr: ID!) { comments(spaceId: $s, changeRequestId: $cr) { count items { id } } changeRequest(spaceId: $s, changeRequestId: $cr) { comments } }`,
      { s: space.id, cr: cr.id },
    );
    expect(listed.data).toEqual({ comments: { count: 1, items: [{ id: posted.data.postComment.id }] }, changeRequest: { comments: 1 } });
  });
});
