/**
 * The deep document: an organization's collection tree with the spaces in it, each space's open change
 * requests and each change request's comments, asked of this server's GraphQL schema and of
 * PostGraphile's, which serves the same tables. Five levels of lists: top-level collections → their
 * sub-collections → their spaces (and, beside the sub-collections, the spaces directly in a top-level
 * collection) → open change requests (`Space.changeRequestList`, newest first) → comments
 * (`ChangeRequest.commentList`, newest first), each list with its count, and each space's counts
 * (change requests: all, open, draft; its own open comments).
 * Aliases give PostGraphile's answer this server's field names; `comparableDeep` normalises the rest.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangeRequest } from '../../src/domain/change-requests/index.js';
import { Collection } from '../../src/domain/collections/index.js';
import { Comment } from '../../src/domain/comments/index.js';
import { Revision } from '../../src/domain/content/index.js';
import { Space } from '../../src/domain/spaces/index.js';
import { newId } from '../../src/kernel/ids.js';

/** The fields asked of each space on this server. */
const SPACE_FIELDS = `id title emoji visibility editMode parent createdAt updatedAt changeRequests changeRequestsOpen changeRequestsDraft comments
  changeRequestList(limit: 5) {
    count
    items { id number subject status createdAt updatedAt commentList(limit: 5) { count items { id status postedAt } } }
  }`;

/**
 * This server's query: top-level collections by position (`nested: false`), each collection's
 * sub-collections and spaces by position, counts being the lists' sizes. Page sizes hold the seed's
 * lists whole (but a space's open change requests, five of up to six) and keep the document within the
 * server's cost limit (the values the answer could hold); PostGraphile is asked for the same `first`.
 */
export const DEEP_QUERY = `query DeepTree($id: ID!) {
  organization(id: $id) {
    id title createdAt
    collections(nested: false, limit: 10) {
      count
      items {
        id title description parent
        collections(limit: 5) {
          count
          items {
            id title description parent
            spaces(limit: 5) { count items { ${SPACE_FIELDS} } }
          }
        }
        spaces(limit: 5) { count items { ${SPACE_FIELDS} } }
      }
    }
  }
}`;

/**
 * The same of each space on PostGraphile: counts are connections' `totalCount`, with the conditions
 * that this server's counts hold (`Space.comments`: open comments of the space's own discussion, not of
 * its change requests).
 */
const POSTGRAPHILE_SPACE_FIELDS = `id: rowId title emoji visibility editMode parent: parentId createdAt updatedAt
  changeRequests: changeRequestsBySpaceId { totalCount }
  changeRequestsOpen: changeRequestsBySpaceId(condition: { status: "open" }) { totalCount }
  changeRequestsDraft: changeRequestsBySpaceId(condition: { status: "draft" }) { totalCount }
  comments: commentsBySpaceId(condition: { status: "open", changeRequestId: null }) { totalCount }
  changeRequestList: changeRequestsBySpaceId(first: 5, condition: { status: "open" }, orderBy: [NUMBER_DESC]) {
    count: totalCount
    items: nodes {
      id: rowId number subject status createdAt updatedAt
      commentList: commentsByChangeRequestId(first: 5, orderBy: [POSTED_AT_DESC, ROW_ID_DESC]) { count: totalCount items: nodes { id: rowId status postedAt } }
    }
  }`;

/** Live spaces of a collection by position, as this server lists them (ties broken by id on both). */
const POSTGRAPHILE_SPACES = `spaces: spacesByParentId(first: 5, condition: { deletedAt: null }, orderBy: [POSITION_ASC, ROW_ID_ASC]) {
  count: totalCount items: nodes { ${POSTGRAPHILE_SPACE_FIELDS} }
}`;

/**
 * PostGraphile's query (amber preset: a table's `id` column is `rowId`; relations are named after their
 * foreign keys; `condition` compares with `=`, and a null with `is null`).
 */
