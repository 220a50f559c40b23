import { parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { routes } from '../rest-facade/routes/index.js';
import { loadConfig } from '../src/kernel/config.js';
import { Collection } from '../src/domain/collections/index.js';
import { documentCost } from '../src/graphql/document-limits.js';
import { buildSchema } from '../src/graphql/schema.js';
import { areas } from '../src/areas.js';
import { newOrganizationWithRoles, rest, type Caller, type OrganizationWithRoles } from './support/factories.js';
import { siteEvent, track } from './support/insights.js';
import { insertSite } from './support/sites.js';
import { useTestServer } from './support/server.js';

/**
 * What a fuzzer of both doors found: NUL characters reaching PostgreSQL (500), bodies that are not JSON
 * read as `{}`, invalid UTF-8 stored as U+FFFD, a fragment cycle answered 500, and GraphQL documents
 * bounded by nothing. Each is now refused with a 4xx in the door's error shape, changing nothing.
 */
const server = useTestServer();
let team: OrganizationWithRoles;
let admin: Caller;
beforeAll(async () => {
  team = await newOrganizationWithRoles(server);
  admin = team.admin;
});

const NUL = 'must not contain the NUL character (U+0000)';
const collectionsOf = (organizationId: string) => server.em().count(Collection, { organization: organizationId });

/** A raw request: the body as given (bytes or text), with exactly the headers given. */
async function send(path: string, init: { method: string; headers?: Record<string, string>; body?: string | Uint8Array }) {
  const res = await fetch(server.url + path, {
    method: init.method,
    headers: { authorization: `Bearer ${admin.token}`, ...init.headers },
    body: init.body as never,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('the NUL character', () => {
  it('is refused in a path id, a body string, a query parameter and a JSON value, naming the field', async () => {
    const id = await rest(server, admin.token, 'GET', '/v1/spaces/a%00b');
    expect(id).toMatchObject({ status: 400, body: { error: { code: 400, message: `spaceId: ${NUL}` } } });

    const before = await collectionsOf(team.organization.id);
    const body = await send(`/v1/orgs/${team.organization.id}/collections`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"a\\u0000b"}',
    });
    expect(body).toMatchObject({ status: 400, body: { error: { message: `title: ${NUL}` } } });
    expect(await collectionsOf(team.organization.id)).toBe(before);

    const query = await rest(server, admin.token, 'GET', `/v1/orgs/${team.organization.id}/search?query=a%00b`);
    expect(query).toMatchObject({ status: 400, body: { error: { message: `query: ${NUL}` } } });

    const site = await insertSite(server, team.organization.id);
    const schema = { type: 'object', properties: { unsigned: { type: 'object', description: 'x\u0000y', properties: {} } } };
    const json = await admin.rest('PUT', `/v1/orgs/${team.organization.id}/sites/${site.id}/adaptive-schema`, { jsonSchema: schema });
    expect(json).toMatchObject({ status: 400, body: { error: { message: `jsonSchema.properties.unsigned.description: ${NUL}` } } });

    const event = await track(admin, site, [siteEvent({ pageview: { url: 'https://docs.example.com/a\u0000' } })]);
    expect(event.status).toBe(400);
    expect(event.body.error.message).toMatch(new RegExp(`^events\\.0\\..*: ${NUL.replace(/[()+]/g, '\\$&')}$`));
  });

  it('is refused in GraphQL variables and string literals', async () => {
    const variables = await admin.gql('mutation($org: ID!, $input: CreateCollectionInput!) { createCollection(organizationId: $org, input: $input) { id } }', {
      org: team.organization.id,
      input: { title: 'a\u0000b' },
    });
    expect(variables.status).toBe(400);
    expect(variables.errors?.[0]).toMatchObject({ message: `input.title: ${NUL}`, extensions: { code: 'BAD_REQUEST' } });
    const literal = await admin.gql(`{ organization(id: "a\\u0000b") { id } }`);
    expect(literal.status).toBe(400);
    expect(literal.errors?.[0]?.message).toBe(`String literal: ${NUL}`);
  });
});

const SURROGATE = 'must not contain a lone surrogate (U+D800 to U+DFFF without its pair): send well-formed Unicode';
const TOO_DEEP = 'must not nest objects and arrays more than 64 levels deep';
const json = { 'content-type': 'application/json' };

describe('lone surrogates', () => {
  it('are refused in a body value, a body key, a query parameter and a JSON value, naming the field, creating nothing', async () => {
    const before = await collectionsOf(team.organization.id);
    const collections = `/v1/orgs/${team.organization.id}/collections`;
    const value = await send(collections, { method: 'POST', headers: json, body: '{"title":"a\\ud800b"}' });
    expect(value).toEqual({ status: 400, body: { error: { code: 400, message: `title: ${SURROGATE}` } } });
    const low = await send(collections, { method: 'POST', headers: json, body: '{"title":"ok","description":"\\udc00"}' });
    expect(low.body.error.message).toBe(`description: ${SURROGATE}`);
    // The key is named as JSON writes it, so that the message itself stays well-formed.
    const key = await send(collections, { method: 'POST', headers: json, body: '{"title":"ok","x\\ud800":1}' });
    expect(key.body.error.message).toBe(`"x\\ud800": ${SURROGATE}`);
    expect(await collectionsOf(team.organization.id)).toBe(before);
    // A pair is a character like any other.
    const pair = await send(collections, { method: 'POST', headers: json, body: '{"title":"\\ud83d\\ude00 ok"}' });
    expect(pair.status).toBe(201);

    const site = await insertSite(server, team.organization.id);
    const schema = { type: 'object', properties: { unsigned: { type: 'object', description: 'x\ud800', properties: {} } } };
    const nested = await admin.rest('PUT', `/v1/orgs/${team.organization.id}/sites/${site.id}/adaptive-schema`, { jsonSchema: schema });
    expect(nested.body.error.message).toBe(`jsonSchema.properties.unsigned.description: ${SURROGATE}`);
  });

  it('are refused in GraphQL variables and literals', async () => {
    const variables = await admin.gql('mutation($org: ID!, $input: CreateCollectionInput!) { createCollection(organizationId: $org, input: $input) { id } }', {
      org: team.organization.id,
      input: { title: 'a\ud800' },
    });
    expect(variables.status).toBe(400);
    expect(variables.errors?.[0]).toMatchObject({ message: `input.title: ${SURROGATE}`, extensions: { code: 'BAD_REQUEST' } });
    const literal = await admin.gql(`{ organization(id: "a\\ud800") { id } }`);
    expect(literal.status).toBe(400);
    expect(literal.errors?.[0]?.message).toMatch(/^Syntax Error: Invalid Unicode escape sequence/);
  });

  it('are refused in insights events through both doors, where they used to reach the database (500)', async () => {
    const site = await insertSite(server, team.organization.id);
    const claims = siteEvent({ session: { visitorAuthClaims: { plan: 'pro\ud800' } } });
    const viaRest = await track(admin, site, [claims]);
    expect(viaRest.body).toEqual({ error: { code: 400, message: `events.0.session.visitorAuthClaims.plan: ${SURROGATE}` } });
    const link = siteEvent({ type: 'link_click', link: { target: { kind: 'url', url: 'https://a.example/\ud800' }, position: 'header' } });
    const viaGraphql = await admin.gql('mutation($site: ID!, $events: [JSON!]) { trackSiteEvents(siteId: $site, events: $events) }', {
      site: site.id,
      events: [link],
    });
    expect(viaGraphql.errors?.[0]).toMatchObject({ message: `events.0.link.target.url: ${SURROGATE}`, extensions: { code: 'BAD_REQUEST' } });
    const asBatch = await admin.gql('mutation($site: ID!, $batch: InsightsEventBatch) { trackSiteEvents(siteId: $site, batch: $batch) }', {
      site: site.id,
      batch: JSON.stringify({ events: [link] }),
    });
    expect(asBatch.errors?.[0]?.message).toBe(`events.0.link.target.url: ${SURROGATE}`);
  });
});

describe('nesting', () => {
  const deep = (levels: number, inner = '1') => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);

  it('deeper than 64 levels is refused with 400 on both doors, creating nothing', async () => {
    const before = await collectionsOf(team.organization.id);
    const collections = `/v1/orgs/${team.organization.id}/collections`;
    const arrays = await send(collections, { method: 'POST', headers: json, body: '['.repeat(100_000) + ']'.repeat(100_000) });
    expect(arrays).toEqual({ status: 400, body: { error: { code: 400, message: 'body: expected a JSON object' } } });
    const objects = await send(collections, { method: 'POST', headers: json, body: deep(100_000) });
    expect(objects).toEqual({ status: 400, body: { error: { code: 400, message: `a: ${TOO_DEEP}` } } });
    // A title that is an object 20,000 levels deep: named by its field, refused before anything walks it.
    const title = await send(collections, { method: 'POST', headers: json, body: `{"title":${deep(20_000)}}` });
    expect(title).toEqual({ status: 400, body: { error: { code: 400, message: `title: ${TOO_DEEP}` } } });
    expect(await collectionsOf(team.organization.id)).toBe(before);

    const graphql = await send('/graphql', {
      method: 'POST',
      headers: json,
      body: `{"query":"mutation($org: ID!, $input: CreateCollectionInput!) { createCollection(organizationId: $org, input: $input) { id } }","variables":{"org":"${team.organization.id}","input":{"title":${deep(20_000)}}}}`,
    });
    expect(graphql.status).toBe(400);
    expect(graphql.body.errors[0]).toMatchObject({ message: `input: ${TOO_DEEP}`, extensions: { code: 'BAD_REQUEST' } });
    expect(await collectionsOf(team.organization.id)).toBe(before);

    const site = await insertSite(server, team.organization.id);
    const events = await send(`/v1/orgs/${team.organization.id}/sites/${site.id}/insights/events`, {
      method: 'POST',
      headers: json,
      body: `{"events":[${deep(1000)}]}`,
    });
    expect(events).toEqual({ status: 400, body: { error: { code: 400, message: `body: ${TOO_DEEP}` } } });
  });

  it('up to 64 levels goes on to the operation, which answers for itself', async () => {
    const collections = `/v1/orgs/${team.organization.id}/collections`;
    // The body is level 1, the title's object level 2: 63 more fit.
    const fits = await send(collections, { method: 'POST', headers: json, body: `{"title":${deep(63)}}` });
    expect(fits.body).toEqual({ error: { code: 400, message: 'title: expected a string' } });
    const over = await send(collections, { method: 'POST', headers: json, body: `{"title":${deep(64)}}` });
    expect(over.body).toEqual({ error: { code: 400, message: `title: ${TOO_DEEP}` } });
  });
});

describe('insights batches given as a GraphQL literal', () => {
  it('are taken as the JSON text they are (they used to fail with 500)', async () => {
    const site = await insertSite(server, team.organization.id);
    const batch = JSON.stringify(JSON.stringify({ events: [siteEvent()] }));
    const res = await admin.gql(`mutation { trackSiteEvents(siteId: "${site.id}", batch: ${batch}) }`);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ trackSiteEvents: true });
    // The REST door reads its path regardless of case, as express routes it: the body still goes over as bytes.
    const upper = await send(`/v1/orgs/${team.organization.id}/sites/${site.id}/INSIGHTS/Events`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ events: [siteEvent()] }),
    });
    expect(upper.status).toBe(204);
    const bad = await admin.gql(`mutation { trackSiteEvents(siteId: "${site.id}", batch: "[]") }`);
    expect(bad.errors?.[0]).toMatchObject({ message: 'body: expected a JSON object', extensions: { code: 'BAD_REQUEST' } });
  });
});

