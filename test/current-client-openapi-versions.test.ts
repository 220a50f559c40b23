/**
 * OpenAPI spec versions through the current client (`@gitbook/api@0.202.0`): each successful processing
 * of a spec's source is kept as a version (listed newest first, the newest named by the spec's
 * `lastVersion`), with its processed content and its source as received; a spec's visibility is set by
 * PATCH. Permissions are the spec's own (reading needs `read` on the organization, PATCH `create`), and
 * versions kept from before versions were stored come from the migration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPISpecVisibility } from '../node_modules/gitbook-api-0.202/dist/client.js';
import { OpenAPISpecVersion } from '../src/domain/openapi/index.js';
import { currentClientFor, expectCurrent, expectRefused } from './support/current-client.js';
import { eventsOf, lastEventSeq } from './support/events.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { newMember, newOrganization, newUser, type Caller } from './support/factories.js';
import { currentReference } from './support/openapi.js';
import { runMigration } from './support/migrations.js';
import { json, OPENAPI_3, startSpecServer, SWAGGER_2_YAML } from './support/spec-server.js';
import { useTestServer } from './support/server.js';

const server = useTestServer({ FETCH_ALLOW_PRIVATE: 'localhost', FETCH_TIMEOUT_MS: '2000' });

const clientFor = (caller: Caller) => currentClientFor(server.url, caller);
const visibility = (value: string) => value as OpenAPISpecVisibility;

/** The three sources of the spec `pets`, in the order they are given: JSON, YAML, JSON again. */
const FIRST = JSON.stringify(OPENAPI_3, null, 2);
const THIRD = JSON.stringify({ ...OPENAPI_3, info: { title: 'Pets', version: '3.0.0' } });

type Spec = { id: string; slug: string; lastVersion?: string; visibility?: string; updatedAt: string; processingState: string };

let admin: Caller;
let creator: Caller;
let editor: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let organizationId: string;
/** A second organization of the same admin, with a spec of the same slug. */
let otherOrganizationId: string;
let specs: Awaited<ReturnType<typeof startSpecServer>>;

/** Runs due jobs until none is left. */
async function runJobs() {
  for (let i = 0; i < 20 && (await server.runDueJobs()) > 0; i++);
}

const base = (organization: string) => `/v1/orgs/${organization}/openapi`;

async function putSource(organization: string, slug: string, source: { text: string } | { url: string }) {
  server.clock.advance(1000);
  const res = await admin.rest<Spec>('PUT', `${base(organization)}/${slug}`, { source });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  await runJobs();
  return res.body;
}

async function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
  return await server.em().getConnection().execute<T[]>(text, params);
}

const getSpec = async (organization: string, slug: string) => (await admin.rest<Spec>('GET', `${base(organization)}/${slug}`)).body;

beforeAll(async () => {
  admin = await newUser(server);
  organizationId = (await newOrganization(server, admin)).id;
  otherOrganizationId = (await newOrganization(server, admin, { title: 'Elsewhere' })).id;
  [creator, editor, reader, guest, outsider] = await Promise.all([
    newMember(server, organizationId, 'create'),
    newMember(server, organizationId, 'edit'),
    newMember(server, organizationId, 'read'),
    newMember(server, organizationId, null),
    newUser(server),
  ]);
  specs = await startSpecServer({ '/pets.json': json(OPENAPI_3) });
  // `pets`: three sources, each processed: three versions.
  await putSource(organizationId, 'pets', { text: FIRST });
  await putSource(organizationId, 'pets', { text: SWAGGER_2_YAML });
  await putSource(organizationId, 'pets', { text: THIRD });
  await putSource(otherOrganizationId, 'pets', { text: FIRST });
});
afterAll(() => specs?.stop());

