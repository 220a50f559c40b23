import type { Route } from '../../kernel/rest-route.js';
import { MEMBER } from '../members/index.js';
import { COMMENT, COMMENT_REPLY } from './fragments.js';

type OperationIds = Record<'list' | 'post' | 'get' | 'update' | 'delete', string>;

/**
 * The ten comment operations of a discussion, for a space's own comments (§4.3) and, with the same
 * documents plus `$changeRequestId`, for a change request's (§4.5).
 */
function discussionRoutes(base: string, ids: OperationIds & { replies: OperationIds }, inChangeRequest: boolean): Route[] {
  const params = `$spaceId: ID!${inChangeRequest ? ', $changeRequestId: ID!' : ''}`;
  const args = `spaceId: $spaceId${inChangeRequest ? ', changeRequestId: $changeRequestId' : ''}`;
  const comment = `${base}/{commentId}`;
  const reply = `${comment}/replies/{commentReplyId}`;
  const format = '$format: PageFormat';
  return [
    {
      operationId: ids.list,
      method: 'GET',
      path: base,
      status: 200,
      document: `query(${params}, $order: String, $status: String, $targetPage: ID, $authors: [ID!], $page: String, $limit: Int, ${format}) {
        comments(${args}, order: $order, status: $status, targetPage: $targetPage, authors: $authors, page: $page, limit: $limit) {
          items { ...CommentFields } count next { page }
        }
      } ${COMMENT}`,
    },
    {
      operationId: ids.post,
      method: 'POST',
      path: base,
      status: 200,
      body: 'input',
      document: `mutation(${params}, $input: PostCommentInput!, ${format}) { postComment(${args}, input: $input) { ...CommentFields } } ${COMMENT}`,
    },
    {
      operationId: ids.get,
      method: 'GET',
      path: comment,
      status: 200,
      document: `query(${params}, $commentId: ID!, ${format}) { comment(${args}, commentId: $commentId) { ...CommentFields } } ${COMMENT}`,
    },
    {
      operationId: ids.update,
      method: 'PUT',
      path: comment,
      status: 200,
      body: 'input',
      document: `mutation(${params}, $commentId: ID!, $input: UpdateCommentInput!, $ifMatch: String, ${format}) {
        updateComment(${args}, commentId: $commentId, input: $input, ifMatch: $ifMatch) { ...CommentFields }
      } ${COMMENT}`,
    },
    {
      operationId: ids.delete,
      method: 'DELETE',
      path: comment,
      status: 204,
      document: `mutation(${params}, $commentId: ID!, $ifMatch: String) { deleteComment(${args}, commentId: $commentId, ifMatch: $ifMatch) }`,
    },
    {
      operationId: ids.replies.list,
      method: 'GET',
      path: `${comment}/replies`,
      status: 200,
      document: `query(${params}, $commentId: ID!, $page: String, $limit: Int, ${format}) {
        commentReplies(${args}, commentId: $commentId, page: $page, limit: $limit) { items { ...CommentReplyFields } count next { page } }
      } ${COMMENT_REPLY}`,
    },
    {
      operationId: ids.replies.post,
      method: 'POST',
      path: `${comment}/replies`,
      status: 200,
      body: 'input',
      document: `mutation(${params}, $commentId: ID!, $input: PostCommentReplyInput!, ${format}) {
        postCommentReply(${args}, commentId: $commentId, input: $input) { ...CommentReplyFields }
      } ${COMMENT_REPLY}`,
    },
    {
      operationId: ids.replies.get,
      method: 'GET',
      path: reply,
      status: 200,
      document: `query(${params}, $commentId: ID!, $commentReplyId: ID!, ${format}) {
        commentReply(${args}, commentId: $commentId, commentReplyId: $commentReplyId) { ...CommentReplyFields }
      } ${COMMENT_REPLY}`,
    },
    {
      operationId: ids.replies.update,
      method: 'PUT',
      path: reply,
      status: 200,
      body: 'input',
      document: `mutation(${params}, $commentId: ID!, $commentReplyId: ID!, $input: UpdateCommentInput!, $ifMatch: String, ${format}) {
        updateCommentReply(${args}, commentId: $commentId, commentReplyId: $commentReplyId, input: $input, ifMatch: $ifMatch) { ...CommentReplyFields }
      } ${COMMENT_REPLY}`,
    },
    {
      operationId: ids.replies.delete,
      method: 'DELETE',
      path: reply,
      status: 204,
      document: `mutation(${params}, $commentId: ID!, $commentReplyId: ID!, $ifMatch: String) {
        deleteCommentReply(${args}, commentId: $commentId, commentReplyId: $commentReplyId, ifMatch: $ifMatch)
      }`,
    },
  ];
}

export const commentRoutes: Route[] = [
  ...discussionRoutes(
    '/v1/spaces/{spaceId}/comments',
    {
      list: 'listCommentsInSpace',
      post: 'postCommentInSpace',
      get: 'getCommentInSpace',
      update: 'updateCommentInSpace',
      delete: 'deleteCommentInSpace',
      replies: {
        list: 'listCommentRepliesInSpace',
        post: 'postCommentReplyInSpace',
        get: 'getCommentReplyInSpace',
        update: 'updateCommentReplyInSpace',
        delete: 'deleteCommentReplyInSpace',
      },
    },
    false,
  ),
  ...discussionRoutes(
    '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
    {
      list: 'listCommentsInChangeRequest',
      post: 'postCommentInChangeRequest',
      get: 'getCommentInChangeRequest',
      update: 'updateCommentInChangeRequest',
      delete: 'deleteCommentInChangeRequest',
      replies: {
        list: 'listCommentRepliesInChangeRequest',
        post: 'postCommentReplyInChangeRequest',
        get: 'getCommentReplyInChangeRequest',
        update: 'updateCommentReplyInChangeRequest',
        delete: 'deleteCommentReplyInChangeRequest',
      },
    },
    true,
  ),
  // The authors of a discussion's comments (0.202.0), as members of the organization.
  ...[
    { operationId: 'listCommentersInSpace', path: '/v1/spaces/{spaceId}/commenters', inChangeRequest: false },
    { operationId: 'listCommentersInChangeRequest', path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters', inChangeRequest: true },
  ].map(({ operationId, path, inChangeRequest }): Route => ({
    operationId,
    method: 'GET',
    path,
    status: 200,
    document: `query($spaceId: ID!${inChangeRequest ? ', $changeRequestId: ID!' : ''}, $page: String, $limit: Int) {
        commenters(spaceId: $spaceId${inChangeRequest ? ', changeRequestId: $changeRequestId' : ''}, page: $page, limit: $limit) {
          items { ...MemberFields sites } count next { page }
        }
      } ${MEMBER}`,
  })),
];
