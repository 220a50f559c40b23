/**
 * Scoped, expiring API tokens (issue 36, part 3): a token limited to one organization, capped at a
 * highest role, given an expiry. The cap is the policy's: both doors, subscriptions and webhooks
 * management obey it; a `read` token is refused every mutation of the permission table and changes
 * nothing while the same user's full token writes.
 */
import { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, isCompositeType, type GraphQLInputType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { areas } from '../src/areas.js';
import { buildSchema } from '../src/graphql/schema.js';
import { commentsPath, postComment } from './support/comments.js';
import { createSpace } from './support/content.js';
import { callerFor, newMember, newOrganization, newUser, rest, type Caller } from './support/factories.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { useTestServer } from './support/server.js';
import { databaseDigest } from './support/sql.js';
import { subscribe, wsClient } from './support/subscriptions.js';

const server = useTestServer();

const CREATE_TOKEN = `mutation($label: String!, $scope: ApiTokenScopeInput) {
  createApiToken(label: $label, scope: $scope) { id label token organization role expiresAt }
}`;
const LIST_TOKENS = 'query { apiTokens { id label organization role expiresAt expired lastUsedAt } }';

type TokenInfo = {
  id: string;
  label: string;
  organization: string | null;
  role: string | null;
  expiresAt: string | null;
  expired: boolean;
  lastUsedAt: string | null;
};
type Listed = { items: { id: string; permissions: Record<string, boolean> }[] };

/** The caller's user's tokens, as `apiTokens` lists them. */
const tokensOf = async (caller: Caller) => (await caller.gql<{ apiTokens: TokenInfo[] }>(LIST_TOKENS)).data.apiTokens;
const tokenOf = async (caller: Caller, id: string) => (await tokensOf(caller)).find((token) => token.id === id);
const REVOKE = 'mutation($id: ID!) { revokeApiToken(id: $id) }';

/** A token of `caller`'s user made by `caller` with `scope`, as a caller of its own. */
async function scopedToken(caller: Caller, scope: Record<string, unknown>, label = 'scoped'): Promise<Caller & { id: string }> {
  const res = await caller.gql<{ createApiToken: { id: string; token: string } }>(CREATE_TOKEN, { label, scope });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return { ...callerFor(server, caller.user, res.data.createApiToken.token), id: res.data.createApiToken.id };
}

type World = { admin: Caller; organizationId: string; otherOrganizationId: string; spaceId: string; otherSpaceId: string; collectionId: string };
let world: World;

beforeAll(async () => {
  const admin = await newUser(server);
  const organization = await newOrganization(server, admin, { title: 'Scoped org' });
  const other = await newOrganization(server, admin, { title: 'Other org' });
  const space = await createSpace(admin, organization.id, { title: 'Handbook' });
  const otherSpace = await createSpace(admin, other.id, { title: 'Elsewhere' });
  const collection = await admin.rest<{ id: string }>('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Guides' });
  expect(collection.status).toBe(201);
  world = {
    admin,
    organizationId: organization.id,
    otherOrganizationId: other.id,
    spaceId: space.id,
    otherSpaceId: otherSpace.id,
    collectionId: collection.body.id,
  };
});

/** A value of `type` that GraphQL accepts: real ids where the argument names a known kind, placeholders elsewhere. */
function sampleValue(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return sampleValue(type.ofType, name);
  if (isListType(type)) return [sampleValue(type.ofType, name)];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((field) => isNonNullType(field.type));
    return Object.fromEntries(fields.map((field) => [field.name, sampleValue(field.type, field.name)]));
  }
  if (isScalarType(type)) {
    const lower = name.toLowerCase();
    switch (type.name) {
      case 'Int':
        return 1;
      case 'Float':
        return 1;
      case 'Boolean':
        return true;
      case 'DateTime':
        return '2030-01-01T00:00:00.000Z';
      case 'JSON':
        return {};
      case 'ID':
      case 'String':
        if (lower.includes('organization') || lower === 'owner') return world.organizationId;
        if (lower.includes('space')) return world.spaceId;
        if (lower.includes('collection') || lower === 'parent') return world.collectionId;
        if (lower.includes('user')) return world.admin.user.id;
        return 'sample';
      default:
        return [];
    }
  }
  return null;
}

