/**
 * The REST facade's answer bodies (rest-facade/answer-shape.ts): a route's body is its document's
 * GraphQL data with null fields left out, except @keepNull ones, written as JSON.stringify writes it,
 * byte for byte. Also the statuses and headers that go with it: 201 with Location, 200 or 201 for an
 * upsert, 204 without a body, and express's weak ETag with 304 for a GET sent again with it.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../rest-facade/routes/index.js';
import { OPENAPI_3 } from './support/spec-server.js';
import { createCollection } from './support/content.js';
import type { Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { newOrganizationWithSite, siteBase, type SiteRef } from './support/sites.js';

const server = useTestServer();

/** An answer as sent: status, headers and the body's text, unparsed. */
async function send(caller: Caller, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${caller.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Fields whose null the contract keeps (@keepNull in schema.graphql) among those these tests read. */
const KEEP_NULL = new Set(['defaultLevel']);

/** What the contract's shapes make of GraphQL data: a copy without null fields, but those that keep null. */
function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([key, child]) => child !== null || KEEP_NULL.has(key));
  return Object.fromEntries(entries.map(([key, child]) => [key, withoutNullFields(child)]));
}

/** The route's own document through POST /graphql with these variables: its root field's data. */
async function graphqlData(caller: Caller, operationId: string, variables: Record<string, unknown>) {
  const route = routes.find((r) => r.operationId === operationId)!;
  const res = await caller.gql(route.document, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return Object.values(res.data as Record<string, unknown>)[0];
}

/** Strings that JSON must escape or that are not ASCII. */
const AWKWARD = 'Say "hi" \\ back\nslash\ttab \u0001 \u2028 \u2029 é 日本 🦄 </script>';

async function siteWithSections() {
  const { organization, admin, site } = await newOrganizationWithSite(server);
  const addSection = async (title: string) => {
    const space = await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title });
    expect(space.status, JSON.stringify(space.body)).toBe(201);
    const res = await send(admin, 'POST', `${siteBase(site)}/sections`, { spaceId: space.body.id });
    expect(res.status, res.text).toBe(201);
    return { res, section: JSON.parse(res.text) as { id: string; urls: { location: string } } };
  };
  return { organization, admin, site, addSection };
}

const listSections = (caller: Caller, site: SiteRef) => send(caller, 'GET', `${siteBase(site)}/sections`);
const onSite = (site: SiteRef) => ({ organizationId: site.organization, siteId: site.id });

