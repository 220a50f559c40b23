/**
 * The current official client's (`@gitbook/api@0.202.0`) URL resolution and a site's condition
 * templates, called through that client and validated against its reference: what an app address, a
 * space's published address or a site's published URL names (getContentByUrl), a site's published URL
 * taken apart with a short-lived token (getPublishedContentByUrl, resolvePublishedContentByUrl), and
 * the templates derived from a site's adaptive schema (listSiteAdaptiveTemplateConditions). For each:
 * the happy path, denials, bad input and unknown URLs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ShareLink } from '../src/domain/sites/index.js';
import { createCollection, createPage, createSpace, merge, openChangeRequest } from './support/content.js';
import { currentClientFor, expectCurrent, expectRefused } from './support/current-client.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { insertAdaptiveSchema, insertSection, insertShareLink, insertSite, insertSiteSpace, siteBase } from './support/sites.js';

const server = useTestServer();
const clientFor = (caller: Caller) => currentClientFor(server.url, caller);
const BASE = 'http://docs.test';

let admin: Caller, reader: Caller, guest: Caller, outsider: Caller;
let organizationId: string;
let spaceId: string;
let otherSpaceId: string;
let changeRequestNumber: number;
let changeRequestId: string;
let collectionId: string;
let revisionId: string;
/** A published site without sections that publishes the space at the root level (path `handbook`). */
let siteId: string;
let siteSpaceId: string;

const appSpace = (id = spaceId) => `${BASE}/o/${organizationId}/s/${id}`;

beforeAll(async () => {
  const roles = await newOrganizationWithRoles(server);
  ({ admin, read: reader, guest, outsider } = roles);
  organizationId = roles.organization.id;
  spaceId = (await createSpace(admin, organizationId, 'Handbook')).id;
  otherSpaceId = (await createSpace(admin, organizationId, 'Reference')).id;
  const first = await openChangeRequest(admin, spaceId);
  const guide = await createPage(admin, spaceId, first.id, { title: 'Guide', markdown: 'Read me.' });
  await createPage(admin, spaceId, first.id, { title: 'Install', parent: guide.page!.id, markdown: 'Run it.' });
  expect((await merge(admin, spaceId, first.id)).status).toBe(200);
  const reference = await openChangeRequest(admin, otherSpaceId);
  await createPage(admin, otherSpaceId, reference.id, { title: 'Endpoints', markdown: 'GET /.' });
  expect((await merge(admin, otherSpaceId, reference.id)).status).toBe(200);
  const draft = await openChangeRequest(admin, spaceId, 'Draft');
  ({ id: changeRequestId, number: changeRequestNumber } = draft);
  await createPage(admin, spaceId, draft.id, { title: 'Upcoming', markdown: 'Soon.' });
  collectionId = (await createCollection(admin, organizationId, { title: 'Guides' })).id;
  revisionId = ((await admin.rest('GET', `/v1/spaces/${spaceId}`)).body as { revision: string }).revision;

  const site = await admin.rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs', spaces: [spaceId] });
  expect(site.status).toBe(201);
  siteId = (site.body as { id: string }).id;
  expect((await admin.rest('POST', `/v1/orgs/${organizationId}/sites/${siteId}/publish`)).status).toBe(200);
  const siteSpaces = await admin.rest('GET', `/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`);
  siteSpaceId = (siteSpaces.body as { items: { id: string }[] }).items[0].id;
});