export const POSTGRAPHILE_DEEP_QUERY = `query DeepTree($id: String!) {
  organization: organizationByRowId(rowId: $id) {
    id: rowId title createdAt
    collections: collectionsByOrganizationId(first: 10, condition: { parentId: null }, orderBy: [POSITION_ASC, ROW_ID_ASC]) {
      count: totalCount
      items: nodes {
        id: rowId title description parent: parentId
        collections: collectionsByParentId(first: 5, orderBy: [POSITION_ASC, ROW_ID_ASC]) {
          count: totalCount
          items: nodes {
            id: rowId title description parent: parentId
            ${POSTGRAPHILE_SPACES}
          }
        }
        ${POSTGRAPHILE_SPACES}
      }
    }
  }
}`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const COUNT_FIELDS = new Set(['changeRequests', 'changeRequestsOpen', 'changeRequestsDraft', 'comments']);
const DATE_FIELDS = new Set(['createdAt', 'updatedAt', 'postedAt']);

/**
 * Both answers in one shape: PostGraphile's `{ totalCount }` of a space's count fields as the number
 * itself, dates as `Date#toISOString()` (PostgreSQL's text, `…+00:00` with microseconds, against this
 * server's ISO strings in milliseconds), and a missing emoji as '' (`Space.emoji` is non-null here; the
 * column is nullable). Orders are not touched: both sides list by position, then id.
 */
function normalised(value: Json, key?: string): Json {
  if (Array.isArray(value)) return value.map((item) => normalised(item));
  if (key === 'emoji' && value === null) return '';
  if (typeof value === 'string' && key !== undefined && DATE_FIELDS.has(key)) return new Date(value).toISOString();
  if (value === null || typeof value !== 'object') return value;
  if (key !== undefined && COUNT_FIELDS.has(key) && typeof value.totalCount === 'number') return value.totalCount;
  return Object.fromEntries(Object.entries(value).map(([field, child]) => [field, normalised(child, field)]));
}

/** The `organization` field of either answer, normalised (undefined when there is none). */
export function comparableDeep(answer: { data?: { organization?: Json } }): Json | undefined {
  const organization = answer.data?.organization;
  return organization === undefined ? undefined : normalised(organization);
}

/** The deep document's seed: top-level collections, and what each holds. */
export type DeepTreeSize = {
  collections: number;
  /** Sub-collections of each top-level collection. */
  subCollections: number;
  /** Spaces directly in each top-level collection. */
  spacesPerCollection: number;
  /** Spaces in each sub-collection. */
  spacesPerSubCollection: number;
  changeRequestsPerSpace: number;
  commentsPerChangeRequest: number;
  /** Comments of each space's own discussion (on no change request). */
  commentsPerSpace: number;
};

/** 10 top-level collections × (4 spaces + 2 sub-collections × 3 spaces): 30 collections, 100 spaces, 1,000 change requests, 5,500 comments. */
export const DEEP_TREE_SIZE: DeepTreeSize = {
  collections: 10,
  subCollections: 2,
  spacesPerCollection: 4,
  spacesPerSubCollection: 3,
  changeRequestsPerSpace: 10,
  commentsPerChangeRequest: 5,
  commentsPerSpace: 5,
};

export function describeDeepTree(size: DeepTreeSize) {
  const spacesPerTop = size.spacesPerCollection + size.subCollections * size.spacesPerSubCollection;
  const collections = size.collections * (1 + size.subCollections);
  const spaces = size.collections * spacesPerTop;
  const changeRequests = spaces * size.changeRequestsPerSpace;
  const comments = changeRequests * size.commentsPerChangeRequest + spaces * size.commentsPerSpace;
  const n = (value: number) => value.toLocaleString('en-US');
  return `${n(collections)} collections (${size.collections} top-level, ${size.subCollections} sub-collections in each), ${n(spaces)} spaces, ${n(changeRequests)} change requests, ${n(comments)} comments`;
}

/**
 * Change requests' statuses: a space's `r`-th takes the one `r × step` further on (step 1, 2 or 5 by
 * space), so that spaces have different open and draft counts.
 */