/** Every mutation of the schema, with variables of the right types and a selection its type takes. */
function everyMutation() {
  const schema = buildSchema(areas);
  return Object.values(schema.getMutationType()!.getFields()).map((field) => {
    const args = field.args;
    const declared = args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
    const passed = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const selection = isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '';
    const query = `mutation${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
    const variables = () => Object.fromEntries(args.filter((arg) => isNonNullType(arg.type)).map((arg) => [arg.name, sampleValue(arg.type, arg.name)]));
    return { name: field.name, query, variables };
  });
}

describe('a token capped at read', () => {
  it('is refused every mutation of the permission table (403) and changes nothing, while the full token of the same admin writes', async () => {
    const reader = await scopedToken(world.admin, { role: 'read' });
    // Its first use records it (lastUsedAt); the clock stands still afterwards, so nothing else may change.
    expect((await reader.rest('GET', `/v1/orgs/${world.organizationId}`)).status).toBe(200);
    const mutations = everyMutation();
    expect(mutations.length).toBeGreaterThan(100);
    const before = await databaseDigest(server.em());
    const answers: Record<string, string> = {};
    for (const mutation of mutations) {
      const res = await reader.gql(mutation.query, mutation.variables());
      const error = res.errors?.[0];
      answers[mutation.name] = `${error?.extensions?.code ?? 'OK'} ${error?.message ?? ''}`;
    }
    expect(Object.entries(answers).filter(([, answer]) => !/^FORBIDDEN .*capped at the read role: it cannot change anything$/.test(answer))).toEqual([]);
    expect(await databaseDigest(server.em())).toEqual(before);

    // The same user's full token writes (a sample).
    const renamed = await world.admin.rest('PATCH', `/v1/orgs/${world.organizationId}/collections/${world.collectionId}`, { title: 'Guides (new)' });
    expect([200, 404]).toContain(renamed.status);
    const space = await world.admin.rest('POST', `/v1/orgs/${world.organizationId}/spaces`, { title: 'Written with the full token' });
    expect(space.status).toBe(201);
    const token = await world.admin.gql(CREATE_TOKEN, { label: 'full' });
    expect(token.errors).toBeUndefined();
  });

  it('is refused writes on the REST door too, with the error shape, and reads as before', async () => {
    const reader = await scopedToken(world.admin, { role: 'read' });
    expect((await reader.rest('GET', '/v1/orgs')).status).toBe(200); // its first use, recorded
    const before = await databaseDigest(server.em());
    const create = await reader.rest('POST', `/v1/orgs/${world.organizationId}/spaces`, { title: 'No' });
    expectError(create, 403, /capped at the read role/);
    expectError(await reader.rest('DELETE', `/v1/spaces/${world.spaceId}`), 403);
    expectError(await reader.rest('PATCH', `/v1/spaces/${world.spaceId}`, { title: 'No' }), 403);
    expectError(await reader.rest('POST', `/v1/orgs/${world.organizationId}/webhooks`, { url: 'https://hooks.example.com/a', eventTypes: ['*'] }), 403);
    expect(await databaseDigest(server.em())).toEqual(before);

    // Reads: what the admin sees, with the permissions of a reader.
    const spaces = await reader.rest<Listed>('GET', `/v1/orgs/${world.organizationId}/spaces`);
    expect(spaces.status).toBe(200);
    expect(spaces.body.items.map((s) => s.id)).toContain(world.spaceId);
    const one = await reader.rest<Listed['items'][number]>('GET', `/v1/spaces/${world.spaceId}`);
    expect(one.status).toBe(200);
    expect(one.body.permissions).toMatchObject({ view: true, edit: false, admin: false, comment: false });
    const listed = spaces.body.items.find((s) => s.id === world.spaceId);
    expect(listed?.permissions).toMatchObject({ view: true, edit: false, admin: false });
    const viaGraphql = await reader.gql<{ organization: { permissions: Record<string, boolean> } }>(
      'query($id: ID!) { organization(id: $id) { permissions { view admin createContent } } }',
      { id: world.organizationId },
    );
    expect(viaGraphql.data.organization.permissions).toEqual({ view: true, admin: false, createContent: false });
    // Webhooks of the organization are its admins' to read: not a read token's.
    expectError(await reader.rest('GET', `/v1/orgs/${world.organizationId}/webhooks`), 403);
  });

  it('cannot mint itself a token, nor revoke one', async () => {
    const reader = await scopedToken(world.admin, { role: 'read' });
    expectGqlError(await reader.gql(CREATE_TOKEN, { label: 'escape' }), 'FORBIDDEN');
    expectGqlError(await reader.gql(CREATE_TOKEN, { label: 'escape', scope: { role: 'read' } }), 'FORBIDDEN');
    expectGqlError(await reader.gql(REVOKE, { id: reader.id }), 'FORBIDDEN');
  });
});

describe('a token capped between read and admin', () => {
  it('acts with the weaker of its cap and its user role, through the policy (guards and permissions)', async () => {
    const editor = await scopedToken(world.admin, { role: 'edit' });
    const space = await editor.rest<Listed['items'][number]>('GET', `/v1/spaces/${world.spaceId}`);
    expect(space.body.permissions).toMatchObject({ view: true, comment: true, edit: true, merge: false, admin: false });
    // admin operations: refused although the user is the organization's admin
    expectError(await editor.rest('DELETE', `/v1/spaces/${world.spaceId}`), 403);
    expectError(await editor.rest('POST', `/v1/orgs/${world.organizationId}/webhooks`, { url: 'https://hooks.example.com/a', eventTypes: ['*'] }), 403);
    expectError(await editor.rest('PATCH', `/v1/spaces/${world.spaceId}`, { title: 'No' }), 403);
    // what the cap allows goes through
    await postComment(editor, commentsPath(world.spaceId), 'Within the cap');
    // A cap never adds: a reader's `admin` token is still a reader.
    const member = await newMember(server, world.organizationId, 'read');
    const memberAdminToken = await scopedToken(member, { role: 'admin' });
    expectError(await memberAdminToken.rest('POST', commentsPath(world.spaceId), { body: { markdown: 'No' } }), 403);
  });

  it('makes only tokens within its own scope, and may not change the account', async () => {
    const editor = await scopedToken(world.admin, { role: 'edit' });
    expectGqlError(await editor.gql(CREATE_TOKEN, { label: 'wider' }), 'FORBIDDEN', /within its own scope/);
    expectGqlError(await editor.gql(CREATE_TOKEN, { label: 'wider', scope: { role: 'review' } }), 'FORBIDDEN');
    const narrower = await scopedToken(editor, { role: 'comment' }, 'narrower');
    expect(await tokenOf(editor, narrower.id)).toMatchObject({ role: 'comment' });
    // Revokes what is within its scope, not the full token.
    expect((await editor.gql<{ revokeApiToken: boolean }>(REVOKE, { id: narrower.id })).data.revokeApiToken).toBe(true);
    const fullToken = (await tokensOf(world.admin)).find((t) => t.label === 'test' && t.role === null);
    expectGqlError(await editor.gql(REVOKE, { id: fullToken!.id }), 'FORBIDDEN');
    expectError(await editor.rest('PATCH', `/v1/users/${world.admin.user.id}`, { displayName: 'Renamed' }), 403);
    expectGqlError(await editor.gql('mutation { createOrganization(input: { title: "New" }) { id } }'), 'FORBIDDEN');
  });
});

describe('a token limited to one organization', () => {
  it('sees nothing of the others, on both doors and in lists', async () => {
    const limited = await scopedToken(world.admin, { organization: world.organizationId });
    const organizations = await limited.rest<Listed>('GET', '/v1/orgs');
    expect(organizations.status).toBe(200);
    expect(organizations.body.items.map((o) => o.id)).toEqual([world.organizationId]);
    expectError(await limited.rest('GET', `/v1/orgs/${world.otherOrganizationId}`), 404);
    expectError(await limited.rest('GET', `/v1/spaces/${world.otherSpaceId}`), 404);
    expectError(await limited.rest('GET', `/v1/orgs/${world.otherOrganizationId}/spaces`), 404);
    expectError(await limited.rest('PATCH', `/v1/spaces/${world.otherSpaceId}`, { title: 'No' }), 404);
    const viaGraphql = await limited.gql('query($id: ID!) { space(id: $id) { id } }', { id: world.otherSpaceId });
    expectGqlError(viaGraphql, 'NOT_FOUND');
    const list = await limited.gql<{ organizations: Listed }>('query { organizations { items { id } } }');
    expect(list.data.organizations.items).toEqual([{ id: world.organizationId }]);
    // Its own organization, in full (an admin's token).
    expect((await limited.rest('GET', `/v1/spaces/${world.spaceId}`)).status).toBe(200);
    expect((await limited.rest('POST', `/v1/orgs/${world.organizationId}/spaces`, { title: 'Inside' })).status).toBe(201);
    // The full token of the same user still sees both.
    expect((await world.admin.rest<Listed>('GET', '/v1/orgs')).body.items).toHaveLength(2);
  });

  it('has no instance-administrator power, which the full token keeps', async () => {
    const owner = await newUser(server);
    await server.em().getConnection().execute(`update app_user set instance_admin = true where id = ?`, [owner.user.id]);
    const organization = await newOrganization(server, owner);
    const limited = await scopedToken(owner, { organization: organization.id });
    const capped = await scopedToken(owner, { role: 'review' });
    const createUser = 'mutation($email: String!) { adminCreateUser(input: { email: $email, displayName: "X" }) { id } }';
    expectGqlError(await limited.gql(createUser, { email: 'limited@example.com' }), 'FORBIDDEN', /not limited/);
    expectGqlError(await capped.gql(createUser, { email: 'capped@example.com' }), 'FORBIDDEN');
    expect((await owner.gql(createUser, { email: 'full@example.com' })).errors).toBeUndefined();
  });
});

describe('subscriptions obey the cap', () => {
  it('refuses an admin-only stream to a capped admin token and one of another organization to a limited token', async () => {
    const reader = await scopedToken(world.admin, { role: 'read' });
    const limited = await scopedToken(world.admin, { organization: world.organizationId });
    const events = 'subscription($organizationId: ID!) { organizationEvents(organizationId: $organizationId) { id type } }';
    const comments = 'subscription($spaceId: ID!) { spaceComments(spaceId: $spaceId) { id type } }';
    for (const [token, query, variables, code] of [
      [reader.token, events, { organizationId: world.organizationId }, 'FORBIDDEN'],
      [limited.token, comments, { spaceId: world.otherSpaceId }, 'NOT_FOUND'],
    ] as const) {
      const client = wsClient(server, token);
      try {
        const stream = await subscribe(server, client, query, variables);
        expect(stream.refused?.errors?.[0]?.extensions?.code).toBe(code);
      } finally {
        await client.dispose();
      }
    }
    // What the cap allows: a read token follows a space's comments.
    const client = wsClient(server, reader.token);
    try {
      const stream = await subscribe(server, client, comments, { spaceId: world.spaceId });
      expect(stream.refused).toBeUndefined();
      await stream.stop();
    } finally {
      await client.dispose();
    }
  });
});

describe('expiry and last use', () => {
  it('an expired token answers 401 saying so, on both doors', async () => {
    const shortLived = await scopedToken(world.admin, { expiresIn: 60 });
    expect((await shortLived.rest('GET', '/v1/orgs')).status).toBe(200);
    server.clock.advance(60_000);
    const res = await shortLived.rest('GET', '/v1/orgs');
    expectError(res, 401, /API token expired at /);
    const viaGraphql = await shortLived.gql('query { viewer { id } }');
    expect(viaGraphql.status).toBe(401);
    expect(JSON.stringify(viaGraphql.errors)).toMatch(/expired/);
    // It is listed as expired until revoked.
    expect(await tokenOf(world.admin, shortLived.id)).toMatchObject({ expired: true });
  });

  it('records the last use at most once a minute, whatever the number of concurrent requests', async () => {
    const token = await scopedToken(world.admin, { role: 'comment', expiresAt: new Date(server.clock.now().getTime() + 3_600_000).toISOString() });
    const lastUse = async () => (await tokenOf(world.admin, token.id))!;
    expect(await lastUse()).toMatchObject({ lastUsedAt: null, role: 'comment', expired: false, organization: null });
    const firstUse = server.clock.now().toISOString();
    const answers = await Promise.all(Array.from({ length: 10 }, () => rest(server, token.token, 'GET', `/v1/orgs/${world.organizationId}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect((await lastUse()).lastUsedAt).toBe(firstUse);
    server.clock.advance(30_000);
    await token.rest('GET', '/v1/orgs');
    expect((await lastUse()).lastUsedAt).toBe(firstUse);
    server.clock.advance(31_000);
    await token.rest('GET', '/v1/orgs');
    expect((await lastUse()).lastUsedAt).toBe(server.clock.now().toISOString());
  });
});

