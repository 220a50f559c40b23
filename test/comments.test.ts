/**
 * Space comments (contract §2.9, §3, §4.3) through both doors on the real database: every operation,
 * ordering and filters, reactions, resolution, counts, targets and `outdated`, who may do what,
 * concurrency, bad input, and the statements of a GraphQL read of a whole discussion.
 */
import { describe, expect, it } from 'vitest';
import { commentsPath, postComment, postReply } from './support/comments.js';
import { createPage, createSpace, merge, openChangeRequest, updatePage } from './support/content.js';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newMember, newOrganization, newOrganizationWithRoles, newUser } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { countStatements } from './support/sql.js';

const server = useTestServer();

async function spaceWithComments() {
  const team = await newOrganizationWithRoles(server);
  const space = await createSpace(team.admin, team.organization.id);
  return { ...team, space, base: commentsPath(space.id) };
}

/** A space whose main content has a page "Guide" (merged from a change request). */
async function spaceWithPage() {
  const setup = await spaceWithComments();
  const cr = await openChangeRequest(setup.admin, setup.space.id);
  const { page } = await createPage(setup.admin, setup.space.id, cr.id, { title: 'Guide', markdown: '# Install\n\nRun the installer.\n\nThen restart.' });
  expect((await merge(setup.admin, setup.space.id, cr.id)).status).toBe(200);
  return { ...setup, page: page!, cr };
}

describe('space comments through REST', () => {
  it('posts, gets, lists, updates and deletes comments and replies, as the reference shapes them', async () => {
    const { admin, space, base } = await spaceWithComments();
    const posted = await admin.rest('POST', base, { body: { markdown: 'Looks **good**' } });
    expect(posted.status).toBe(200);
    expectContract('postCommentInSpace', posted);
    expect(posted.body).toMatchObject({
      object: 'comment',
      postedBy: { id: admin.user.id },
      postedAt: server.clock.now().toISOString(),
      reactions: [],
      replies: 0,
      body: { markdown: 'Looks **good**' },
      target: { space: space.id, revision: space.revision },
      urls: { location: `http://docs.test${base}/${posted.body.id}` },
      status: 'open',
      permissions: { view: true, edit: true, reply: true, react: true, delete: true },
    });
    expect(posted.body.resolvedAt).toBeUndefined();
    const id = posted.body.id;

    const got = await admin.rest('GET', `${base}/${id}`);
    expectContract('getCommentInSpace', got);
    expect(got.body).toEqual(posted.body);
    const asDocument = await admin.rest('GET', `${base}/${id}?format=document`);
    expectContract('getCommentInSpace', asDocument);
    expect(asDocument.body.body.document.nodes[0].type).toBe('paragraph');
    expect(asDocument.body.body.markdown).toBeUndefined();

    server.clock.advance(1000);
    const updated = await admin.rest('PUT', `${base}/${id}`, { body: { markdown: 'Edited' }, addedReactions: ['👍'] });
    expectContract('updateCommentInSpace', updated);
    expect(updated.body).toMatchObject({
      body: { markdown: 'Edited' },
      editedAt: server.clock.now().toISOString(),
      reactions: [{ emoji: '👍', count: 1, users: [{ user: { id: admin.user.id } }] }],
    });

    const reply = await admin.rest('POST', `${base}/${id}/replies`, { body: { markdown: 'Thanks' } });
    expect(reply.status).toBe(200);
    expectContract('postCommentReplyInSpace', reply);
    expect(reply.body).toMatchObject({
      object: 'comment-reply',
      body: { markdown: 'Thanks' },
      postedBy: { id: admin.user.id },
      urls: { location: `http://docs.test${base}/${id}/replies/${reply.body.id}` },
    });
    const replies = await admin.rest('GET', `${base}/${id}/replies`);
    expectContract('listCommentRepliesInSpace', replies);
    expect(replies.body).toMatchObject({ count: 1, items: [{ id: reply.body.id }] });
    const gotReply = await admin.rest('GET', `${base}/${id}/replies/${reply.body.id}?format=document`);
    expectContract('getCommentReplyInSpace', gotReply);
    expect(gotReply.body.body.document.object).toBe('document');
    const editedReply = await admin.rest('PUT', `${base}/${id}/replies/${reply.body.id}`, { body: { markdown: 'Thanks!' }, addedReactions: ['🎉'] });
    expectContract('updateCommentReplyInSpace', editedReply);
    expect(editedReply.body).toMatchObject({ body: { markdown: 'Thanks!' }, reactions: [{ emoji: '🎉', count: 1 }] });
    // The reply's reaction is its own, not the comment's.
    expect((await admin.rest('GET', `${base}/${id}`)).body).toMatchObject({ replies: 1, reactions: [{ emoji: '👍', count: 1 }] });

    const list = await admin.rest('GET', base);
    expectContract('listCommentsInSpace', list);
    expect(list.body).toMatchObject({ count: 1, items: [{ id, replies: 1 }] });

    const deletedReply = await admin.rest('DELETE', `${base}/${id}/replies/${reply.body.id}`);
    expect(deletedReply.status).toBe(204);
    expectError(await admin.rest('GET', `${base}/${id}/replies/${reply.body.id}`), 404, 'Comment reply not found');
    expect((await admin.rest('DELETE', `${base}/${id}`)).status).toBe(204);
    expectError(await admin.rest('GET', `${base}/${id}`), 404, 'Comment not found');
    expect((await admin.rest('GET', base)).body.count).toBe(0);
  });

  it('deletes a comment with its replies and their reactions', async () => {
    const { admin, base } = await spaceWithComments();
    const comment = await postComment(admin, base);
    const reply = await postReply(admin, base, comment.id);
    await admin.rest('PUT', `${base}/${comment.id}/replies/${reply.id}`, { addedReactions: ['👍'] });
    expect((await admin.rest('DELETE', `${base}/${comment.id}`)).status).toBe(204);
    const rows = await server
      .em()
      .getConnection()
      .execute(
        `select (select count(*) from comment_reply where comment_id = ?) as replies, (select count(*) from comment_reaction where comment_id = ?) as reactions`,
        [comment.id, comment.id],
      );
    expect(Number(rows[0].replies)).toBe(0);
    expect(Number(rows[0].reactions)).toBe(0);
  });
});