describe('the current client: getContentByUrl', () => {
  it('resolves app addresses of a space, its pages, a change request and its pages, a revision and a collection', async () => {
    const api = clientFor(reader).urls;
    const space = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: appSpace() }));
    expect(space).toMatchObject({ space: { id: spaceId, title: 'Handbook' } });
    expect(space).not.toHaveProperty('page');

    const page = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: `${appSpace()}/guide/install/` }));
    expect(page).toMatchObject({ space: { id: spaceId }, page: { title: 'Install', path: 'guide/install' } });

    const changeRequest = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: `${appSpace()}/~/changes/${changeRequestNumber}` }));
    expect(changeRequest).toMatchObject({ space: { id: spaceId }, changeRequest: { id: changeRequestId } });
    expect(changeRequest).not.toHaveProperty('page');
    const draftPage = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: `${appSpace()}/~/changes/${changeRequestNumber}/upcoming` }));
    expect(draftPage).toMatchObject({ changeRequest: { id: changeRequestId }, page: { title: 'Upcoming' } });

    const revision = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: `${appSpace()}/revisions/${revisionId}` }));
    expect(Object.keys(revision)).toEqual(['space']);

    const collection = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: `${BASE}/o/${organizationId}/c/${collectionId}` }));
    expect(Object.keys(collection)).toEqual(['collection']);
    expect(collection).toMatchObject({ collection: { id: collectionId, title: 'Guides' } });
  });

  it("resolves what the server hands out as URLs: a page's urls.app, a space's urls.published and a site's published URLs", async () => {
    const api = clientFor(reader).urls;
    const installed = await reader.rest('GET', `/v1/spaces/${spaceId}/content/path/${encodeURIComponent('guide/install')}`);
    const fromApp = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: (installed.body as { urls: { app: string } }).urls.app }));
    expect((fromApp as { page?: unknown }).page).toMatchObject({ id: (installed.body as { id: string }).id });

    expect((await admin.rest('PATCH', `/v1/spaces/${spaceId}`, { visibility: 'unlisted' })).status).toBe(200);
    const published = ((await reader.rest('GET', `/v1/spaces/${spaceId}`)).body as { urls: { published: string } }).urls.published;
    expect(await expectCurrent('getContentByUrl', api.getContentByUrl({ url: `${published}/guide` }))).toMatchObject({
      space: { id: spaceId },
      page: { path: 'guide' },
    });

    const bySite = await expectCurrent('getContentByUrl', api.getContentByUrl({ url: `${BASE}/sites/${siteId}/handbook/guide/install` }));
    expect(bySite).toMatchObject({ space: { id: spaceId }, page: { path: 'guide/install' } });
  });

  it('answers 404 for what the caller cannot read, unknown content and addresses of other hosts; 400 for a malformed URL', async () => {
    for (const caller of [guest, outsider]) {
      await expectRefused(clientFor(caller).urls.getContentByUrl({ url: appSpace() }), 404);
      await expectRefused(clientFor(caller).urls.getContentByUrl({ url: `${BASE}/o/${organizationId}/c/${collectionId}` }), 404);
      await expectRefused(clientFor(caller).urls.getContentByUrl({ url: `${BASE}/sites/${siteId}/handbook` }), 404);
    }
    const api = clientFor(reader).urls;
    for (const url of [
      appSpace('no-such-space'),
      `${appSpace()}/no/such/page`,
      `${appSpace()}/~/changes/999`,
      `${BASE}/o/${organizationId}/c/no-such-collection`,
      `${BASE}/sites/no-such-site`,
      `https://elsewhere.example.com/o/${organizationId}/s/${spaceId}`,
      `${BASE}/somewhere/else`,
    ]) {
      await expectRefused(api.getContentByUrl({ url }), 404);
    }
    for (const url of ['not a url', `ftp://docs.test/o/${organizationId}/s/${spaceId}`, `${appSpace()}/${'x'.repeat(2100)}`]) {
      await expectRefused(api.getContentByUrl({ url }), 400);
    }
    const missing = await reader.rest('GET', '/v1/urls/content');
    expect(missing.status).toBe(400);
    expect((await fetch(`${server.url}/v1/urls/content?url=${encodeURIComponent(appSpace())}`)).status).toBe(401);
  });
});

/** A lookup's answer, which is no redirect here. */
type Lookup = { apiToken: string } & Record<string, unknown>;
const expectLookup = async (operationId: string, call: Promise<{ status: number; data: unknown }>) => (await expectCurrent(operationId, call)) as Lookup;

