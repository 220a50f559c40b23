import type { Role } from '../../src/kernel/roles.js';
import { newId } from '../../src/kernel/ids.js';
import { addMember, createOrganization } from '../../src/domain/organizations/index.js';
import type { OrganizationRow } from '../../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../../src/domain/users/index.js';
import type { UserRow } from '../../src/domain/users/index.js';
import type { TestServer } from './server.js';

export type Response<T = any> = { status: number; body: T; headers: Headers };

/** A user with an API token, calling both doors of the test server. */
export type Caller = {
  user: UserRow;
  token: string;
  rest<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response<T>>;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ status: number; data: T; errors?: { message: string; extensions?: { code?: string } }[] }>;
};

export async function rest(server: TestServer, token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } };
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(server.url + path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as any, headers: res.headers };
}

export async function gql(server: TestServer, token: string | null, query: string, variables?: Record<string, unknown>) {
  const res = await rest(server, token, 'POST', '/graphql', { query, variables });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors };
}

export function callerFor(server: TestServer, user: UserRow, token: string): Caller {
  return {
    user,
    token,
    rest: (method, path, body, headers) => rest(server, token, method, path, body, headers),
    gql: (query, variables) => gql(server, token, query, variables),
  };
}

/** A new user (unique e-mail) with a fresh token. */
export async function newUser(server: TestServer, overrides: { email?: string; displayName?: string } = {}): Promise<Caller> {
  const em = server.em();
  const user = await createUser(em, server.clock, {
    email: overrides.email ?? `user-${newId().toLowerCase()}@example.com`,
    displayName: overrides.displayName ?? 'Test User',
  });
  const { secret } = await createApiToken(em, server.clock, user.id, 'test');
  return callerFor(server, user, secret);
}

/** A new organization whose admin is `owner`. */
export async function newOrganization(
  server: TestServer,
  owner: Caller,
  overrides: { title?: string; emailDomains?: string[] } = {},
): Promise<OrganizationRow> {
  return createOrganization(server.em(), server.clock, owner.user.id, { title: overrides.title ?? 'Test organization', ...overrides });
}

/** A new user who is a member of `organizationId` with `role` (null: guest). */
export async function newMember(server: TestServer, organizationId: string, role: Role | null): Promise<Caller> {
  const caller = await newUser(server);
  await addMember(server.em(), server.clock, organizationId, caller.user.id, role);
  return caller;
}

/** A new organization of a new owner, in which `member` has `role` as well. */
export async function newOrganizationWithMember(server: TestServer, member: Caller, role: Role) {
  const owner = await newUser(server);
  const organization = await newOrganization(server, owner);
  await addMember(server.em(), server.clock, organization.id, member.user.id, role);
  return { organization, owner };
}

/** An organization with its admin, a member of each role, a guest and an outsider. */
export async function newOrganizationWithRoles(server: TestServer) {
  const admin = await newUser(server);
  const organization = await newOrganization(server, admin);
  const [create, edit, read, guest, outsider] = await Promise.all([
    newMember(server, organization.id, 'create'),
    newMember(server, organization.id, 'edit'),
    newMember(server, organization.id, 'read'),
    newMember(server, organization.id, null),
    newUser(server),
  ]);
  return { organization, admin, create, edit, read, guest, outsider };
}

export type OrganizationWithRoles = Awaited<ReturnType<typeof newOrganizationWithRoles>>;