describe('answer bodies', () => {
  it('are the GraphQL data without its null fields, byte for byte, through nested lists', async () => {
    const { admin, site, addSection } = await siteWithSections();
    const plain = await addSection('Plain');
    const awkward = await addSection(AWKWARD);
    const patched = await admin.rest('PATCH', `${siteBase(site)}/sections/${awkward.section.id}`, { description: AWKWARD, title: AWKWARD });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    const res = await listSections(admin, site);
    expect(res.status, res.text).toBe(200);
    const data = await graphqlData(admin, 'listSiteSections', onSite(site));
    expect(res.text).toBe(JSON.stringify(withoutNullFields(data)));

    const body = JSON.parse(res.text);
    const [first, second] = body.items;
    expect(first.id).toBe(plain.section.id);
    // Null in GraphQL, left out here; set fields stay, false and 0 included.
    expect((data as { items: Record<string, unknown>[] }).items[0].description).toBeNull();
    expect(first).not.toHaveProperty('description');
    expect(first).not.toHaveProperty('icon');
    expect(first.default).toBe(true);
    expect(second.default).toBe(false);
    expect(body.count).toBe(2);
    expect(body).not.toHaveProperty('next');
    // Nested lists: each section's site spaces, each with its whole space (counts are numbers, permissions booleans).
    expect(first.siteSpaces).toHaveLength(1);
    expect(first.siteSpaces[0].space).toMatchObject({ title: 'Plain', comments: 0, changeRequestsOpen: 0, permissions: { view: true, admin: true } });
    expect(first.siteSpaces[0].space).not.toHaveProperty('deletedAt');
    expect(second.siteSpaces[0].space.title).toBe(AWKWARD);
    expect(second.description).toBe(AWKWARD);
    // The escapes JSON.stringify writes: quotes, backslash, newline, tab, control characters; the rest as is.
    expect(res.text).toContain(String.raw`"description":"Say \"hi\" \\ back\nslash\ttab \u0001 `);
    expect(res.text).toContain('é 日本 🦄 </script>');
  });

  it('keep an empty list', async () => {
    const { admin, site } = await siteWithSections();
    const group = await send(admin, 'POST', `${siteBase(site)}/section-groups`, { title: 'Empty' });
    expect(group.status, group.text).toBe(201);
    expect(JSON.parse(group.text).sections).toEqual([]);
    const res = await send(admin, 'GET', `${siteBase(site)}/section-groups`);
    expect(res.text).toContain('"sections":[]');
    expect(res.text).toBe(JSON.stringify(withoutNullFields(await graphqlData(admin, 'listSiteSectionGroups', onSite(site)))));
  });

  it('keep the null of a @keepNull field and leave out the other nulls beside it', async () => {
    const { organization, admin } = await siteWithSections();
    const collection = await createCollection(admin, organization.id, { title: 'Handbook' });
    expect((await admin.rest('PATCH', `/v1/collections/${collection.id}`, { defaultLevel: null })).status).toBe(200);
    const res = await send(admin, 'GET', `/v1/collections/${collection.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('"defaultLevel":null');
    const body = JSON.parse(res.text);
    expect(body).not.toHaveProperty('description');
    expect(body).not.toHaveProperty('parent');
    expect(res.text).toBe(JSON.stringify(withoutNullFields(await graphqlData(admin, 'getCollectionById', { collectionId: collection.id }))));
  });

  it('never hold a lone surrogate (refused as input: it used to be answered, then stored as U+FFFD); a pair comes back as given', async () => {
    const { admin, site, addSection } = await siteWithSections();
    const { section } = await addSection('Surrogates');
    const patched = await send(admin, 'PATCH', `${siteBase(site)}/sections/${section.id}`, { title: 'half \ud83d of a pair' });
    expect(patched.status, patched.text).toBe(400);
    expect(JSON.parse(patched.text).error.message).toMatch(/^title: must not contain a lone surrogate/);
    const paired = await send(admin, 'PATCH', `${siteBase(site)}/sections/${section.id}`, { title: 'a \ud83d\ude00 pair' });
    expect(JSON.parse(paired.text).title).toBe('a 😀 pair');
    const res = await listSections(admin, site);
    expect(JSON.parse(res.text).items[0].title).toBe('a 😀 pair');
    expect(res.text).toBe(JSON.stringify(withoutNullFields(await graphqlData(admin, 'listSiteSections', onSite(site)))));
  });
});

describe('statuses and headers that go with a body', () => {
  it('201 with a Location of the created resource, 204 without a body', async () => {
    const { admin, site, addSection } = await siteWithSections();
    const { res, section } = await addSection('Created');
    expect(res.headers.get('location')).toBe(section.urls.location);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const deleted = await send(admin, 'DELETE', `${siteBase(site)}/sections/${section.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(deleted.headers.get('content-type')).toBeNull();
    expect(deleted.headers.get('content-length')).toBeNull();
  });

  it('an upsert answers 201 when it created, 200 when it replaced: the entity alone, nulls left out', async () => {
    const { organization, admin } = await siteWithSections();
    const path = `/v1/orgs/${organization.id}/openapi/pets`;
    const created = await send(admin, 'PUT', path, { source: { text: JSON.stringify(OPENAPI_3) } });
    expect(created.status, created.text).toBe(201);
    const replaced = await send(admin, 'PUT', path, { source: { text: JSON.stringify(OPENAPI_3) } });
    expect(replaced.status, replaced.text).toBe(200);
    for (const answer of [created, replaced]) {
      const body = JSON.parse(answer.text);
      expect(body.slug).toBe('pets');
      expect(body).not.toHaveProperty('created');
      expect(answer.text).not.toContain(':null');
    }
    const read = await send(admin, 'GET', path);
    expect(Object.keys(JSON.parse(read.text))).toEqual(Object.keys(JSON.parse(replaced.text)));
  });

  it('a GET answer carries a strong ETag of its body, and the same GET with If-None-Match gets 304 without one', async () => {
    const { admin, site, addSection } = await siteWithSections();
    await addSection('Tagged');
    const first = await listSections(admin, site);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    // As fetch sends it (with the Cache-Control: no-cache it adds to a conditional request): 304.
    const conditional = { 'if-none-match': etag! };
    const again = await send(admin, 'GET', `${siteBase(site)}/sections`, undefined, conditional);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await addSection('Changed');
    expect((await send(admin, 'GET', `${siteBase(site)}/sections`, undefined, conditional)).status).toBe(200);
  });
});