describe('the current client: OpenAPI spec versions', () => {
  it('lists a spec updated twice as three versions, newest first, with the exact count over pages', async () => {
    const api = clientFor(reader);
    const first = await expectCurrent('listOpenAPISpecVersions', api.orgs.listOpenApiSpecVersions(organizationId, 'pets', { limit: 2 }));
    expect(first.count).toBe(3);
    expect(first.items).toHaveLength(2);
    const second = await expectCurrent(
      'listOpenAPISpecVersions',
      api.orgs.listOpenApiSpecVersions(organizationId, 'pets', { limit: 2, page: first.next!.page }),
    );
    expect(second).toMatchObject({ count: 3, items: [expect.objectContaining({ object: 'openapi-spec-version' })] });
    expect(second.next).toBeUndefined();
    const ids = [...first.items, ...second.items].map((version) => version.id);
    expect(new Set(ids).size).toBe(3);

    // Newest first, as GraphQL numbers them, each with what its document said.
    const res = await reader.gql<{ openAPISpecVersions: { items: { id: string; number: number; version: string; title: string; format: string }[] } }>(
      `query($o: ID!) { openAPISpecVersions(organizationId: $o, specSlug: "pets") { items { id number version title format } } }`,
      { o: organizationId },
    );
    expect(res.data.openAPISpecVersions.items).toEqual([
      { id: ids[0], number: 3, version: '3.0.0', title: 'Pets', format: 'openapi 3.0.3' },
      { id: ids[1], number: 2, version: '2024.1', title: 'Legacy', format: 'swagger 2.0' },
      { id: ids[2], number: 1, version: '1.2.3', title: 'Pets', format: 'openapi 3.0.3' },
    ]);
    const times = [...first.items, ...second.items].map((version) => version.createdAt!);
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(times).size).toBe(3);
    await expectRefused(api.orgs.listOpenApiSpecVersions(organizationId, 'pets', { page: 'not-a-page' }), 400);
  });

  it('answers the newest version as the latest, named by the spec, and each version by its id', async () => {
    const api = clientFor(reader);
    const latest = await expectCurrent('getLatestOpenAPISpecVersion', api.orgs.getLatestOpenApiSpecVersion(organizationId, 'pets'));
    const { items } = (await api.orgs.listOpenApiSpecVersions(organizationId, 'pets')).data;
    expect(latest).toEqual(items[0]);
    // The spec (a contract operation) answers 0.202.0's OpenAPISpec too, naming its newest version.
    const spec = (await api.orgs.getOpenApiSpecBySlug(organizationId, 'pets')).data;
    expect(currentReference.validateResponse('getOpenAPISpecBySlug', 200, spec)).toEqual([]);
    expect(spec).toMatchObject({ lastVersion: latest.id, visibility: 'private', lastProcessedErrorCount: 0 });
    const location = `http://docs.test/v1/orgs/${organizationId}/openapi/pets/versions/${latest.id}`;
    // A text source is read through this API: its URL is the version's content.
    expect(latest).toMatchObject({ urls: { location }, url: `${location}/content` });
    for (const version of items) {
      expect(await expectCurrent('getOpenAPISpecVersionById', api.orgs.getOpenApiSpecVersionById(organizationId, 'pets', version.id))).toEqual(version);
    }
  });

  it("answers a version's processed content and the newest's source exactly as received", async () => {
    const api = clientFor(reader);
    const latest = await expectCurrent('getLatestOpenAPISpecVersionContent', api.orgs.getLatestOpenApiSpecVersionContent(organizationId, 'pets'));
    expect(latest.filesystem).toEqual({ 'openapi.json': JSON.parse(THIRD) as unknown });
    const newest = (await api.orgs.getLatestOpenApiSpecVersion(organizationId, 'pets')).data;
    expect(latest.urls).toEqual({ source: newest.url, public: null });

    const { items } = (await api.orgs.listOpenApiSpecVersions(organizationId, 'pets')).data;
    const yamlVersion = await expectCurrent('getOpenAPISpecVersionContentById', api.orgs.getOpenApiSpecVersionContentById(organizationId, 'pets', items[1].id));
    // The document as parsed, its `$ref`s as written (not resolved).
    expect(yamlVersion.filesystem).toEqual({
      'openapi.yaml': expect.objectContaining({
        swagger: '2.0',
        paths: { '/users': { get: { summary: 'List users', responses: { '200': { description: 'Users', schema: { $ref: '#/definitions/Users' } } } } } },
      }) as unknown,
    });
    const oldest = await expectCurrent('getOpenAPISpecVersionContentById', api.orgs.getOpenApiSpecVersionContentById(organizationId, 'pets', items[2].id));
    expect(oldest.filesystem).toEqual({ 'openapi.json': OPENAPI_3 });

    expect(await expectCurrent('getLatestOpenAPISpecVersionContentRaw', api.orgs.getLatestOpenApiSpecVersionContentRaw(organizationId, 'pets'))).toEqual({
      text: THIRD,
      format: 'json',
    });
    // Through GraphQL, any version's source: the YAML one as it was given.
    const raw = await reader.gql<{ openAPISpecVersionRawContent: { text: string; format: string } }>(
      `query($o: ID!, $v: ID!) { openAPISpecVersionRawContent(organizationId: $o, specSlug: "pets", versionId: $v) { text format } }`,
      { o: organizationId, v: items[1].id },
    );
    expect(raw.data.openAPISpecVersionRawContent).toEqual({ text: SWAGGER_2_YAML, format: 'yaml' });
  });

  it('keeps a URL source as fetched, answered as the public URL once the spec is public', async () => {
    const source = `http://localhost:${specs.port}/pets.json`;
    await putSource(organizationId, 'fetched', { url: source });
    const api = clientFor(creator);
    const version = await expectCurrent('getLatestOpenAPISpecVersion', api.orgs.getLatestOpenApiSpecVersion(organizationId, 'fetched'));
    expect(version.url).toBe(source);
    expect((await api.orgs.getLatestOpenApiSpecVersionContent(organizationId, 'fetched')).data.urls).toEqual({ source, public: null });
    expect((await api.orgs.getLatestOpenApiSpecVersionContentRaw(organizationId, 'fetched')).data).toEqual({ text: JSON.stringify(OPENAPI_3), format: 'json' });

    await expectCurrent('updateOpenAPISpecBySlug', api.orgs.updateOpenApiSpecBySlug(organizationId, 'fetched', { visibility: visibility('public') }));
    const content = await expectCurrent('getLatestOpenAPISpecVersionContent', api.orgs.getLatestOpenApiSpecVersionContent(organizationId, 'fetched'));
    expect(content.urls).toEqual({ source, public: source });
  });

  it('answers 404 for an unknown version, a version of another spec, another organization and a spec not processed yet', async () => {
    const api = clientFor(admin);
    const theirs = (await api.orgs.getLatestOpenApiSpecVersion(otherOrganizationId, 'pets')).data;
    const ours = (await api.orgs.getLatestOpenApiSpecVersion(organizationId, 'pets')).data;
    await expectRefused(api.orgs.getOpenApiSpecVersionById(organizationId, 'pets', 'no-such-version'), 404);
    await expectRefused(api.orgs.getOpenApiSpecVersionContentById(organizationId, 'pets', 'no-such-version'), 404);
    // The same slug in another organization: its versions are not this spec's, nor are another spec's.
    await expectRefused(api.orgs.getOpenApiSpecVersionById(organizationId, 'pets', theirs.id), 404);
    await expectRefused(api.orgs.getOpenApiSpecVersionContentById(organizationId, 'pets', theirs.id), 404);
    await expectRefused(api.orgs.getOpenApiSpecVersionById(organizationId, 'fetched', ours.id), 404);
    await expectRefused(api.orgs.getOpenApiSpecVersionById(otherOrganizationId, 'pets', ours.id), 404);
    await expectRefused(api.orgs.listOpenApiSpecVersions(organizationId, 'no-such-spec'), 404);
    await expectRefused(api.orgs.getLatestOpenApiSpecVersion(organizationId, 'no-such-spec'), 404);
    expectError(await admin.rest('GET', `${base(organizationId)}/pets/versions/${theirs.id}`), 404, 'OpenAPI specification version not found');

    // Stored, not processed yet: no version at all.
    expect((await admin.rest('POST', base(organizationId), { slug: 'waiting', source: { text: FIRST } })).status).toBe(201);
    expect(await expectCurrent('listOpenAPISpecVersions', api.orgs.listOpenApiSpecVersions(organizationId, 'waiting'))).toEqual({ items: [], count: 0 });
    await expectRefused(api.orgs.getLatestOpenApiSpecVersion(organizationId, 'waiting'), 404);
    await expectRefused(api.orgs.getLatestOpenApiSpecVersionContent(organizationId, 'waiting'), 404);
    await expectRefused(api.orgs.getLatestOpenApiSpecVersionContentRaw(organizationId, 'waiting'), 404);
    expect((await getSpec(organizationId, 'waiting')).lastVersion).toBeUndefined();
  });

  it("lets the organization's readers read versions; a guest is refused, an outsider does not find the organization", async () => {
    const { id } = (await clientFor(admin).orgs.getLatestOpenApiSpecVersion(organizationId, 'pets')).data;
    for (const caller of [reader, editor, creator]) {
      const api = clientFor(caller);
      await expectCurrent('getOpenAPISpecVersionById', api.orgs.getOpenApiSpecVersionById(organizationId, 'pets', id));
      await expectCurrent('getOpenAPISpecVersionContentById', api.orgs.getOpenApiSpecVersionContentById(organizationId, 'pets', id));
    }
    // Each call made when it is awaited: a refusal never waits unhandled.
    const calls = (caller: Caller): (() => Promise<unknown>)[] => {
      const api = clientFor(caller);
      return [
        () => api.orgs.listOpenApiSpecVersions(organizationId, 'pets'),
        () => api.orgs.getLatestOpenApiSpecVersion(organizationId, 'pets'),
        () => api.orgs.getLatestOpenApiSpecVersionContent(organizationId, 'pets'),
        () => api.orgs.getLatestOpenApiSpecVersionContentRaw(organizationId, 'pets'),
        () => api.orgs.getOpenApiSpecVersionById(organizationId, 'pets', id),
        () => api.orgs.getOpenApiSpecVersionContentById(organizationId, 'pets', id),
      ];
    };
    for (const call of calls(guest)) await expectRefused(call(), 403);
    for (const call of calls(outsider)) await expectRefused(call(), 404);
    expectError(await outsider.rest('GET', `${base(organizationId)}/pets/versions`), 404, 'Organization not found');
  });
});

