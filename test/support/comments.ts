import { expect } from 'vitest';
import type { Caller } from './factories.js';

/** Helpers for comment tests: the REST paths of a discussion and posting through them. */

/** The comments path of a space, or of one of its change requests. */
export const commentsPath = (spaceId: string, changeRequestId?: string) =>
  changeRequestId ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments` : `/v1/spaces/${spaceId}/comments`;

export async function postComment(caller: Caller, base: string, body: Record<string, unknown> | string = 'A comment') {
  const res = await caller.rest('POST', base, typeof body === 'string' ? { body: { markdown: body } } : body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; [key: string]: any };
}

export async function postReply(caller: Caller, base: string, commentId: string, markdown = 'A reply') {
  const res = await caller.rest('POST', `${base}/${commentId}/replies`, { body: { markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; [key: string]: any };
}