describe('ordering, filters and pagination', () => {
  it('lists newest first by default, oldest first with order=asc, and filters by status, page and author', async () => {
    const { admin, organization, space, base } = await spaceWithPage();
    const commenter = await newMember(server, organization.id, 'comment');
    const page = (await spaceWithPageId(admin, space.id))!;
    const a = await postComment(admin, base, 'A');
    server.clock.advance(1000);
    const b = await postComment(commenter, base, { page, body: { markdown: 'B' } });
    server.clock.advance(1000);
    const c = await postComment(admin, base, 'C');
    await admin.rest('PUT', `${base}/${c.id}`, { resolved: true });
    const ids = async (query: string) => (await admin.rest('GET', `${base}${query}`)).body.items.map((x: { id: string }) => x.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?order=asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids('?status=open')).toEqual([b.id, a.id]);
    expect(await ids('?status=resolved')).toEqual([c.id]);
    expect(await ids('?status=all&order=asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids(`?targetPage=${page}`)).toEqual([b.id]);
    expect(await ids(`?authors=${commenter.user.id}`)).toEqual([b.id]);
    const first = await admin.rest('GET', `${base}?limit=2`);
    expect(first.body.items.map((x: { id: string }) => x.id)).toEqual([c.id, b.id]);
    const second = await admin.rest('GET', `${base}?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect(second.body.next).toBeUndefined();
    expectError(await admin.rest('GET', `${base}?order=up`), 400, 'order: must be one of: asc, desc');
    expectError(await admin.rest('GET', `${base}?status=closed`), 400, 'status: must be one of: all, open, resolved');
  });

  it('lists replies oldest first, paginated', async () => {
    const { admin, base } = await spaceWithComments();
    const comment = await postComment(admin, base);
    const replies = [];
    for (const text of ['one', 'two', 'three']) {
      replies.push((await postReply(admin, base, comment.id, text)).id);
      server.clock.advance(1000);
    }
    const first = await admin.rest('GET', `${base}/${comment.id}/replies?limit=2`);
    expect(first.body.items.map((r: { id: string }) => r.id)).toEqual(replies.slice(0, 2));
    const rest = await admin.rest('GET', `${base}/${comment.id}/replies?page=${first.body.next.page}`);
    expect(rest.body.items.map((r: { id: string }) => r.id)).toEqual(replies.slice(2));
  });
});

/** The id of the first top-level page of the space's main content. */
async function spaceWithPageId(caller: { gql: (q: string, v: Record<string, unknown>) => Promise<any> }, spaceId: string): Promise<string | undefined> {
  const res = await caller.gql(`query($id: ID!) { space(id: $id) { content { pages { id } } } }`, { id: spaceId });
  return res.data.space.content.pages[0]?.id;
}

describe('reactions', () => {
  it('counts a user once per emoji, lists who reacted, and removes only what was added', async () => {
    const { admin, organization, base } = await spaceWithComments();
    const other = await newMember(server, organization.id, 'comment');
    const comment = await postComment(admin, base);
    const put = (caller: typeof admin, body: Record<string, unknown>) => caller.rest('PUT', `${base}/${comment.id}`, body);
    const firstReaction = server.clock.now().toISOString();
    await put(admin, { addedReactions: ['👍'] });
    server.clock.advance(1000);
    const twice = await put(admin, { addedReactions: ['👍', '👍'] });
    expect(twice.body.reactions).toEqual([
      { emoji: '👍', count: 1, users: [{ user: expect.objectContaining({ id: admin.user.id }), reactedAt: firstReaction }] },
    ]);
    const both = await put(other, { addedReactions: ['👍', '1f389'] });
    expect(both.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['👍', 2],
      ['🎉', 1],
    ]);
    // Removing a reaction the user never added changes nothing.
    const unchanged = await put(admin, { removedReactions: ['🎉', '🚀'] });
    expect(unchanged.body.reactions).toEqual(both.body.reactions);
    const removed = await put(other, { removedReactions: ['👍'] });
    expect(removed.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['👍', 1],
      ['🎉', 1],
    ]);
    expect(removed.body.reactions[0].users.map((u: { user: { id: string } }) => u.user.id)).toEqual([admin.user.id]);
  });

  it('refuses what is not an emoji naming the field, changing nothing', async () => {
    const { admin, base } = await spaceWithComments();
    const comment = await postComment(admin, base);
    expectError(
      await admin.rest('PUT', `${base}/${comment.id}`, { body: { markdown: 'New' }, addedReactions: ['👍', 'nope'] }),
      400,
      'addedReactions.1: must be a single emoji or its hex code point',
    );
    expectError(await admin.rest('PUT', `${base}/${comment.id}`, { removedReactions: 'x' }), 400, /^removedReactions/);
    const after = await admin.rest('GET', `${base}/${comment.id}`);
    expect(after.body).toMatchObject({ reactions: [], body: { markdown: 'A comment' } });
    expect(after.body.editedAt).toBeUndefined();
  });

  it('keeps exact counts under concurrent reactions and replies', async () => {
    const { admin, organization, base, space } = await spaceWithComments();
    const people = await Promise.all(Array.from({ length: 8 }, () => newMember(server, organization.id, 'comment')));
    const comment = await postComment(admin, base);
    const results = await Promise.all([
      ...people.flatMap((p) => [p, p].map((caller) => caller.rest('PUT', `${base}/${comment.id}`, { addedReactions: ['👍'] }))),
      ...people.map((p) => p.rest('POST', `${base}/${comment.id}/replies`, { body: { markdown: 'me too' } })),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const after = await admin.rest('GET', `${base}/${comment.id}`);
    expect(after.body.reactions).toHaveLength(1);
    expect(after.body.reactions[0].count).toBe(8);
    expect(after.body.replies).toBe(8);
    expect((await admin.rest('GET', `${base}/${comment.id}/replies?limit=100`)).body.count).toBe(8);
    expect(space.id).toBeDefined();
  });
});

describe('resolution and counts', () => {
  it('resolves with resolvedAt and resolvedBy, reopens clearing them, and counts open comments on the space', async () => {
    const { admin, organization, space, base } = await spaceWithComments();
    const commenter = await newMember(server, organization.id, 'comment');
    const a = await postComment(admin, base);
    await postComment(admin, base);
    const count = async () => (await admin.rest('GET', `/v1/spaces/${space.id}`)).body.comments;
    expect(await count()).toBe(2);
    server.clock.advance(5000);
    const resolved = await commenter.rest('PUT', `${base}/${a.id}`, { resolved: true });
    expect(resolved.status).toBe(200);
    expectContract('updateCommentInSpace', resolved);
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedAt: server.clock.now().toISOString(), resolvedBy: { id: commenter.user.id } });
    expect(await count()).toBe(1);
    // Resolving again keeps the first resolution.
    server.clock.advance(5000);
    expect((await admin.rest('PUT', `${base}/${a.id}`, { resolved: true })).body.resolvedBy.id).toBe(commenter.user.id);
    const reopened = await admin.rest('PUT', `${base}/${a.id}`, { resolved: false });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(reopened.body.resolvedBy).toBeUndefined();
    expect(await count()).toBe(2);
    const gql = await admin.gql(`query($id: ID!) { space(id: $id) { comments } }`, { id: space.id });
    expect(gql.data.space.comments).toBe(2);
  });

  it('refuses `resolved` on a reply of a space comment', async () => {
    const { admin, base } = await spaceWithComments();
    const comment = await postComment(admin, base);
    const reply = await postReply(admin, base, comment.id);
    expectError(
      await admin.rest('PUT', `${base}/${comment.id}/replies/${reply.id}`, { resolved: true }),
      400,
      'resolved: only replies in change requests take it; resolve the comment instead',
    );
  });
});

describe('targets', () => {
  it('targets a page and a node of the main content, with the node preview, and tells when the page changed', async () => {
    const { admin, space, base, page } = await spaceWithPage();
    const doc = await admin.gql(`query($id: ID!, $page: ID!) { space(id: $id) { content { page(id: $page) { id } } } }`, { id: space.id, page: page.id });
    expect(doc.data.space.content.page.id).toBe(page.id);
    const cr0 = await openChangeRequest(admin, space.id);
    const pageDoc = await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr0.id}/content/page/${page.id}?format=document`);
    const paragraph = pageDoc.body.document.nodes[1];
    expect(paragraph.key).toMatch(/^[0-9a-f]{16}$/);

    const onPage = await postComment(admin, base, { page: page.id, body: { markdown: 'On the page' } });
    expectContract('postCommentInSpace', { status: 200, body: onPage });
    expect(onPage.target.page).toMatchObject({ id: page.id, title: 'Guide', path: 'guide', outdated: false });
    const onNode = await postComment(admin, base, { node: paragraph.key, body: { markdown: 'On the node' } });
    expect(onNode.target).toMatchObject({ node: { id: paragraph.key, preview: 'Run the installer.' }, page: { id: page.id, outdated: false } });

    // The page changes in the main content: both comments now point at an outdated page.
    await updatePage(admin, space.id, cr0.id, page.id, { markdown: '# Install\n\nRun the new installer.' });
    expect((await merge(admin, space.id, cr0.id)).status).toBe(200);
    const after = await admin.rest('GET', `${base}/${onNode.id}`);
    expectContract('getCommentInSpace', after);
    expect(after.body.target).toMatchObject({
      node: { id: paragraph.key, preview: 'Run the installer.' },
      page: { id: page.id, title: 'Guide', outdated: true },
    });
  });

  it('refuses a page or node that is not in the content, naming the field', async () => {
    const { admin, base, page } = await spaceWithPage();
    expectError(await admin.rest('POST', base, { page: 'nope', body: { markdown: 'x' } }), 400, 'page: no page "nope" in this content');
    expectError(await admin.rest('POST', base, { node: 'nope', body: { markdown: 'x' } }), 400, 'node: no node "nope" in this content');
    expectError(await admin.rest('POST', base, { page: page.id, node: 'nope', body: { markdown: 'x' } }), 400, 'node: no node "nope" in this page');
    expect((await admin.rest('GET', base)).body.count).toBe(0);
  });
});

describe('bad input', () => {
  it('refuses missing, empty and oversized bodies and unknown fields, creating nothing', async () => {
    const { admin, base } = await spaceWithComments();
    expectError(await admin.rest('POST', base, {}), 400, 'body: is required');
    expectError(await admin.rest('POST', base, { body: {} }), 400, 'body.markdown: is required');
    expectError(await admin.rest('POST', base, { body: { markdown: '  ' } }), 400, 'body.markdown: must not be empty');
    expectError(await admin.rest('POST', base, { body: { markdown: 'x' }, color: 'red' }), 400, 'color: unknown field');
    expectError(await admin.rest('POST', base, { body: { markdown: 'x'.repeat(100_001) } }), 413, 'body.markdown: must be at most 100000 characters');
    expect((await admin.rest('GET', base)).body.count).toBe(0);
    const comment = await postComment(admin, base, 'x'.repeat(100_000));
    expectError(await admin.rest('POST', `${base}/${comment.id}/replies`, { body: { markdown: '' } }), 400, 'body.markdown: must not be empty');
    expectError(await admin.rest('PUT', `${base}/${comment.id}`, { resolved: 'yes' }), 400, /^resolved: /);
  });
});

describe('who may do what', () => {
  it('needs a token, hides other organizations, and needs the comment role to post', async () => {
    const { admin, organization, base, space } = await spaceWithComments();
    const comment = await postComment(admin, base);
    const anonymous = await fetch(`${server.url}${base}`);
    expect(anonymous.status).toBe(401);
    const outsider = await newUser(server);
    expectError(await outsider.rest('GET', base), 404, 'Space not found');
    expectError(await outsider.rest('GET', `${base}/${comment.id}`), 404, 'Space not found');
    expectError(await outsider.rest('POST', base, { body: { markdown: 'x' } }), 404, 'Space not found');
    const reader = await newMember(server, organization.id, 'read');
    expect((await reader.rest('GET', base)).status).toBe(200);
    expect((await reader.rest('GET', `${base}/${comment.id}`)).body.permissions).toEqual({
      view: true,
      edit: false,
      reply: false,
      react: false,
      delete: false,
    });
    expectError(await reader.rest('POST', base, { body: { markdown: 'x' } }), 403, 'Space: this operation needs the comment role');
    expectError(await reader.rest('PUT', `${base}/${comment.id}`, { addedReactions: ['👍'] }), 403, 'Space: this operation needs the comment role');
    // A comment of another space is not found through this one.
    const other = await createSpace(admin, organization.id);
    expectError(await admin.rest('GET', `${commentsPath(other.id)}/${comment.id}`), 404, 'Comment not found');
    expect(space.id).not.toBe(other.id);
  });

  it('lets only the author edit a body, the author or a space admin delete, and any commenter resolve', async () => {
    const { admin, organization, base } = await spaceWithComments();
    const author = await newMember(server, organization.id, 'comment');
    const other = await newMember(server, organization.id, 'edit');
    const comment = await postComment(author, base);
    const reply = await postReply(author, base, comment.id);
    expect((await other.rest('GET', `${base}/${comment.id}`)).body.permissions).toEqual({ view: true, edit: false, reply: true, react: true, delete: false });
    expectError(await other.rest('PUT', `${base}/${comment.id}`, { body: { markdown: 'Mine now' } }), 403, 'body: only its author may edit a comment');
    expectError(
      await admin.rest('PUT', `${base}/${comment.id}/replies/${reply.id}`, { body: { markdown: 'Mine now' } }),
      403,
      'body: only its author may edit a reply',
    );
    expect((await author.rest('PUT', `${base}/${comment.id}`, { body: { markdown: 'Fixed' } })).status).toBe(200);
    expect((await other.rest('PUT', `${base}/${comment.id}`, { resolved: true })).body.status).toBe('resolved');
    expectError(await other.rest('DELETE', `${base}/${comment.id}/replies/${reply.id}`), 403, 'Only its author or a space admin may delete a reply');
    expectError(await other.rest('DELETE', `${base}/${comment.id}`), 403, 'Only its author or a space admin may delete a comment');
    expect((await author.rest('DELETE', `${base}/${comment.id}/replies/${reply.id}`)).status).toBe(204);
    expect((await admin.rest('DELETE', `${base}/${comment.id}`)).status).toBe(204);
    const own = await postComment(other, base);
    expect((await other.rest('DELETE', `${base}/${own.id}`)).status).toBe(204);
  });
});

describe('a transferred space', () => {
  it('takes its discussion along to the other organization', async () => {
    const { admin, space, base } = await spaceWithComments();
    const comment = await postComment(admin, base);
    const reply = await postReply(admin, base, comment.id);
    await admin.rest('PUT', `${base}/${comment.id}/replies/${reply.id}`, { addedReactions: ['👍'] });
    const target = await newOrganization(server, admin);
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: target.id })).status).toBe(200);
    const rows = await server
      .em()
      .getConnection()
      .execute(
        `select organization_id from comment where space_id = ? union all select organization_id from comment_reply where space_id = ? union all select organization_id from comment_reaction where space_id = ?`,
        [space.id, space.id, space.id],
      );
    expect((rows as { organization_id: string }[]).map((r) => r.organization_id)).toEqual([target.id, target.id, target.id]);
    expect((await admin.rest('GET', `${base}/${comment.id}`)).body).toMatchObject({ replies: 1 });
  });
});