const CHANGE_REQUEST_STATUSES = ['open', 'draft', 'merged', 'open', 'archived', 'open', 'merged', 'draft', 'open', 'merged'];

/**
 * Seeds an organization's collection tree (see `DeepTreeSize`), with change requests and comments on
 * every space; flushed one top-level collection at a time, the identity map cleared after each, so
 * that the unit of work stays small. Some spaces have no emoji, some comments are resolved and the
 * change requests' statuses vary, so that the normalisation and the counts' conditions matter.
 */
export async function seedDeepTree(em: EntityManager, organizationId: string, userId: string, size: DeepTreeSize = DEEP_TREE_SIZE, now = new Date()) {
  const key = (i: number) => `a${String(i).padStart(5, '0')}`;
  let spaceCount = 0;
  const collection = (parent: string | null, title: string, position: number) =>
    em.create(Collection, {
      id: newId(),
      organization: organizationId,
      parent,
      title,
      description: position % 2 === 0 ? `About ${title}` : null,
      defaultLevel: 'inherit',
      position: key(position),
      createdAt: now,
      updatedAt: now,
    });

  function space(parent: string, position: number) {
    const n = spaceCount++;
    const spaceId = newId();
    const revision = em.create(Revision, { id: newId(), organization: organizationId, space: spaceId, parents: [], type: 'edits', createdAt: now });
    em.create(Space, {
      id: spaceId,
      organization: organizationId,
      parent,
      title: `Space ${n}`,
      emoji: n % 3 === 0 ? null : '📘',
      visibility: n % 4 === 0 ? 'private' : 'public',
      editMode: n % 5 === 0 ? 'locked' : 'live',
      defaultLevel: 'inherit',
      position: key(position),
      revision: revision.id,
      createdAt: new Date(now.getTime() + n),
      updatedAt: new Date(now.getTime() + n * 1000),
      deletedAt: null,
    });
    const comment = (changeRequest: string | null, c: number) =>
      em.create(Comment, {
        id: newId(),
        organization: organizationId,
        space: spaceId,
        changeRequest,
        postedBy: userId,
        postedAt: now,
        editedAt: null,
        markdown: `Comment ${c}`,
        status: (n + c) % 3 === 0 ? 'resolved' : 'open',
        resolvedAt: (n + c) % 3 === 0 ? now : null,
        resolvedBy: (n + c) % 3 === 0 ? userId : null,
        revision: revision.id,
        page: null,
        pageVersion: null,
        pagePath: null,
        node: null,
        nodePreview: null,
      });
    for (let r = 0; r < size.changeRequestsPerSpace; r++) {
      const changeRequest = em.create(ChangeRequest, {
        id: newId(),
        organization: organizationId,
        space: spaceId,
        number: r + 1,
        status: CHANGE_REQUEST_STATUSES[(n + r * [1, 2, 5][n % 3]) % CHANGE_REQUEST_STATUSES.length],
        subject: `Change ${r + 1}`,
        createdBy: userId,
        contributors: [userId],
        revision: revision.id,
        revisionInitial: revision.id,
        revisionMergedAncestor: null,
        revisionMerged: null,
        createdAt: now,
        updatedAt: now,
      });
      for (let c = 0; c < size.commentsPerChangeRequest; c++) comment(changeRequest.id, c);
    }
    for (let c = 0; c < size.commentsPerSpace; c++) comment(null, c);
  }

  for (let t = 0; t < size.collections; t++) {
    const top = collection(null, `Collection ${t}`, t);
    // A collection's spaces and sub-collections share its positions: spaces first, then the sub-collections.
    for (let s = 0; s < size.spacesPerCollection; s++) space(top.id, s);
    for (let c = 0; c < size.subCollections; c++) {
      const sub = collection(top.id, `Collection ${t}.${c}`, size.spacesPerCollection + c);
      for (let s = 0; s < size.spacesPerSubCollection; s++) space(sub.id, s);
    }
    await em.flush();
    em.clear();
  }
}