describe('the current client: a spec visibility', () => {
  it('sets the visibility with the create role, once, as an update event', async () => {
    const before = await getSpec(organizationId, 'pets');
    const seq = await lastEventSeq(server);
    server.clock.advance(1000);
    const api = clientFor(creator);
    const updated = await expectCurrent(
      'updateOpenAPISpecBySlug',
      api.orgs.updateOpenApiSpecBySlug(organizationId, 'pets', { visibility: visibility('public') }),
    );
    expect(updated).toMatchObject({ id: before.id, visibility: 'public', lastVersion: before.lastVersion, updatedAt: server.clock.now().toISOString() });
    expect(updated.permissions).toEqual({ view: true, edit: true });
    // The same visibility again changes nothing.
    server.clock.advance(1000);
    const again = await expectCurrent(
      'updateOpenAPISpecBySlug',
      api.orgs.updateOpenApiSpecBySlug(organizationId, 'pets', { visibility: visibility('public') }),
    );
    expect(again.updatedAt).toBe(updated.updatedAt);
    const events = await eventsOf(server, organizationId, seq);
    expect(events.map((event) => [event.type, event.actorUserId])).toEqual([['openapi_spec.updated', creator.user.id]]);
    expect(events[0].payload).toMatchObject({ slug: 'pets', visibility: 'public', changes: ['visibility'] });
    // A text source has no public copy here: still no public URL.
    expect((await api.orgs.getLatestOpenApiSpecVersionContent(organizationId, 'pets')).data.urls.public).toBeNull();

    const back = await expectCurrent(
      'updateOpenAPISpecBySlug',
      api.orgs.updateOpenApiSpecBySlug(organizationId, 'pets', { visibility: visibility('private') }),
    );
    expect(back.visibility).toBe('private');
  });

  it('refuses a bad body with 400 changing nothing, below the create role with 403, and an unknown spec with 404', async () => {
    const path = `${base(organizationId)}/pets`;
    const before = await getSpec(organizationId, 'pets');
    const seq = await lastEventSeq(server);
    await expectRefused(clientFor(admin).orgs.updateOpenApiSpecBySlug(organizationId, 'pets', { visibility: visibility('published') }), 400);
    expectError(await admin.rest('PATCH', path, { visibility: 'published' }), 400, /^visibility: /);
    expectError(await admin.rest('PATCH', path, { visibility: null }), 400, /^visibility: /);
    expectError(await admin.rest('PATCH', path, {}), 400, /^visibility: /);
    expectError(await admin.rest('PATCH', path, { visibility: 'public', slug: 'renamed' }), 400, 'slug: unknown field');
    expectGqlError(
      await admin.gql(`mutation($o: ID!) { updateOpenAPISpec(organizationId: $o, specSlug: "pets", input: { visibility: published }) { id } }`, {
        o: organizationId,
      }),
      'BAD_REQUEST',
    );
    for (const caller of [editor, reader]) {
      await expectRefused(clientFor(caller).orgs.updateOpenApiSpecBySlug(organizationId, 'pets', { visibility: visibility('public') }), 403);
    }
    await expectRefused(clientFor(guest).orgs.updateOpenApiSpecBySlug(organizationId, 'pets', { visibility: visibility('public') }), 403);
    await expectRefused(clientFor(outsider).orgs.updateOpenApiSpecBySlug(organizationId, 'pets', { visibility: visibility('public') }), 404);
    await expectRefused(clientFor(admin).orgs.updateOpenApiSpecBySlug(organizationId, 'no-such-spec', { visibility: visibility('public') }), 404);
    expect(await getSpec(organizationId, 'pets')).toEqual(before);
    expect(await eventsOf(server, organizationId, seq)).toEqual([]);
  });
});