describe('the current client: published URLs', () => {
  it('takes a site URL apart: the default site space at the root, a named one with a page path; the token reads, does not write, and expires', async () => {
    const api = clientFor(reader).urls;
    const root = await expectLookup('getPublishedContentByUrl', api.getPublishedContentByUrl({ url: `${BASE}/sites/${siteId}` }));
    const { apiToken: rootToken, ...rootParts } = root;
    expect(typeof rootToken).toBe('string');
    expect(rootParts).toEqual({
      site: siteId,
      siteSpace: siteSpaceId,
      space: spaceId,
      organization: organizationId,
      pathname: '',
      basePath: `/sites/${siteId}/`,
      siteBasePath: `/sites/${siteId}/`,
      complete: false,
      canonicalUrl: `${BASE}/sites/${siteId}/handbook`,
    });

    const page = await expectLookup(
      'resolvePublishedContentByUrl',
      api.resolvePublishedContentByUrl({ url: `${BASE}/sites/${siteId}/handbook/guide/install`, visitor: { type: 'human', unsignedClaims: { beta: true } } }),
    );
    expect(page).toMatchObject({
      siteSpace: siteSpaceId,
      pathname: 'guide/install',
      basePath: `/sites/${siteId}/handbook/`,
      complete: true,
      canonicalUrl: `${BASE}/sites/${siteId}/handbook/guide/install`,
    });
    expect(page.apiToken).not.toBe(root.apiToken);

    const token = page.apiToken;
    expect((await fetch(`${server.url}/v1/spaces/${spaceId}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const write = await fetch(`${server.url}/v1/spaces/${spaceId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed' }),
    });
    expect(write.status).toBe(403);
    const tokens = await reader.gql<{ apiTokens: { label: string; role: string; organization: string }[] }>(`{ apiTokens { label role organization } }`);
    expect(tokens.data.apiTokens).toContainEqual({ label: `published content of site ${siteId}`, role: 'read', organization: organizationId });
    // GraphQL makes the token only when the field is selected.
    const count = async () => (await reader.gql<{ apiTokens: unknown[] }>(`{ apiTokens { id } }`)).data.apiTokens.length;
    const before = await count();
    const viaGraphQL = await reader.gql<{ publishedContentByUrl: unknown; contentByUrl: unknown }>(
      `query($url: String!) { publishedContentByUrl(url: $url) { siteSpace pathname } contentByUrl(url: $url) { space { id } page { title } } }`,
      { url: `${BASE}/sites/${siteId}/handbook/guide` },
    );
    expect(viaGraphQL.data).toEqual({
      publishedContentByUrl: { siteSpace: siteSpaceId, pathname: 'guide' },
      contentByUrl: { space: { id: spaceId }, page: { title: 'Guide' } },
    });
    expect(await count()).toBe(before);

    // A caller whose token is capped at read gets a token within that scope.
    const capped = await reader.gql<{ createApiToken: { token: string } }>(
      `mutation($o: ID!) { createApiToken(label: "reads", scope: { organization: $o, role: read, expiresIn: 600 }) { token } }`,
      { o: organizationId },
    );
    const readOnly = clientFor({ ...reader, token: capped.data.createApiToken.token }).urls;
    const narrow = await expectLookup('getPublishedContentByUrl', readOnly.getPublishedContentByUrl({ url: `${BASE}/sites/${siteId}` }));
    const narrowTokens = await reader.gql<{ apiTokens: { label: string; expiresAt: string }[] }>(`{ apiTokens { label expiresAt } }`);
    expect(narrowTokens.data.apiTokens.at(-1)).toEqual({
      label: `published content of site ${siteId}`,
      expiresAt: new Date(server.clock.now().getTime() + 600_000).toISOString(),
    });
    expect((await fetch(`${server.url}/v1/spaces/${spaceId}`, { headers: { authorization: `Bearer ${narrow.apiToken}` } })).status).toBe(200);

    server.clock.advance(3600_000 + 1);
    expect((await fetch(`${server.url}/v1/spaces/${spaceId}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('resolves a custom hostname, its basename, sections and their site spaces, and the defaults of each level', async () => {
    const site = await insertSite(server, organizationId, { hostname: 'help.example.com', basename: 'docs' });
    const guides = await insertSection(server, site, { path: 'guides', position: 'a' });
    const api = await insertSection(server, site, { path: 'api', position: 'b', isDefault: true });
    await insertSiteSpace(server, site, { space: spaceId, path: 'handbook', position: 'a', section: guides.id });
    const v1 = await insertSiteSpace(server, site, { space: spaceId, path: 'v1', position: 'a', section: api.id });
    const v2 = await insertSiteSpace(server, site, { space: otherSpaceId, path: 'v2', position: 'b', section: api.id });
    const client = clientFor(reader).urls;

    const named = await expectCurrent(
      'getPublishedContentByUrl',
      client.getPublishedContentByUrl({ url: 'https://help.example.com/docs/api/v2/endpoints?x=1' }),
    );
    expect(named).toMatchObject({
      site: site.id,
      siteSection: api.id,
      siteSpace: v2.id,
      space: otherSpaceId,
      pathname: 'endpoints',
      basePath: '/docs/api/v2/',
      siteBasePath: '/docs/',
      complete: true,
      canonicalUrl: 'https://help.example.com/docs/api/v2/endpoints',
    });
    // The section named, its first site space by default; the site's default section when none is named.
    expect(await expectCurrent('getPublishedContentByUrl', client.getPublishedContentByUrl({ url: 'https://help.example.com/docs/api' }))).toMatchObject({
      siteSection: api.id,
      siteSpace: v1.id,
      complete: false,
      basePath: '/docs/api/',
    });
    expect(await expectCurrent('getPublishedContentByUrl', client.getPublishedContentByUrl({ url: 'https://help.example.com/docs/' }))).toMatchObject({
      siteSection: api.id,
      siteSpace: v1.id,
      pathname: '',
      complete: false,
    });
    // Not the site: another basename, another host; nor a page the space has.
    await expectRefused(client.getPublishedContentByUrl({ url: 'https://help.example.com/other/api' }), 404);
    await expectRefused(client.getPublishedContentByUrl({ url: 'https://nothing.example.com/docs/api' }), 404);
    await expectRefused(client.getPublishedContentByUrl({ url: 'https://help.example.com/docs/api/v2/no-such-page' }), 404);
  });

  it("opens a published share-link site to whoever holds an active key, and the token then reads the site's space with it", async () => {
    const site = await insertSite(server, organizationId, { visibility: 'share-link' });
    await insertSiteSpace(server, site, { space: otherSpaceId, path: 'reference', position: 'a' });
    const link = await insertShareLink(server, site);
    const url = `${BASE}/sites/${site.id}/reference/endpoints?shareKey=${link.key}`;
    const found = await expectLookup('resolvePublishedContentByUrl', clientFor(outsider).urls.resolvePublishedContentByUrl({ url }));
    expect(found).toMatchObject({ site: site.id, space: otherSpaceId, shareKey: link.key, pathname: 'endpoints' });
    const read = await fetch(`${server.url}/v1/spaces/${otherSpaceId}?shareKey=${link.key}`, { headers: { authorization: `Bearer ${found.apiToken}` } });
    expect(read.status).toBe(200);

    await expectRefused(clientFor(outsider).urls.getPublishedContentByUrl({ url: `${BASE}/sites/${site.id}/reference` }), 404);
    await expectRefused(clientFor(outsider).urls.getPublishedContentByUrl({ url: `${BASE}/sites/${site.id}?shareKey=wrong` }), 404);
    await server.em().nativeUpdate(ShareLink, { id: link.id }, { active: false });
    await expectRefused(clientFor(outsider).urls.getPublishedContentByUrl({ url }), 404);
  });

  it('shows an unpublished site to its readers only; refuses guests, outsiders, bad URLs and bad visitor payloads', async () => {
    const site = await insertSite(server, organizationId, { published: false });
    await insertSiteSpace(server, site, { space: spaceId, path: 'draft', position: 'a' });
    const url = `${BASE}/sites/${site.id}/draft/guide`;
    expect(await expectCurrent('getPublishedContentByUrl', clientFor(reader).urls.getPublishedContentByUrl({ url }))).toMatchObject({ site: site.id });
    for (const caller of [guest, outsider]) {
      await expectRefused(clientFor(caller).urls.getPublishedContentByUrl({ url }), 404);
      await expectRefused(clientFor(caller).urls.resolvePublishedContentByUrl({ url: `${BASE}/sites/${siteId}` }), 404);
    }
    const api = clientFor(reader).urls;
    await expectRefused(api.getPublishedContentByUrl({ url: 'docs.test/sites' }), 400);
    await expectRefused(api.resolvePublishedContentByUrl({ url: url, visitor: { type: 'robot' as never } }), 400);
    await expectRefused(api.resolvePublishedContentByUrl({ url: url, visitor: { unsignedClaims: 'beta' as never } }), 400);
    const unknownField = await reader.rest('POST', '/v1/urls/published', { url, visitorToken: 'x' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toEqual({ error: { code: 400, message: 'visitorToken: unknown field' } });
    await expectRefused(api.getPublishedContentByUrl({ url: `${appSpace()}` }), 404);
  });
});

describe('the current client: listSiteAdaptiveTemplateConditions', () => {
  const jsonSchema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      plan: { type: 'string', description: 'Plan', enum: ['free', 'pro'] },
      beta: { type: 'boolean', description: 'Beta tester' },
      seats: { type: 'number', description: 'Seats' },
      email: { type: 'string', description: 'E-mail' },
      'team-roles': { type: 'array', description: 'Roles', items: { type: 'string', description: 'Role', enum: ['owner', 'viewer'] } },
      tags: { type: 'array', description: 'Tags', items: { type: 'string', description: 'Tag' } },
      company: { type: 'object', description: 'Company', additionalProperties: false, properties: { region: { type: 'string', description: 'Region' } } },
      unsigned: {
        type: 'object',
        description: 'Unsigned claims of the site visitor.',
        additionalProperties: false,
        properties: { preview: { type: 'boolean', description: 'Preview' } },
      },
    },
  };

  it('derives templates per attribute from the adaptive schema, each accepted as a condition by the site', async () => {
    const api = clientFor(reader).orgs;
    const saved = await admin.rest('PUT', `${siteBase({ id: siteId, organization: organizationId })}/adaptive-schema`, { jsonSchema });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const found = await expectCurrent('listSiteAdaptiveTemplateConditions', api.listSiteAdaptiveTemplateConditions(organizationId, siteId));
    // By attribute name, depth first.
    expect(found.items.map((item) => item.condition)).toEqual([
      'visitor.claims.beta == true',
      'visitor.claims.beta == false',
      'visitor.claims.company.region != null',
      'visitor.claims.email != null',
      'visitor.claims.plan == "free"',
      'visitor.claims.plan == "pro"',
      'visitor.claims.seats != null',
      'visitor.claims.tags.length > 0',
      'visitor.claims["team-roles"].includes("owner")',
      'visitor.claims["team-roles"].includes("viewer")',
      'visitor.claims.unsigned.preview == true',
      'visitor.claims.unsigned.preview == false',
    ]);
    expect(found.items[5]).toEqual({ condition: 'visitor.claims.plan == "pro"', description: 'plan (Plan) is "pro"' });
    for (const { condition } of found.items) {
      const res = await admin.rest('PATCH', `${siteBase({ id: siteId, organization: organizationId })}/site-spaces/${siteSpaceId}`, { condition });
      expect(res.status, `${condition}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('answers no templates for a site without an adaptive schema; 404 for guests, outsiders, unknown sites and another organization', async () => {
    const bare = await insertSite(server, organizationId);
    expect(
      await expectCurrent('listSiteAdaptiveTemplateConditions', clientFor(reader).orgs.listSiteAdaptiveTemplateConditions(organizationId, bare.id)),
    ).toEqual({
      items: [],
    });
    await insertAdaptiveSchema(server, bare);
    expect((await clientFor(reader).orgs.listSiteAdaptiveTemplateConditions(organizationId, bare.id)).data).toEqual({ items: [] });
    for (const caller of [guest, outsider]) await expectRefused(clientFor(caller).orgs.listSiteAdaptiveTemplateConditions(organizationId, siteId), 404);
    await expectRefused(clientFor(reader).orgs.listSiteAdaptiveTemplateConditions(organizationId, 'no-such-site'), 404);
    const elsewhere = await newOrganizationWithRoles(server);
    await expectRefused(clientFor(elsewhere.admin).orgs.listSiteAdaptiveTemplateConditions(elsewhere.organization.id, siteId), 404);
  });
});