describe('bad input', () => {
  it('refuses a past expiry, an unknown role, an organization the user is not in, and two expiries (400, nothing made)', async () => {
    const count = async () => (await tokensOf(world.admin)).length;
    const before = await count();
    const past = await world.admin.gql(CREATE_TOKEN, { label: 'x', scope: { expiresAt: '2000-01-01T00:00:00Z' } });
    expectGqlError(past, 'BAD_REQUEST', /expiresAt: must be in the future/);
    const role = await world.admin.gql(CREATE_TOKEN, { label: 'x', scope: { role: 'owner' } });
    expect(role.status).toBe(400);
    const stranger = await newUser(server);
    const foreign = await stranger.gql(CREATE_TOKEN, { label: 'x', scope: { organization: world.organizationId } });
    expectGqlError(foreign, 'BAD_REQUEST', /not a member/);
    const both = await world.admin.gql(CREATE_TOKEN, { label: 'x', scope: { expiresAt: '2031-01-01T00:00:00Z', expiresIn: 60 } });
    expectGqlError(both, 'BAD_REQUEST', /not both/);
    const negative = await world.admin.gql(CREATE_TOKEN, { label: 'x', scope: { expiresIn: 0 } });
    expectGqlError(negative, 'BAD_REQUEST');
    expect(await count()).toBe(before);
  });
});