describe('versions as processing keeps them', () => {
  it('keeps no version of a failed processing: the newest stays the last one processed successfully', async () => {
    const before = await getSpec(organizationId, 'pets');
    await putSource(organizationId, 'pets', { text: 'title: not a specification' });
    const after = await getSpec(organizationId, 'pets');
    expect(after).toMatchObject({
      processingState: 'complete',
      lastVersion: before.lastVersion,
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrorCount: 1,
    });
    expect((await clientFor(reader).orgs.listOpenApiSpecVersions(organizationId, 'pets')).data.count).toBe(3);
  });

  it("answers the newest version in GraphQL's OpenAPISpec.latestVersion", async () => {
    const res = await reader.gql<{ openAPISpec: { lastVersion: string; latestVersion: { id: string; number: number; version: string } } }>(
      `query($o: ID!) { openAPISpec(organizationId: $o, specSlug: "pets") { lastVersion latestVersion { id number version } } }`,
      { o: organizationId },
    );
    expect(res.data.openAPISpec).toEqual({
      lastVersion: res.data.openAPISpec.latestVersion.id,
      latestVersion: expect.objectContaining({ number: 3, version: '3.0.0' }) as unknown,
    });
  });

  it("deletes a spec's versions with it", async () => {
    await putSource(organizationId, 'short-lived', { text: FIRST });
    const { id } = await getSpec(organizationId, 'short-lived');
    expect(await server.em().count(OpenAPISpecVersion, { spec: id })).toBe(1);
    expect((await admin.rest('DELETE', `${base(organizationId)}/short-lived`)).status).toBe(204);
    expect(await server.em().count(OpenAPISpecVersion, { spec: id })).toBe(0);
  });
});