describe('bodies', () => {
  const path = () => `/v1/orgs/${team.organization.id}/collections`;

  it('answer 415 when not declared JSON in UTF-8, on both doors, and create nothing', async () => {
    const before = await collectionsOf(team.organization.id);
    const cases: [Record<string, string>, string][] = [
      [{ 'content-type': 'text/plain' }, '{"title":"Plain"}'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 'title=Form'],
      [{}, '{"title":"No type"}'],
      [{ 'content-type': 'application/json; charset=utf-16' }, '{"title":"Sixteen"}'],
    ];
    for (const [headers, body] of cases) {
      const res = await send(path(), { method: 'POST', headers, body });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      expect(res.body).toEqual({ error: { code: 415, message: expect.any(String) } });
      const graphql = await send('/graphql', { method: 'POST', headers, body: '{"query":"{ viewer { id } }"}' });
      expect(graphql.status).toBe(415);
      expect(graphql.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 } }] });
    }
    expect(await collectionsOf(team.organization.id)).toBe(before);
  });

  it('answer 400 for invalid UTF-8 or UTF-16 bytes declared UTF-8, and create nothing', async () => {
    const before = await collectionsOf(team.organization.id);
    const invalid = Buffer.concat([Buffer.from('{"title":"bad '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await send(path(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: invalid });
    expect(res).toEqual({ status: 400, body: { error: { code: 400, message: 'Request body is not valid UTF-8' } } });
    const utf16 = Buffer.from('{"title":"Sixteen"}', 'utf16le');
    expect((await send(path(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: utf16 })).status).toBe(400);
    expect(await collectionsOf(team.organization.id)).toBe(before);
  });

  it("answer a GraphQL document over the body limit with 413 in GraphQL's error shape", async () => {
    const query = `{ viewer { id } } # ${'x'.repeat(2 * 1024 * 1024)}`;
    const res = await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ errors: [{ message: 'Request body larger than 1mb', extensions: { code: 'PAYLOAD_TOO_LARGE', status: 413 } }] });
  });
});

