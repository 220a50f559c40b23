import { describe, expect, it } from 'vitest';
import { commentsPath, postComment } from './support/comments.js';
import { createCollection, createSpace, openChangeRequest } from './support/content.js';
import { expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { countStatements } from './support/sql.js';

const server = useTestServer();

/*
 * A space's change requests and a change request's comments, nested (`Space.changeRequestList`,
 * `ChangeRequest.commentList`): the root lists `changeRequests(spaceId)` and `comments(spaceId,
 * changeRequestId)` as fields, so that a tree of collections, spaces, change requests and comments
 * reads each level in one statement.
 */

const TREE = `query($id: ID!, $status: ChangeRequestStatus, $limit: Int, $page: String) {
  collection(id: $id) {
    spaces {
      count
      items {
        id
        changeRequestList(status: $status, limit: $limit, page: $page) {
          count
          next { page }
          items { number subject status commentList(limit: 2) { count next { page } items { id status } } }
        }
      }
    }
  }
}`;

type CommentPage = { count: number; next: { page: string } | null; items: { id: string; status: string }[] };
type ChangeRequestPage = {
  count: number;
  next: { page: string } | null;
  items: { number: number; subject: string; status: string; commentList: CommentPage }[];
};
type Tree = { collection: { spaces: { count: number; items: { id: string; changeRequestList: ChangeRequestPage }[] } } };

/** A collection of `spaces` spaces, each with `changeRequests` open change requests of `comments` comments each. */
async function seed(admin: Caller, organizationId: string, spaces: number, changeRequests: number, comments: number) {
  const collection = await createCollection(admin, organizationId, { title: 'Tree' });
  const made: { id: string; changeRequests: { id: string; number: number; comments: string[] }[] }[] = [];
  for (let s = 0; s < spaces; s++) {
    const space = await createSpace(admin, organizationId, { title: `Space ${s}`, parent: collection.id });
    const requests = [];
    for (let c = 0; c < changeRequests; c++) {
      const request = await openChangeRequest(admin, space.id, `Change ${c}`);
      const posted = [];
      for (let n = 0; n < comments; n++) posted.push((await postComment(admin, commentsPath(space.id, request.id), `Comment ${n}`)).id);
      requests.push({ id: request.id, number: request.number, comments: posted });
    }
    made.push({ id: space.id, changeRequests: requests });
  }
  return { collection, spaces: made };
}

describe('nested lists of change requests and comments', () => {
  it('page each space’s change requests newest first and each change request’s comments newest first, with counts and cursors', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const { collection, spaces } = await seed(admin, organization.id, 2, 3, 3);
    const res = await admin.gql(TREE, { id: collection.id, limit: 2 });
    expect(res.errors).toBeUndefined();
    const tree = (res.data as Tree).collection.spaces;
    expect(tree.count).toBe(2);
    for (const [i, space] of tree.items.entries()) {
      const list = space.changeRequestList;
      const made = spaces.find((s) => s.id === space.id)!;
      expect(made).toBeDefined();
      expect(list.count).toBe(3);
      expect(list.items.map((c) => c.number)).toEqual([made.changeRequests[2].number, made.changeRequests[1].number]);
      expect(list.next).not.toBeNull();
      for (const item of list.items) {
        const request = made.changeRequests.find((c) => c.number === item.number)!;
        // The same page as the root list of the change request's comments (posted in one instant here: by id then).
        const root = await admin.gql(
          `query($s: ID!, $c: ID) { comments(spaceId: $s, changeRequestId: $c, limit: 2) { count next { page } items { id status } } }`,
          { s: space.id, c: request.id },
        );
        expect(root.errors).toBeUndefined();
        expect(item.commentList).toEqual((root.data as { comments: CommentPage }).comments);
        expect(item.commentList.count).toBe(3);
        expect(item.commentList.items.every((c) => request.comments.includes(c.id))).toBe(true);
        expect(item.commentList.next).not.toBeNull();
      }
      // The next page of this space's list: its last change request.
      const next = await admin.gql(TREE, { id: collection.id, limit: 2, page: list.next!.page });
      expect(next.errors).toBeUndefined();
      const nextList = (next.data as Tree).collection.spaces.items[i].changeRequestList;
      expect(nextList.items.map((c) => c.number)).toEqual([made.changeRequests[0].number]);
      expect(nextList.next).toBeNull();
    }
    // Another status: none are drafts.
    const drafts = await admin.gql(TREE, { id: collection.id, status: 'draft' });
    expect(drafts.errors).toBeUndefined();
    expect((drafts.data as Tree).collection.spaces.items.map((s) => s.changeRequestList)).toEqual([
      { count: 0, next: null, items: [] },
      { count: 0, next: null, items: [] },
    ]);
  });

  it('read each level in one statement, whatever the number of spaces, change requests and comments', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const small = await seed(admin, organization.id, 1, 1, 1);
    const large = await seed(admin, organization.id, 4, 3, 2);
    const smallCount = await countStatements(() => admin.gql(TREE, { id: small.collection.id }));
    const largeCount = await countStatements(() => admin.gql(TREE, { id: large.collection.id }));
    expect(largeCount).toBe(smallCount);
  });

  it('follow what each viewer may read, and refuse bad page arguments', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const { collection } = await seed(admin, organization.id, 1, 1, 1);
    const asReader = await read.gql(TREE, { id: collection.id });
    expect(asReader.errors).toBeUndefined();
    expect((asReader.data as Tree).collection.spaces.items[0].changeRequestList.count).toBe(1);
    // An outsider sees neither the collection nor anything in it.
    const outsider = await newUser(server);
    expectGqlError(await outsider.gql(TREE, { id: collection.id }), 'NOT_FOUND');
    expectGqlError(await admin.gql(TREE, { id: collection.id, limit: 0 }), 'BAD_REQUEST');
    expectGqlError(await admin.gql(TREE, { id: collection.id, page: 'not-a-cursor' }), 'BAD_REQUEST');
    expectGqlError(await admin.gql(TREE, { id: collection.id, status: 'nonsense' }), 'BAD_REQUEST');
  });
});