describe('the migration to versions', () => {
  it('gives each spec processed before a first version: with its content where the current source is a text, else without', async () => {
    const organization = (await newOrganization(server, admin, { title: 'Migrated' })).id;
    await putSource(organization, 'text', { text: SWAGGER_2_YAML });
    await putSource(organization, 'url', { url: `http://localhost:${specs.port}/pets.json` });
    await putSource(organization, 'replaced', { text: FIRST });
    await putSource(organization, 'replaced', { text: 'not: a specification' });
    expect((await admin.rest('POST', base(organization), { slug: 'never', source: { text: FIRST } })).status).toBe(201);

    await runMigration(server.deps.orm, 'Migration20261230184700', 'down');
    // Before versions, `last_version` held the last document's info.version.
    const old = await sql<{ slug: string; last_version: string | null }>(
      `select slug, last_version from openapi_spec where organization_id = ? order by slug`,
      [organization],
    );
    expect(old).toEqual([
      { slug: 'never', last_version: null },
      { slug: 'replaced', last_version: '1.2.3' },
      { slug: 'text', last_version: '2024.1' },
      { slug: 'url', last_version: '1.2.3' },
    ]);
    await runMigration(server.deps.orm, 'Migration20261230184700', 'up');

    const api = clientFor(admin);
    for (const slug of ['text', 'url', 'replaced']) {
      const list = await expectCurrent('listOpenAPISpecVersions', api.orgs.listOpenApiSpecVersions(organization, slug));
      expect(list.count, slug).toBe(1);
      expect((await getSpec(organization, slug)).lastVersion, slug).toBe(list.items[0].id);
    }
    expect((await api.orgs.listOpenApiSpecVersions(organization, 'never')).data.count).toBe(0);
    const text = await expectCurrent('getLatestOpenAPISpecVersionContent', api.orgs.getLatestOpenApiSpecVersionContent(organization, 'text'));
    expect(text.filesystem).toEqual({ 'openapi.yaml': expect.objectContaining({ swagger: '2.0' }) as unknown });
    expect((await api.orgs.getLatestOpenApiSpecVersionContentRaw(organization, 'text')).data).toEqual({ text: SWAGGER_2_YAML, format: 'yaml' });
    // A URL's body and a replaced text were never stored: those versions hold no content.
    for (const slug of ['url', 'replaced']) {
      expectError(await admin.rest('GET', `${base(organization)}/${slug}/versions/latest/content`), 404, /processed before versions were kept/);
      expectError(await admin.rest('GET', `${base(organization)}/${slug}/versions/latest/content/raw`), 404, /processed before versions were kept/);
    }
    expect((await api.orgs.getLatestOpenApiSpecVersion(organization, 'url')).data.url).toBe(`http://localhost:${specs.port}/pets.json`);
    const info = await admin.gql<{ openAPISpecVersion: { number: number; version: string; title: string } }>(
      `query($o: ID!) { openAPISpecVersion(organizationId: $o, specSlug: "replaced") { number version title } }`,
      { o: organization },
    );
    expect(info.data.openAPISpecVersion).toEqual({ number: 1, version: '1.2.3', title: 'Pets' });

    // Processed again, a spec's next version is its second.
    await putSource(organization, 'url', { url: `http://localhost:${specs.port}/pets.json` });
    expect((await api.orgs.getLatestOpenApiSpecVersionContent(organization, 'url')).data.filesystem).toEqual({ 'openapi.json': OPENAPI_3 });
    expect((await api.orgs.listOpenApiSpecVersions(organization, 'url')).data.count).toBe(2);
  });
});