describe('GraphQL documents', () => {
  it('answer a fragment cycle with 400, not 500', async () => {
    const res = await rest(server, admin.token, 'POST', '/graphql', { query: '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/Cannot spread fragment "A" within itself/);
  });

  it('refuses an alias bomb quickly, with memory flat, naming the limit', async () => {
    const bomb = `{ ${Array.from({ length: 20_000 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`;
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const res = await rest(server, admin.token, 'POST', '/graphql', { query: bomb });
    const elapsed = performance.now() - started;
    const heapAfter = process.memoryUsage().heapUsed;
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/Token limit of 5000 exceeded/);
    console.log(
      `alias bomb of 20,000 aliases (${(bomb.length / 1024).toFixed(0)} KB): refused in ${elapsed.toFixed(0)} ms; heap ${(heapBefore / 2 ** 20).toFixed(0)} → ${(heapAfter / 2 ** 20).toFixed(0)} MiB`,
    );

    const spaces = `query($org: ID!) { ${Array.from({ length: 60 }, (_, i) => `s${i}: spaces(organizationId: $org) { count }`).join(' ')} }`;
    const aliases = await rest(server, admin.token, 'POST', '/graphql', { query: spaces, variables: { org: team.organization.id } });
    expect(aliases.status).toBe(400);
    expect(aliases.body.errors[0].message).toMatch(/Aliases limit of 50 exceeded/);
  });

  it('refuses a document whose answer could hold more values than the cost limit, naming it', async () => {
    const fanOut = `{ organizations(limit: 1000) { items { spaces(limit: 1000) { items { id title } } } } }`;
    const res = await rest(server, admin.token, 'POST', '/graphql', { query: fanOut });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/^Query cost limit of 2000000 exceeded/);
    const fine = await admin.gql(`{ organizations(limit: 10) { items { spaces(limit: 100) { items { id title } } } } }`);
    expect(fine.errors).toBeUndefined();
  });

  it('keeps every REST document far below the limits', () => {
    const schema = buildSchema(areas);
    const { graphql: limits } = loadConfig({});
    const { validationRules } = new ApolloArmor({
      costLimit: { enabled: false },
      blockFieldSuggestion: { enabled: false },
      maxAliases: { n: limits.maxAliases },
      maxDepth: { n: Math.floor(limits.maxDepth * 0.75), flattenFragments: true },
      maxDirectives: { n: limits.maxDirectives },
    }).protect();
    for (const route of routes) {
      const document = parse(route.document);
      expect(validate(schema, document, validationRules), route.operationId).toEqual([]);
      // At the largest page every list allows.
      const variables = Object.fromEntries([...route.document.matchAll(/\$(\w+): Int/g)].map(([, name]) => [name, 1000]));
      let cost = 0;
      try {
        cost = documentCost(schema, document, variables);
      } catch {
        // variables of input types this check does not make up: their lists are not pages
      }
      expect(cost, route.operationId).toBeLessThan(limits.maxCost / 2);
      expect(route.document.length, route.operationId).toBeLessThan(limits.maxTokens);
    }
  });
});
