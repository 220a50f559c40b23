import { expect } from 'vitest';
import { newOrganizationWithRoles, type Caller } from './factories.js';
import type { TestServer } from './server.js';

/** Helpers for content tests: spaces, collections, change requests and edits through the public doors. */

/** A new space of the organization: `details` is its title or the whole request body (omitted: the server's defaults). */
export async function createSpace(
  caller: Caller,
  organizationId: string,
  details: string | Record<string, unknown> = {},
): Promise<{ id: string; title: string; revision: string; [key: string]: any }> {
  const res = await caller.rest('POST', `/v1/orgs/${organizationId}/spaces`, typeof details === 'string' ? { title: details } : details);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A new collection of the organization (`body` omitted: the server's defaults). */
/** A new organization with a member of each role (see newOrganizationWithRoles) and a space its admin created. */
export async function newOrganizationWithSpace(server: TestServer) {
  const organization = await newOrganizationWithRoles(server);
  return { ...organization, space: await createSpace(organization.admin, organization.organization.id) };
}

export async function createCollection(
  caller: Caller,
  organizationId: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; title: string; [key: string]: any }> {
  const res = await caller.rest('POST', `/v1/orgs/${organizationId}/collections`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function openChangeRequest(caller: Caller, spaceId: string, subject = 'Edits') {
  const res = await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { subject });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; number: number; revision: string };
}

const EDIT = 'revision { id parents } page { id title slug path }';

/** Runs a content mutation and returns its ContentEdit (failing the test on errors). */
export async function editOk(caller: Caller, mutation: string, args: string, variables: Record<string, unknown>) {
  const res = await caller.gql(
    `mutation($spaceId: ID!, $changeRequestId: ID!, $pageId: ID, $input: JSON) { x: ${mutation}(spaceId: $spaceId, changeRequestId: $changeRequestId${args}) { ${EDIT} } }`.replace(
      '$pageId: ID, $input: JSON',
      inputTypes(mutation),
    ),
    variables,
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data.x as { revision: { id: string; parents: string[] }; page: { id: string; title: string; slug: string; path: string } | null };
}

function inputTypes(mutation: string): string {
  switch (mutation) {
    case 'createPage':
      return '$input: CreatePageInput!';
    case 'updatePage':
      return '$pageId: ID!, $input: UpdatePageInput!';
    case 'movePage':
      return '$pageId: ID!, $input: MovePageInput!';
    case 'deletePage':
      return '$pageId: ID!';
    default:
      throw new Error(mutation);
  }
}

export const createPage = (caller: Caller, spaceId: string, changeRequestId: string, input: Record<string, unknown>) =>
  editOk(caller, 'createPage', ', input: $input', { spaceId, changeRequestId, input });
export const updatePage = (caller: Caller, spaceId: string, changeRequestId: string, pageId: string, input: Record<string, unknown>) =>
  editOk(caller, 'updatePage', ', pageId: $pageId, input: $input', { spaceId, changeRequestId, pageId, input });
export const movePage = (caller: Caller, spaceId: string, changeRequestId: string, pageId: string, input: Record<string, unknown>) =>
  editOk(caller, 'movePage', ', pageId: $pageId, input: $input', { spaceId, changeRequestId, pageId, input });
export const deletePage = (caller: Caller, spaceId: string, changeRequestId: string, pageId: string) =>
  editOk(caller, 'deletePage', ', pageId: $pageId', { spaceId, changeRequestId, pageId });

export async function merge(caller: Caller, spaceId: string, changeRequestId: string | number) {
  return caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`);
}

/** The titles of a REST page tree, nested as [title, children] pairs. */
export function outline(pages: { title: string; pages?: unknown[] }[]): unknown[] {
  return pages.map((p) => (p.pages && p.pages.length ? [p.title, outline(p.pages as never)] : p.title));
}

export async function mainPages(caller: Caller, spaceId: string) {
  const res = await caller.gql(`query($id: ID!) { space(id: $id) { content { pages { title pages { title pages { title } } } } } }`, { id: spaceId });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return outline(res.data.space.content.pages);
}