const DISCUSSION = `query($spaceId: ID!) {
  comments(spaceId: $spaceId, limit: 1000) {
    count
    items {
      id status replies postedBy { id displayName } resolvedBy { id }
      body { markdown }
      reactions { emoji count users { user { id displayName } reactedAt } }
      target { page { id title outdated } }
      permissions { edit delete }
      replyItems { id postedBy { id displayName } body { markdown } reactions { emoji count users { user { id } } } }
    }
  }
}`;

describe('GraphQL', () => {
  it('serves every operation with the same rules', async () => {
    const { admin, space } = await spaceWithComments();
    const posted = await admin.gql(`mutation($s: ID!) { postComment(spaceId: $s, input: { body: { markdown: "Hi" } }) { id status body { markdown } } }`, {
      s: space.id,
    });
    expect(posted.errors).toBeUndefined();
    const id = posted.data.postComment.id;
    const reply = await admin.gql(
      `mutation($s: ID!, $c: ID!) { postCommentReply(spaceId: $s, commentId: $c, input: { body: { markdown: "Yo" } }) { id comment { id } } }`,
      { s: space.id, c: id },
    );
    expect(reply.data.postCommentReply.comment.id).toBe(id);
    const updated = await admin.gql(
      `mutation($s: ID!, $c: ID!) { updateComment(spaceId: $s, commentId: $c, input: { resolved: true, addedReactions: ["👍"] }) { status reactions { emoji count } } }`,
      { s: space.id, c: id },
    );
    expect(updated.data.updateComment).toEqual({ status: 'resolved', reactions: [{ emoji: '👍', count: 1 }] });
    const bad = await admin.gql(`mutation($s: ID!, $c: ID!) { updateComment(spaceId: $s, commentId: $c, input: { addedReactions: ["x"] }) { id } }`, {
      s: space.id,
      c: id,
    });
    expectGqlError(bad, 'BAD_REQUEST', 'addedReactions.0: must be a single emoji or its hex code point');
    const read = await admin.gql(
      `query($s: ID!, $c: ID!, $r: ID!) { comment(spaceId: $s, commentId: $c) { replies } commentReply(spaceId: $s, commentId: $c, commentReplyId: $r) { id } commentReplies(spaceId: $s, commentId: $c) { count } }`,
      { s: space.id, c: id, r: reply.data.postCommentReply.id },
    );
    expect(read.data).toEqual({ comment: { replies: 1 }, commentReply: { id: reply.data.postCommentReply.id }, commentReplies: { count: 1 } });
    const updatedReply = await admin.gql(
      `mutation($s: ID!, $c: ID!, $r: ID!) { updateCommentReply(spaceId: $s, commentId: $c, commentReplyId: $r, input: { body: { markdown: "Yes" } }) { body { markdown } } }`,
      { s: space.id, c: id, r: reply.data.postCommentReply.id },
    );
    expect(updatedReply.data.updateCommentReply.body.markdown).toBe('Yes');
    const deletedReply = await admin.gql(`mutation($s: ID!, $c: ID!, $r: ID!) { deleteCommentReply(spaceId: $s, commentId: $c, commentReplyId: $r) }`, {
      s: space.id,
      c: id,
      r: reply.data.postCommentReply.id,
    });
    expect(deletedReply.data.deleteCommentReply).toBe(true);
    const deleted = await admin.gql(`mutation($s: ID!, $c: ID!) { deleteComment(spaceId: $s, commentId: $c) }`, { s: space.id, c: id });
    expect(deleted.data.deleteComment).toBe(true);
    const none = await admin.gql(`query($s: ID!) { comments(spaceId: $s) { count } }`, { s: space.id });
    expect(none.data.comments.count).toBe(0);
  });

  it('reads a discussion with replies, authors and reactions at a fixed number of statements', async () => {
    const { admin, organization, space, base, page } = await spaceWithPage();
    const people = await Promise.all(Array.from({ length: 3 }, () => newMember(server, organization.id, 'comment')));
    const grow = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const author = people[i % people.length];
        const comment = await postComment(author, base, { page: page.id, body: { markdown: `Comment ${i}` } });
        const reply = await postReply(people[(i + 1) % people.length], base, comment.id);
        await admin.rest('PUT', `${base}/${comment.id}`, { addedReactions: ['👍'] });
        await author.rest('PUT', `${base}/${comment.id}/replies/${reply.id}`, { addedReactions: ['🎉'] });
        server.clock.advance(1000);
      }
    };
    await grow(2);
    let small: any;
    const smallCount = await countStatements(async () => void (small = await admin.gql(DISCUSSION, { spaceId: space.id })));
    expect(small.errors).toBeUndefined();
    await grow(18);
    let large: any;
    const largeCount = await countStatements(async () => void (large = await admin.gql(DISCUSSION, { spaceId: space.id })));
    expect(large.errors).toBeUndefined();
    expect(large.data.comments.count).toBe(20);
    expect(large.data.comments.items[0]).toMatchObject({
      replies: 1,
      reactions: [{ emoji: '👍', count: 1 }],
      replyItems: [{ reactions: [{ emoji: '🎉', count: 1 }] }],
      target: { page: { id: page.id, outdated: false } },
    });
    expect(largeCount).toBe(smallCount);
    console.log(`space discussion: ${smallCount} SQL statements for 2 and for 20 comments with replies, authors and reactions`);
  });
});
