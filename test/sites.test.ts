/**
 * Sites (contract §2.4, §4.7, §8): the site operations, the adaptive schema and the published view,
 * through both doors — REST /v1 and POST /graphql — on the real database.
 *
 * Sections, groups, site spaces and share links that a test needs are written straight into the
 * database with their entities, so that these tests depend only on the site operations themselves.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Space } from '../src/domain/spaces/index.js';
import { ShareLink, Site, SiteAdaptiveSchema, SiteSection, SiteSectionGroup, SiteSpace } from '../src/domain/sites/index.js';
import { createSpace, newOrganizationWithSpace } from './support/content.js';
import { expectAuthRequired, expectContract, expectError, expectGqlError, expectLimitsRefused } from './support/expectations.js';
import { gql, newMember, newOrganization, newOrganizationWithRoles, newUser, rest, type Caller, type Response } from './support/factories.js';
import { serverNow, useTestServer } from './support/server.js';
import { insertSection, insertSectionGroup, insertShareLink, insertSiteSpace, siteRow } from './support/sites.js';
import { countStatements } from './support/sql.js';

const SECOND = 1000;
const PUBLIC_URL = 'http://docs.test';

const server = useTestServer();

// Each test starts one second after the previous one ended, so creation times of separate tests never tie.
beforeEach(() => server.clock.advance(SECOND));

// ─── helpers ────────────────────────────────────────────────────────────────────────────────────────

const sitesPath = (organizationId: string) => `/v1/orgs/${organizationId}/sites`;
const sitePath = (organizationId: string, siteId: string) => `${sitesPath(organizationId)}/${siteId}`;

async function createSite(caller: Caller, organizationId: string, body: Record<string, unknown> = {}) {
  server.clock.advance(1); // sites list oldest first: distinct creation times keep the order of creation
  const res = await caller.rest('POST', sitesPath(organizationId), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function patchSite(caller: Caller, organizationId: string, siteId: string, body: unknown) {
  return caller.rest('PATCH', sitePath(organizationId, siteId), body);
}

/**
 * A site created through POST /sites (unlike newOrganizationWithSite's inserted row) in a new organization with
 * a member of each role; `organization` is the site's organization id, as the rows want.
 */
async function organizationWithCreatedSite(body: Record<string, unknown> = {}) {
  const team = await newOrganizationWithRoles(server);
  const site = await createSite(team.admin, team.organization.id, body);
  return { ...team, site: { ...site, organization: team.organization.id } as { id: string; organization: string; [key: string]: any } };
}

/** A valid adaptive schema: a boolean attribute, a string enum, and the reserved unsigned claims. */
const ADAPTIVE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    beta: { type: 'boolean', description: 'Whether the visitor is in the beta programme' },
    plan: { type: 'string', enum: ['free', 'pro'], description: 'The plan of the visitor' },
    seats: { type: 'number', description: 'How many seats the visitor pays for' },
    regions: { type: 'array', description: 'Regions', items: { type: 'string', description: 'A region code' } },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { language: { type: 'string', description: 'Preferred language' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

/** Every operation on one site, by method and path suffix under the site's path; a PATCH sets `title`. */
const siteOperations = (title: string): [method: string, suffix: string, body?: unknown][] => [
  ['GET', ''],
  ['PATCH', '', { title }],
  ['DELETE', ''],
  ['POST', '/publish'],
  ['GET', '/adaptive-schema'],
  ['PUT', '/adaptive-schema', { jsonSchema: ADAPTIVE_SCHEMA }],
  ['GET', '/published'],
];

const SITE_GQL = /* GraphQL */ `
  fragment G on Site {
    object id type title basename visibility published siteSpaces createdAt agentsContext
    proxy { origin target }
    adaptiveContent { enabled }
    features { id }
    urls { location app published }
  }
`;

// ─── authentication ─────────────────────────────────────────────────────────────────────────────────

describe('authentication', () => {
  it('answers 401 with the error body on every site operation without a token', async () => {
    const { organization, site } = await organizationWithCreatedSite();
    const calls: [string, string, unknown?][] = [
      ['GET', sitesPath(organization.id)],
      ['POST', sitesPath(organization.id), {}],
      ['GET', sitePath(organization.id, site.id)],
      ['PATCH', sitePath(organization.id, site.id), { title: 'New' }],
      ['DELETE', sitePath(organization.id, site.id)],
      ['POST', `${sitePath(organization.id, site.id)}/publish`],
      ['POST', `${sitePath(organization.id, site.id)}/unpublish`],
      ['GET', `${sitePath(organization.id, site.id)}/adaptive-schema`],
      ['PUT', `${sitePath(organization.id, site.id)}/adaptive-schema`, { jsonSchema: ADAPTIVE_SCHEMA }],
      ['GET', `${sitePath(organization.id, site.id)}/published`],
    ];
    await expectAuthRequired(server, calls, { badToken: false });
    const viaGraphql = await gql(server, null, `query($o: ID!) { sites(organizationId: $o) { count } }`, { o: organization.id });
    expectGqlError(viaGraphql, 'UNAUTHENTICATED');
    expect((await siteRow(server, site.id)).title).toBe('Untitled site');
  });

  it('answers 401 for a bad token', async () => {
    const { organization } = await organizationWithCreatedSite();
    const res = await rest(server, 'not-a-token', 'GET', sitesPath(organization.id));
    expect(res.status).toBe(401);
  });
});

// ─── createSite ─────────────────────────────────────────────────────────────────────────────────────

describe('POST /v1/orgs/{organizationId}/sites', () => {
  it('creates a basic, public, unpublished site titled "Untitled site" by default', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const res = await admin.rest('POST', sitesPath(organization.id), {});
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    expect(res.body).toEqual({
      object: 'site',
      id,
      type: 'basic',
      title: 'Untitled site',
      visibility: 'public',
      published: false,
      siteSpaces: 0,
      createdAt: serverNow(server),
      adaptiveContent: { enabled: false },
      agentsContext: 'included',
      features: [],
      // unpublished: no `published` URL
      urls: { location: `${PUBLIC_URL}/v1/orgs/${organization.id}/sites/${id}`, app: `${PUBLIC_URL}/o/${organization.id}/sites/${id}` },
    });
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expectContract('createSite', res);
    expect(await siteRow(server, id)).toMatchObject({ organization: organization.id, defaultSiteSpace: null, defaultSection: null });
  });

  it('takes a type, a title and a visibility', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const site = await createSite(admin, organization.id, { type: 'premium', title: 'Developer docs', visibility: 'share-link' });
    expect(site).toMatchObject({ type: 'premium', title: 'Developer docs', visibility: 'share-link', published: false });
    for (const type of ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium']) {
      expect((await createSite(admin, organization.id, { type })).type).toBe(type);
    }
    for (const visibility of ['public', 'unlisted', 'share-link', 'visitor-auth']) {
      expect((await createSite(admin, organization.id, { visibility })).visibility).toBe(visibility);
    }
  });

  it('holds the title to 2-128 characters', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    expect((await createSite(admin, organization.id, { title: 'ab' })).title).toBe('ab');
    expect((await createSite(admin, organization.id, { title: 'x'.repeat(128) })).title).toBe('x'.repeat(128));
    expectError(await admin.rest('POST', sitesPath(organization.id), { title: 'a' }), 400, 'title: must be at least 2 characters');
    expectError(await admin.rest('POST', sitesPath(organization.id), { title: 'x'.repeat(129) }), 400, 'title: must be at most 128 characters');
  });

  it('refuses unknown types, visibilities, fields and wrong JSON types', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const path = sitesPath(organization.id);
    expectError(await admin.rest('POST', path, { type: 'gold' }), 400, /^type: must be one of: basic, premium, ultimate/);
    expectError(await admin.rest('POST', path, { visibility: 'private' }), 400, 'visibility: must be one of: public, unlisted, share-link, visitor-auth');
    expectError(await admin.rest('POST', path, { colour: 'red' }), 400, 'colour: unknown field');
    expectError(await admin.rest('POST', path, { title: 42 }), 400, /^title: /);
    expectError(await admin.rest('POST', path, '[1, 2]'), 400, /^body: /);
    expect(await server.em().count(Site, { organization: organization.id })).toBe(0);
  });

  it('publishes the listed spaces at the root level in order, with paths made from their titles; the first is the default', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const guide = await createSpace(admin, organization.id, 'Getting started');
    const again = await createSpace(admin, organization.id, 'Getting Started!');
    const api = await createSpace(admin, organization.id, 'API Référence');
    const site = await createSite(admin, organization.id, { title: 'Docs', spaces: [guide.id, again.id, api.id] });
    expect(site.siteSpaces).toBe(3);
    const res = await admin.gql(
      `query($id: ID!) { site(id: $id) {
        siteSpaceList { items { id path section space { id } } }
        defaultSiteSpace { id space { id } }
        structure { type structure { ... on SiteSpace { id path } } }
      } }`,
      { id: site.id },
    );
    expect(res.errors).toBeUndefined();
    const items = res.data.site.siteSpaceList.items;
    expect(items.map((s: { path: string; space: { id: string }; section: string | null }) => [s.path, s.space.id, s.section])).toEqual([
      ['getting-started', guide.id, null],
      ['getting-started-2', again.id, null],
      ['api-reference', api.id, null],
    ]);
    expect(res.data.site.defaultSiteSpace.space.id).toBe(guide.id);
    expect(res.data.site.structure).toEqual({ type: 'siteSpaces', structure: items.map((s: { id: string; path: string }) => ({ id: s.id, path: s.path })) });
  });

  it('creates a new space named after the site for "empty" and "sample"', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    for (const spaces of ['empty', 'sample']) {
      server.clock.advance(SECOND);
      const site = await createSite(admin, organization.id, { title: `Handbook ${spaces}`, spaces });
      expect(site.siteSpaces).toBe(1);
      const [siteSpace] = await server.em().find(SiteSpace, { site: site.id });
      const space = await server.em().findOneOrFail(Space, { id: siteSpace.space });
      expect(space).toMatchObject({ organization: organization.id, title: `Handbook ${spaces}`, deletedAt: null });
      expect(siteSpace).toMatchObject({ section: null, path: `handbook-${spaces}` });
      expect((await siteRow(server, site.id)).defaultSiteSpace).toBe(siteSpace.id);
    }
    const spaces = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(spaces.body.items.map((s: { title: string }) => s.title)).toEqual(['Handbook empty', 'Handbook sample']);
  });

  it('refuses `spaces` that are not spaces of the organization, listed twice, deleted, or malformed', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin);
    const mine = await createSpace(admin, organization.id);
    const theirs = await createSpace(admin, other.id);
    const deleted = await createSpace(admin, organization.id);
    expect((await admin.rest('DELETE', `/v1/spaces/${deleted.id}`)).status).toBe(204);
    const path = sitesPath(organization.id);
    expectError(await admin.rest('POST', path, { spaces: [mine.id, 'nope'] }), 400, 'spaces.1: no space "nope" in this organization');
    expectError(await admin.rest('POST', path, { spaces: [theirs.id] }), 400, `spaces.0: no space "${theirs.id}" in this organization`);
    expectError(await admin.rest('POST', path, { spaces: [deleted.id] }), 400, `spaces.0: no space "${deleted.id}" in this organization`);
    expectError(await admin.rest('POST', path, { spaces: [mine.id, mine.id] }), 400, `spaces.1: space "${mine.id}" is listed twice`);
    const malformed = 'spaces: must be an array of space ids, or "empty" or "sample"';
    expectError(await admin.rest('POST', path, { spaces: 'full' }), 400, malformed);
    expectError(await admin.rest('POST', path, { spaces: [1, 2] }), 400, malformed);
    expectError(await admin.rest('POST', path, { spaces: { id: mine.id } }), 400, malformed);
    expect(await server.em().count(Site, { organization: organization.id })).toBe(0);
    // An empty list is a site without content.
    expect((await createSite(admin, organization.id, { spaces: [] })).siteSpaces).toBe(0);
  });

  it('creates through GraphQL too, with the same rules', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const created = await admin.gql(
      `mutation($o: ID!, $input: CreateSiteInput!) { createSite(organizationId: $o, input: $input) { ...G owningOrganization { id } } } ${SITE_GQL}`,
      { o: organization.id, input: { title: 'Via GraphQL', type: 'ultimate' } },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createSite).toMatchObject({
      object: 'site',
      type: 'ultimate',
      title: 'Via GraphQL',
      visibility: 'public',
      published: false,
      basename: null,
      proxy: null,
      owningOrganization: { id: organization.id },
    });
    const refused = await admin.gql(`mutation($o: ID!) { createSite(organizationId: $o, input: { title: "x" }) { id } }`, { o: organization.id });
    expectGqlError(refused, 'BAD_REQUEST', 'title: must be at least 2 characters');
  });
});

// ─── getSiteById and listSites ──────────────────────────────────────────────────────────────────────

describe('GET /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('answers the site as created, conforming to the reference', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite({ title: 'Docs' });
    const res = await admin.rest('GET', sitePath(organization.id, site.id));
    expect(res.status).toBe(200);
    const { organization: _, ...created } = site;
    expect(res.body).toEqual(created);
    expectContract('getSiteById', res);
  });

  it('answers 404 for an unknown site', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    expectError(await admin.rest('GET', sitePath(organization.id, 'no-such-site')), 404, 'Site not found');
  });
});

describe('GET /v1/orgs/{organizationId}/sites', () => {
  it("lists the organization's sites oldest first, and only them", async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin);
    const first = await createSite(admin, organization.id, { title: 'First' });
    server.clock.advance(SECOND);
    const second = await createSite(admin, organization.id, { title: 'Second' });
    await createSite(admin, other.id, { title: 'Elsewhere' });
    const res = await read.rest('GET', sitesPath(organization.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [first, second], count: 2 });
    expectContract('listSites', res);
  });

  it('filters by a published space, a title (case-insensitive contains), the published flag and types', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, 'Shared');
    const alpha = await createSite(admin, organization.id, { title: 'Alpha Docs', type: 'premium', spaces: [space.id] });
    const beta = await createSite(admin, organization.id, { title: 'Beta docs', type: 'ultimate' });
    const gamma = await createSite(admin, organization.id, { title: 'Gamma', spaces: [space.id] });
    expect((await admin.rest('POST', `${sitePath(organization.id, beta.id)}/publish`)).status).toBe(200);
    const ids = async (query: string) => {
      const res = await admin.rest('GET', `${sitesPath(organization.id)}${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.count).toBe(res.body.items.length);
      return res.body.items.map((s: { id: string }) => s.id);
    };
    expect(await ids(`?space=${space.id}`)).toEqual([alpha.id, gamma.id]);
    expect(await ids('?space=no-such-space')).toEqual([]);
    expect(await ids('?title=DOCS')).toEqual([alpha.id, beta.id]);
    expect(await ids('?title=amm')).toEqual([gamma.id]);
    expect(await ids('?published=true')).toEqual([beta.id]);
    expect(await ids('?published=false')).toEqual([alpha.id, gamma.id]);
    expect(await ids('?type=basic')).toEqual([gamma.id]);
    expect(await ids('?type=premium,ultimate')).toEqual([alpha.id, beta.id]);
    expect(await ids('?type=premium&type=basic')).toEqual([alpha.id, gamma.id]);
    expect(await ids(`?space=${space.id}&title=gam&published=false&type=basic`)).toEqual([gamma.id]);
    expectError(await admin.rest('GET', `${sitesPath(organization.id)}?type=gold`), 400, /^type: must be one of: basic/);
    expectError(await admin.rest('GET', `${sitesPath(organization.id)}?published=yes`), 400, 'published: must be true or false');

    const viaGraphql = await admin.gql(`query($o: ID!, $s: ID) { sites(organizationId: $o, space: $s, type: ["basic"]) { items { id } count } }`, {
      o: organization.id,
      s: space.id,
    });
    expect(viaGraphql.data.sites).toEqual({ items: [{ id: gamma.id }], count: 1 });
  });

  it('pages with keyset cursors and holds `limit` to 1-1000', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const titles = ['S0', 'S1', 'S2', 'S3', 'S4'];
    for (const title of titles) {
      server.clock.advance(SECOND);
      await createSite(admin, organization.id, { title });
    }
    const pageOf = (res: Response) => res.body.items.map((s: { title: string }) => s.title);
    const first = await admin.rest('GET', `${sitesPath(organization.id)}?limit=2`);
    expect(pageOf(first)).toEqual(['S0', 'S1']);
    expect(first.body.count).toBe(5);
    const second = await admin.rest('GET', `${sitesPath(organization.id)}?limit=2&page=${first.body.next.page}`);
    expect(pageOf(second)).toEqual(['S2', 'S3']);
    const third = await admin.rest('GET', `${sitesPath(organization.id)}?limit=2&page=${second.body.next.page}`);
    expect(pageOf(third)).toEqual(['S4']);
    expect(third.body.next).toBeUndefined();
    expect((await admin.rest('GET', `${sitesPath(organization.id)}?limit=1000`)).status).toBe(200);
    await expectLimitsRefused(admin, sitesPath(organization.id), [0, 1001]);
    expectError(await admin.rest('GET', `${sitesPath(organization.id)}?page=garbage`), 400, 'page: not a page identifier returned by this list');
  });
});

// ─── updateSiteById ─────────────────────────────────────────────────────────────────────────────────

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('changes the title, visibility, basename, adaptive content and agents context', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const res = await patchSite(admin, organization.id, site.id, {
      title: 'Renamed',
      visibility: 'unlisted',
      basename: 'docs/api',
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: site.id,
      title: 'Renamed',
      visibility: 'unlisted',
      basename: 'docs/api',
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
      createdAt: site.createdAt,
    });
    expectContract('updateSiteById', res);
    expect((await siteRow(server, site.id)).updatedAt.toISOString()).toBe(serverNow(server));
    // Omitted fields keep their values; null removes the basename.
    const again = await patchSite(admin, organization.id, site.id, { basename: null });
    expect(again.body).toMatchObject({ title: 'Renamed', visibility: 'unlisted', adaptiveContent: { enabled: true } });
    expect(again.body.basename).toBeUndefined();
  });

  it('holds title to 2-128, basename to 1-100 characters of URL path, and the enumerations', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const patch = (body: unknown) => patchSite(admin, organization.id, site.id, body);
    expect((await patch({ title: 'ab', basename: 'b'.repeat(100) })).status).toBe(200);
    expect((await patch({ title: 'x'.repeat(128), basename: 'v' })).status).toBe(200);
    expectError(await patch({ title: 'a' }), 400, 'title: must be at least 2 characters');
    expectError(await patch({ title: 'x'.repeat(129) }), 400, 'title: must be at most 128 characters');
    expectError(await patch({ basename: '' }), 400, 'basename: must be at least 1 character');
    expectError(await patch({ basename: 'b'.repeat(101) }), 400, 'basename: must be at most 100 characters');
    expectError(await patch({ basename: 'my docs' }), 400, /^basename: must be a URL path/);
    expectError(await patch({ basename: '/docs' }), 400, /^basename: must be a URL path/);
    expectError(await patch({ visibility: 'private' }), 400, 'visibility: must be one of: public, unlisted, share-link, visitor-auth');
    expectError(await patch({ agentsContext: 'sometimes' }), 400, 'agentsContext: must be one of: excluded, included');
    expectError(await patch({ adaptiveContent: {} }), 400, 'adaptiveContent.enabled: is required');
    expectError(await patch({ adaptiveContent: { enabled: 'yes' } }), 400, /^adaptiveContent\.enabled: /);
    expectError(await patch({ hostname: 'docs.example.com' }), 400, 'hostname: unknown field');
    expectError(await patch({ title: null }), 400, 'title: must be a string');
    expect((await siteRow(server, site.id)).title).toBe('x'.repeat(128));
  });

  it("sets a proxy origin whose target is the site's own address, removes it with null, and keeps origins unique", async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const set = await patchSite(admin, organization.id, site.id, { proxy: 'www.example.com/developer/docs', basename: 'v2' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.proxy).toEqual({ origin: 'www.example.com/developer/docs', target: `${PUBLIC_URL}/sites/${site.id}/v2` });
    expectContract('updateSiteById', set);
    for (const bad of ['example.com', 'https://example.com/docs', 'example/docs', 'example.com/docs/', 'example.c/docs']) {
      expectError(await patchSite(admin, organization.id, site.id, { proxy: bad }), 400, 'proxy: must be a host followed by a path, such as company.com/docs');
    }
    expectError(await patchSite(admin, organization.id, site.id, { proxy: `example.com/${'a'.repeat(501)}` }), 400, 'proxy: must be at most 512 characters');
    const other = await createSite(admin, organization.id);
    expectError(
      await patchSite(admin, organization.id, other.id, { proxy: 'www.example.com/developer/docs' }),
      409,
      'proxy: "www.example.com/developer/docs" is already the proxy of another site',
    );
    const removed = await patchSite(admin, organization.id, site.id, { proxy: null });
    expect(removed.body.proxy).toBeUndefined();
    expect((await patchSite(admin, organization.id, other.id, { proxy: 'www.example.com/developer/docs' })).status).toBe(200);
  });

  it('sets the root default site space of a site without sections', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const a = await createSpace(admin, organization.id, 'A');
    const b = await createSpace(admin, organization.id, 'B');
    const site = await createSite(admin, organization.id, { spaces: [a.id, b.id] });
    const [, second] = await server.em().find(SiteSpace, { site: site.id }, { orderBy: { position: 'asc' } });
    const res = await patchSite(admin, organization.id, site.id, { defaultSiteSpace: second.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBe(second.id);
    const view = await admin.gql(`query($id: ID!) { site(id: $id) { defaultSiteSpace { id } defaultSiteSection { id } } }`, { id: site.id });
    expect(view.data.site).toEqual({ defaultSiteSpace: { id: second.id }, defaultSiteSection: null });
    expectError(await patchSite(admin, organization.id, site.id, { defaultSiteSpace: 'nope' }), 400, 'defaultSiteSpace: no site space "nope" in this site');
    const elsewhere = await createSite(admin, organization.id, { spaces: [a.id] });
    const [foreign] = await server.em().find(SiteSpace, { site: elsewhere.id });
    expectError(
      await patchSite(admin, organization.id, site.id, { defaultSiteSpace: foreign.id }),
      400,
      `defaultSiteSpace: no site space "${foreign.id}" in this site`,
    );
    expectError(await patchSite(admin, organization.id, site.id, { defaultSiteSection: 'nope' }), 400, 'defaultSiteSection: no section "nope" in this site');
  });

  it('in a site with sections, sets the default section and the default site space of the default section', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const space = await createSpace(admin, organization.id, 'Space');
    const first = await insertSection(server, site, { title: 'First', path: 'first', position: 'a0' });
    const second = await insertSection(server, site, { title: 'Second', path: 'second', position: 'a1' });
    const inFirst = await insertSiteSpace(server, site, { space: space.id, path: 'v1', position: 'a0', section: first.id });
    const v1 = await insertSiteSpace(server, site, { space: space.id, path: 'v1', position: 'a0', section: second.id });
    const v2 = await insertSiteSpace(server, site, { space: space.id, path: 'v2', position: 'a1', section: second.id });

    // Without a named default, the first section in navigation order and its first site space stand in.
    const before = await admin.gql(`query($id: ID!) { site(id: $id) { defaultSiteSection { id } defaultSiteSpace { id } } }`, { id: site.id });
    expect(before.data.site).toEqual({ defaultSiteSection: { id: first.id }, defaultSiteSpace: { id: inFirst.id } });

    const res = await patchSite(admin, organization.id, site.id, { defaultSiteSection: second.id, defaultSiteSpace: v2.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await siteRow(server, site.id)).defaultSection).toBe(second.id);
    expect((await server.em().findOneOrFail(SiteSection, { id: second.id })).defaultSiteSpace).toBe(v2.id);
    const after = await admin.gql(`query($id: ID!) { site(id: $id) { defaultSiteSection { id } defaultSiteSpace { id } } }`, { id: site.id });
    expect(after.data.site).toEqual({ defaultSiteSection: { id: second.id }, defaultSiteSpace: { id: v2.id } });

    expectError(
      await patchSite(admin, organization.id, site.id, { defaultSiteSpace: inFirst.id }),
      400,
      `defaultSiteSpace: site space "${inFirst.id}" is not in the site's default section`,
    );
    expect((await patchSite(admin, organization.id, site.id, { defaultSiteSpace: v1.id })).status).toBe(200);
    expect((await server.em().findOneOrFail(SiteSection, { id: second.id })).defaultSiteSpace).toBe(v1.id);
  });

  it('updates through GraphQL, with or without the organization', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const res = await admin.gql(`mutation($id: ID!, $o: ID) { updateSite(id: $id, organizationId: $o, input: { title: "Graph" }) { title } }`, {
      id: site.id,
    });
    expect(res.data.updateSite.title).toBe('Graph');
    const scoped = await admin.gql(`mutation($id: ID!, $o: ID) { updateSite(id: $id, organizationId: $o, input: { title: "Scoped" }) { title } }`, {
      id: site.id,
      o: organization.id,
    });
    expect(scoped.data.updateSite.title).toBe('Scoped');
  });
});

// ─── publish, unpublish ─────────────────────────────────────────────────────────────────────────────

describe('publishing', () => {
  it('POST .../publish and .../unpublish switch the published flag and the published URL', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const published = await admin.rest('POST', `${sitePath(organization.id, site.id)}/publish`);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ id: site.id, published: true, urls: { published: `${PUBLIC_URL}/sites/${site.id}` } });
    expectContract('publishSite', published);
    // Publishing twice changes nothing.
    expect((await admin.rest('POST', `${sitePath(organization.id, site.id)}/publish`)).body.published).toBe(true);
    const unpublished = await admin.rest('POST', `${sitePath(organization.id, site.id)}/unpublish`);
    expect(unpublished.body.published).toBe(false);
    expect(unpublished.body.urls.published).toBeUndefined();
    expectContract('unpublishSite', unpublished);

    const viaGraphql = await admin.gql(`mutation($id: ID!) { publishSite(id: $id) { published urls { published } } }`, { id: site.id });
    expect(viaGraphql.data.publishSite).toEqual({ published: true, urls: { published: `${PUBLIC_URL}/sites/${site.id}` } });
    const off = await admin.gql(`mutation($id: ID!) { unpublishSite(id: $id) { published } }`, { id: site.id });
    expect(off.data.unpublishSite.published).toBe(false);
  });
});

// ─── deleteSiteById ─────────────────────────────────────────────────────────────────────────────────

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('deletes the site with its sections, groups, site spaces, share links and adaptive schema; the spaces stay', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, 'Kept');
    const created = await createSite(admin, organization.id, { spaces: [space.id] });
    const site = { id: created.id as string, organization: organization.id };
    const group = await insertSectionGroup(server, site, { title: 'G', position: 'a0' });
    const section = await insertSection(server, site, { title: 'S', path: 's', position: 'a0', sectionGroup: group.id });
    await insertSiteSpace(server, site, { space: space.id, path: 'in-section', position: 'a0', section: section.id });
    await insertShareLink(server, site);
    expect((await admin.rest('PUT', `${sitePath(organization.id, site.id)}/adaptive-schema`, { jsonSchema: ADAPTIVE_SCHEMA })).status).toBe(200);

    const res = await admin.rest('DELETE', sitePath(organization.id, site.id));
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectError(await admin.rest('GET', sitePath(organization.id, site.id)), 404, 'Site not found');
    const em = server.em();
    for (const entity of [SiteSection, SiteSectionGroup, SiteSpace, ShareLink, SiteAdaptiveSchema] as const) {
      expect(await em.count(entity as typeof SiteSpace, { site: site.id }), entity.meta?.className ?? String(entity)).toBe(0);
    }
    const kept = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body.deletedAt).toBeUndefined();
    // A second delete finds nothing.
    expectError(await admin.rest('DELETE', sitePath(organization.id, site.id)), 404, 'Site not found');
  });

  it('deletes through GraphQL', async () => {
    const { admin, site } = await organizationWithCreatedSite();
    const res = await admin.gql(`mutation($id: ID!) { deleteSite(id: $id) }`, { id: site.id });
    expect(res.data.deleteSite).toBe(true);
    expect(await server.em().findOne(Site, { id: site.id })).toBeNull();
  });
});

// ─── adaptive schema ────────────────────────────────────────────────────────────────────────────────

describe('adaptive schema', () => {
  const schemaPath = (organizationId: string, siteId: string) => `${sitePath(organizationId, siteId)}/adaptive-schema`;

  it('answers 404 until one is set, then stores and answers it with the time of the change', async () => {
    const { organization, admin, read, site } = await organizationWithCreatedSite();
    expectError(await admin.rest('GET', schemaPath(organization.id, site.id)), 404, 'Site adaptive schema not found');
    const put = await admin.rest('PUT', schemaPath(organization.id, site.id), { jsonSchema: ADAPTIVE_SCHEMA });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ object: 'site-adaptive-schema', jsonSchema: ADAPTIVE_SCHEMA, updatedAt: serverNow(server) });
    expectContract('updateSiteAdaptiveSchema', put);
    const got = await read.rest('GET', schemaPath(organization.id, site.id));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
    expectContract('getSiteAdaptiveSchema', got);

    server.clock.advance(60 * SECOND);
    const minimal = { type: 'object', properties: {}, additionalProperties: false };
    const replaced = await admin.rest('PUT', schemaPath(organization.id, site.id), { jsonSchema: minimal });
    expect(replaced.body).toEqual({ object: 'site-adaptive-schema', jsonSchema: minimal, updatedAt: serverNow(server) });
    expect(await server.em().count(SiteAdaptiveSchema, { site: site.id })).toBe(1);

    const viaGraphql = await admin.gql(`query($id: ID!) { site(id: $id) { adaptiveSchema { object jsonSchema updatedAt } } }`, { id: site.id });
    expect(viaGraphql.data.site.adaptiveSchema).toEqual(replaced.body);
  });

  it("refuses schemas that are not the reference's shape of visitor attributes, saying why", async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const put = (jsonSchema: unknown) => admin.rest('PUT', schemaPath(organization.id, site.id), { jsonSchema });
    const withAttribute = (attribute: unknown) => ({ type: 'object', properties: { attribute }, additionalProperties: false });
    const cases: [unknown, string | RegExp][] = [
      ['a string', 'jsonSchema: must be a JSON Schema object'],
      [[], 'jsonSchema: must be a JSON Schema object'],
      [{ type: 'array', properties: {}, additionalProperties: false }, 'jsonSchema.type: must be "object"'],
      [{ type: 'object', properties: {} }, 'jsonSchema.additionalProperties: must be false'],
      [{ type: 'object', additionalProperties: false }, 'jsonSchema.properties: must be an object mapping attribute names to their schemas'],
      [{ type: 'object', properties: {}, additionalProperties: false, required: [] }, /^jsonSchema: unknown keyword "required"/],
      [
        { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {}, additionalProperties: false },
        'jsonSchema.$schema: must be "http://json-schema.org/draft-07/schema#" (draft-07)',
      ],
      [withAttribute({ type: 'boolean' }), 'jsonSchema.properties.attribute.description: is required: a string that describes the attribute'],
      [withAttribute({ type: 'date', description: 'd' }), 'jsonSchema.properties.attribute.type: must be one of: boolean, string, number, array, object'],
      [withAttribute('boolean'), 'jsonSchema.properties.attribute: must be an object: the schema of the attribute'],
      [withAttribute({ type: 'boolean', description: 'd', default: true }), /^jsonSchema\.properties\.attribute: unknown keyword "default"/],
      [withAttribute({ type: 'string', description: 'd', enum: [] }), 'jsonSchema.properties.attribute.enum: must be a non-empty array of strings'],
      [withAttribute({ type: 'string', description: 'd', enum: [1] }), 'jsonSchema.properties.attribute.enum: must be a non-empty array of strings'],
      [withAttribute({ type: 'array', description: 'd' }), /^jsonSchema\.properties\.attribute\.items: is required/],
      [
        withAttribute({ type: 'array', description: 'd', items: { type: 'object', description: 'o', properties: {}, additionalProperties: false } }),
        'jsonSchema.properties.attribute.items.type: must be one of: boolean, string, number',
      ],
      [withAttribute({ type: 'object', description: 'd', properties: {} }), 'jsonSchema.properties.attribute.additionalProperties: must be false'],
      [
        withAttribute({ type: 'object', description: 'd', properties: { inner: { type: 'number' } }, additionalProperties: false }),
        'jsonSchema.properties.attribute.properties.inner.description: is required: a string that describes the attribute',
      ],
      [
        {
          type: 'object',
          properties: { unsigned: { type: 'object', description: 'Mine', properties: {}, additionalProperties: false } },
          additionalProperties: false,
        },
        'jsonSchema.properties.unsigned.description: must be "Unsigned claims of the site visitor."',
      ],
      [
        { type: 'object', properties: { unsigned: { type: 'boolean', description: 'Unsigned claims of the site visitor.' } }, additionalProperties: false },
        'jsonSchema.properties.unsigned.type: must be "object" (unsigned claims)',
      ],
    ];
    for (const [jsonSchema, message] of cases) expectError(await put(jsonSchema), 400, message);

    // Objects nest at most 10 deep: a bound on what one request may ask of the server.
    let deep: Record<string, unknown> = { type: 'boolean', description: 'leaf' };
    for (let i = 0; i < 12; i++) deep = { type: 'object', description: `level ${i}`, properties: { next: deep }, additionalProperties: false };
    expectError(await put(withAttribute(deep)), 400, /attributes may nest at most 10 objects deep$/);

    expectError(await admin.rest('PUT', schemaPath(organization.id, site.id), {}), 400, 'jsonSchema: is required');
    expectError(await admin.rest('PUT', schemaPath(organization.id, site.id), { jsonSchema: ADAPTIVE_SCHEMA, extra: 1 }), 400, 'extra: unknown field');
    expect(await server.em().count(SiteAdaptiveSchema, { site: site.id })).toBe(0);
  });

  it('refuses (409) a schema that drops an attribute a condition of the site reads', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite();
    const space = await createSpace(admin, organization.id);
    expect((await admin.rest('PUT', schemaPath(organization.id, site.id), { jsonSchema: ADAPTIVE_SCHEMA })).status).toBe(200);
    const section = await insertSection(server, site, { title: 'Pro', path: 'pro', position: 'a0', condition: 'visitor.claims.plan === "pro"' });
    await insertSiteSpace(server, site, { space: space.id, path: 'p', position: 'a0', section: section.id, condition: 'visitor.claims.beta' });
    const withoutPlan = { ...ADAPTIVE_SCHEMA, properties: { beta: ADAPTIVE_SCHEMA.properties.beta } };
    expectError(
      await admin.rest('PUT', schemaPath(organization.id, site.id), { jsonSchema: withoutPlan }),
      409,
      new RegExp(`^jsonSchema: the condition of site section "${section.id}" would no longer hold`),
    );
    const withoutBeta = { ...ADAPTIVE_SCHEMA, properties: { plan: ADAPTIVE_SCHEMA.properties.plan } };
    expectError(await admin.rest('PUT', schemaPath(organization.id, site.id), { jsonSchema: withoutBeta }), 409, /the condition of site space "/);
    const stored = await server.em().findOneOrFail(SiteAdaptiveSchema, { site: site.id });
    expect(stored.jsonSchema).toEqual(ADAPTIVE_SCHEMA);
  });

  it('works through GraphQL', async () => {
    const { admin, site } = await organizationWithCreatedSite();
    const res = await admin.gql(`mutation($id: ID!, $s: JSON!) { updateSiteAdaptiveSchema(siteId: $id, jsonSchema: $s) { object updatedAt } }`, {
      id: site.id,
      s: ADAPTIVE_SCHEMA,
    });
    expect(res.data.updateSiteAdaptiveSchema).toEqual({ object: 'site-adaptive-schema', updatedAt: serverNow(server) });
    const got = await admin.gql(`query($id: ID!) { siteAdaptiveSchema(siteId: $id) { jsonSchema } }`, { id: site.id });
    expect(got.data.siteAdaptiveSchema.jsonSchema).toEqual(ADAPTIVE_SCHEMA);
    const refused = await admin.gql(`mutation($id: ID!) { updateSiteAdaptiveSchema(siteId: $id, jsonSchema: { type: "string" }) { object } }`, { id: site.id });
    expectGqlError(refused, 'BAD_REQUEST', 'jsonSchema.type: must be "object"');
  });
});

// ─── the published view ─────────────────────────────────────────────────────────────────────────────

/** Every key of the customization tree that the contract lists or the reference requires. */
const CUSTOMIZATION_KEYS = [
  'title',
  'styling',
  'internationalization',
  'favicon',
  'header',
  'footer',
  'announcement',
  'themes',
  'pdf',
  'feedback',
  'aiSearch',
  'ai',
  'advancedCustomization',
  'git',
  'pageActions',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
  'insights',
];

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/published', () => {
  const publishedPath = (organizationId: string, siteId: string, shareKey?: string) =>
    `${sitePath(organizationId, siteId)}/published${shareKey ? `?shareKey=${encodeURIComponent(shareKey)}` : ''}`;

  it('answers a site without sections with its root-level site spaces and the default customization tree', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const a = await createSpace(admin, organization.id, 'Alpha');
    const b = await createSpace(admin, organization.id, 'Beta');
    const site = await createSite(admin, organization.id, { title: 'Handbook', spaces: [a.id, b.id] });
    const res = await read.rest('GET', publishedPath(organization.id, site.id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.object).toBe('published-content-site');
    const { organization: _, ...siteBody } = site;
    expect(res.body.site).toEqual(siteBody);
    expect(res.body.structure.type).toBe('siteSpaces');
    expect(res.body.structure.structure.map((s: { object: string; path: string; space: { id: string } }) => [s.object, s.path, s.space.id])).toEqual([
      ['site-space', 'alpha', a.id],
      ['site-space', 'beta', b.id],
    ]);
    expect(res.body.scripts).toEqual([]);
    expect(res.body.customizations.siteSpaces).toEqual({});
    const tree = res.body.customizations.site;
    expect(Object.keys(tree).sort()).toEqual([...CUSTOMIZATION_KEYS].sort());
    expect(tree).toMatchObject({
      title: 'Handbook',
      styling: {
        theme: 'clean',
        primaryColor: { light: '#346DDB', dark: '#346DDB' },
        corners: 'rounded',
        font: 'Inter',
        icons: 'regular',
        sidebar: { background: 'default', list: 'default' },
        search: 'subtle',
      },
      internationalization: { locale: 'en' },
      header: { links: [] },
      footer: { groups: [] },
      announcement: { enabled: false, style: 'info' },
      themes: { default: 'light', toggeable: true },
      pdf: { enabled: true },
      feedback: { enabled: false },
      aiSearch: { enabled: true },
      ai: { pageLinkSummaries: { enabled: false } },
    });
    expectContract('getPublishedContentSite', res);
  });

  it('answers a site with sections with its top-level sections and groups in position order', async () => {
    const { organization, admin, site } = await organizationWithCreatedSite({ title: 'Platform' });
    const space = await createSpace(admin, organization.id, 'Guide');
    const last = await insertSection(server, site, { title: 'Last', path: 'last', position: 'a3' });
    const group = await insertSectionGroup(server, site, { title: 'Products', position: 'a1' });
    const grouped = await insertSection(server, site, { title: 'Grouped', path: 'grouped', position: 'a0', sectionGroup: group.id });
    const first = await insertSection(server, site, { title: 'First', path: 'first', position: 'a0' });
    await insertSiteSpace(server, site, { space: space.id, path: 'guide', position: 'a0', section: first.id });
    await insertSiteSpace(server, site, { space: space.id, path: 'guide', position: 'a0', section: grouped.id });
    await insertSiteSpace(server, site, { space: space.id, path: 'guide', position: 'a0', section: last.id });

    const res = await admin.rest('GET', publishedPath(organization.id, site.id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { structure } = res.body;
    expect(structure.type).toBe('sections');
    expect(structure.structure.map((item: { object: string; id: string }) => [item.object, item.id])).toEqual([
      ['site-section', first.id],
      ['site-section-group', group.id],
      ['site-section', last.id],
    ]);
    expect(structure.structure[1].sections.map((s: { id: string }) => s.id)).toEqual([grouped.id]);
    expect(structure.structure[0].siteSpaces.map((s: { path: string }) => s.path)).toEqual(['guide']);
    expectContract('getPublishedContentSite', res);

    // The same structure through GraphQL, where the union resolves each item's type.
    const viaGraphql = await admin.gql(
      `query($id: ID!) { publishedContentSite(siteId: $id) { structure { type structure { __typename ... on SiteSection { id } ... on SiteSectionGroup { id } } } } }`,
      { id: site.id },
    );
    expect(viaGraphql.data.publishedContentSite.structure).toEqual({
      type: 'sections',
      structure: [
        { __typename: 'SiteSection', id: first.id },
        { __typename: 'SiteSectionGroup', id: group.id },
        { __typename: 'SiteSection', id: last.id },
      ],
    });
  });

  it('opens a published share-link site to an outsider holding an active share key, and to nobody else', async () => {
    const { organization, admin, outsider, site } = await organizationWithCreatedSite({ visibility: 'share-link' });
    const other = await createSite(admin, organization.id, { visibility: 'share-link' });
    const link = await insertShareLink(server, site);
    const inactive = await insertShareLink(server, site, { active: false });
    const otherLink = await insertShareLink(server, { id: other.id, organization: organization.id });
    expect((await admin.rest('POST', `${sitePath(organization.id, site.id)}/publish`)).status).toBe(200);

    const opened = await outsider.rest('GET', publishedPath(organization.id, site.id, link.key));
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toMatchObject({ object: 'published-content-site', site: { id: site.id, visibility: 'share-link', published: true } });
    expectContract('getPublishedContentSite', opened);

    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id)), 404, 'Site not found');
    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id, inactive.key)), 404, 'Site not found');
    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id, otherLink.key)), 404, 'Site not found');
    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id, 'guess')), 404, 'Site not found');
    // The key opens the published view only, not the site's settings.
    expectError(await outsider.rest('GET', `${sitePath(organization.id, site.id)}?shareKey=${link.key}`), 404, 'Site not found');

    // A link turned off, or deleted, stops working at once.
    const em = server.em();
    await em.nativeUpdate(ShareLink, { id: link.id }, { active: false });
    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id, link.key)), 404, 'Site not found');
    await em.nativeUpdate(ShareLink, { id: link.id }, { active: true });
    expect((await outsider.rest('GET', publishedPath(organization.id, site.id, link.key))).status).toBe(200);
    await em.nativeDelete(ShareLink, { id: link.id });
    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id, link.key)), 404, 'Site not found');
  });

  it('keeps an unpublished site, or one not shared by link, closed to share keys', async () => {
    const { organization, admin, read, guest, outsider, site } = await organizationWithCreatedSite({ visibility: 'share-link' });
    const link = await insertShareLink(server, site);
    // Unpublished: visitors cannot see it, guests included; members who may read it can (a preview).
    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id, link.key)), 404, 'Site not found');
    expectError(await guest.rest('GET', publishedPath(organization.id, site.id, link.key)), 404, 'Site not found');
    expect((await admin.rest('GET', publishedPath(organization.id, site.id))).status).toBe(200);
    expect((await read.rest('GET', publishedPath(organization.id, site.id))).status).toBe(200);
    await admin.rest('POST', `${sitePath(organization.id, site.id)}/publish`);
    expect((await guest.rest('GET', publishedPath(organization.id, site.id, link.key))).status).toBe(200);
    expect((await outsider.rest('GET', publishedPath(organization.id, site.id, link.key))).status).toBe(200);
    // Published but public: a share key opens nothing for outsiders (they are not visitors of this API).
    await patchSite(admin, organization.id, site.id, { visibility: 'public' });
    await admin.rest('POST', `${sitePath(organization.id, site.id)}/publish`);
    expectError(await outsider.rest('GET', publishedPath(organization.id, site.id, link.key)), 404, 'Site not found');
  });

  it('shows a share-key visitor the published site but neither its organization nor its share links', async () => {
    const { organization, admin, outsider, site } = await organizationWithCreatedSite({ visibility: 'share-link' });
    const link = await insertShareLink(server, site);
    await admin.rest('POST', `${sitePath(organization.id, site.id)}/publish`);
    const query = `query($id: ID!, $key: String) { publishedContentSite(siteId: $id, shareKey: $key) { site { id FIELD } } }`;
    const plain = await outsider.gql(query.replace('FIELD', 'title'), { id: site.id, key: link.key });
    expect(plain.data.publishedContentSite.site).toEqual({ id: site.id, title: 'Untitled site' });
    expectGqlError(await outsider.gql(query.replace('FIELD', 'owningOrganization { id }'), { id: site.id, key: link.key }), 'NOT_FOUND');
    expectGqlError(await outsider.gql(query.replace('FIELD', 'shareLinks { count }'), { id: site.id, key: link.key }), 'FORBIDDEN');
  });
});

// ─── Site graph fields ──────────────────────────────────────────────────────────────────────────────

describe('the Site type in GraphQL', () => {
  it('walks sections, groups, site spaces and share links (share links for admins only)', async () => {
    const { organization, admin, read, site } = await organizationWithCreatedSite();
    const space = await createSpace(admin, organization.id, 'Guide');
    const group = await insertSectionGroup(server, site, { title: 'Group', position: 'a1' });
    const top = await insertSection(server, site, { title: 'Top', path: 'top', position: 'a0' });
    const inGroup = await insertSection(server, site, { title: 'In group', path: 'in-group', position: 'a0', sectionGroup: group.id });
    const s1 = await insertSiteSpace(server, site, { space: space.id, path: 'one', position: 'a0', section: top.id });
    const s2 = await insertSiteSpace(server, site, { space: space.id, path: 'two', position: 'a0', section: inGroup.id });
    const link = await insertShareLink(server, site);
    const query = `query($id: ID!) { site(id: $id) {
      siteSpaces
      sections(limit: 1) { items { id } count next { page } }
      sectionGroups { items { id } count }
      siteSpaceList { items { id } count }
      SHARE
    } }`;
    const res = await admin.gql(query.replace('SHARE', 'shareLinks { items { id } count }'), { id: site.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.site).toEqual({
      siteSpaces: 2,
      sections: { items: [{ id: top.id }], count: 2, next: { page: expect.any(String) } },
      sectionGroups: { items: [{ id: group.id }], count: 1 },
      siteSpaceList: { items: [{ id: s1.id }, { id: s2.id }], count: 2 },
      shareLinks: { items: [{ id: link.id }], count: 1 },
    });
    const next = await admin.gql(`query($id: ID!, $p: String) { site(id: $id) { sections(limit: 1, page: $p) { items { id } } } }`, {
      id: site.id,
      p: res.data.site.sections.next.page,
    });
    expect(next.data.site.sections.items).toEqual([{ id: inGroup.id }]);

    const asReader = await read.gql(query.replace('SHARE', ''), { id: site.id });
    expect(asReader.errors).toBeUndefined();
    expectGqlError(
      await read.gql(query.replace('SHARE', 'shareLinks { count }'), { id: site.id }),
      'FORBIDDEN',
      'Site: listing share links needs the admin role',
    );
  });
});

describe('SQL statements', () => {
  it('stay the same for 2 and for 10 sites listed with their counts, defaults, structure and adaptive schema', async () => {
    const query = `query($o: ID!) { sites(organizationId: $o, limit: 1000) { count items {
      ...G siteSpaces owningOrganization { id }
      defaultSiteSection { id } defaultSiteSpace { id space { id } }
      structure { type structure { ... on SiteSpace { id path space { id title } } ... on SiteSection { id } ... on SiteSectionGroup { id } } }
      adaptiveSchema { updatedAt }
    } } } ${SITE_GQL}`;
    const measure = async (sites: number) => {
      const { organization, admin, space } = await newOrganizationWithSpace(server);
      for (let i = 0; i < sites; i++) {
        const site = await createSite(admin, organization.id, { spaces: [space.id] });
        if (i % 2) await insertSection(server, { id: site.id, organization: organization.id }, { title: 'S', path: 's', position: 'a0' });
      }
      let res: { data: any; errors?: unknown[] } | undefined;
      const statements = await countStatements(async () => {
        res = await admin.gql(query, { o: organization.id });
      });
      expect(res!.errors).toBeUndefined();
      expect(res!.data.sites.count).toBe(sites);
      return statements;
    };
    expect(await measure(10)).toBe(await measure(2));
  });
});

// ─── permissions ────────────────────────────────────────────────────────────────────────────────────

describe('permissions', () => {
  it('lets members with read see sites, and only admins change them (403 below admin)', async () => {
    const { organization, admin, read, edit, create, site } = await organizationWithCreatedSite();
    await admin.rest('PUT', `${sitePath(organization.id, site.id)}/adaptive-schema`, { jsonSchema: ADAPTIVE_SCHEMA });
    for (const member of [read, edit, create]) {
      expect((await member.rest('GET', sitesPath(organization.id))).status).toBe(200);
      expect((await member.rest('GET', sitePath(organization.id, site.id))).status).toBe(200);
      expect((await member.rest('GET', `${sitePath(organization.id, site.id)}/adaptive-schema`)).status).toBe(200);
      expect((await member.rest('GET', `${sitePath(organization.id, site.id)}/published`)).status).toBe(200);
      expectError(await member.rest('POST', sitesPath(organization.id), {}), 403, 'Organization: this operation needs the admin role');
      const onSite: [string, string, unknown?][] = [
        ['PATCH', sitePath(organization.id, site.id), { title: 'Mine now' }],
        ['DELETE', sitePath(organization.id, site.id)],
        ['POST', `${sitePath(organization.id, site.id)}/publish`],
        ['POST', `${sitePath(organization.id, site.id)}/unpublish`],
        ['PUT', `${sitePath(organization.id, site.id)}/adaptive-schema`, { jsonSchema: ADAPTIVE_SCHEMA }],
      ];
      for (const [method, path, body] of onSite) {
        expectError(await member.rest(method, path, body), 403, 'Site: this operation needs the admin role');
      }
    }
    const denied = await read.gql(`mutation($id: ID!) { publishSite(id: $id) { id } }`, { id: site.id });
    expectGqlError(denied, 'FORBIDDEN');
    expect(await siteRow(server, site.id)).toMatchObject({ title: 'Untitled site', published: false });
  });

  it("gives guests no sites: 403 on the organization's list, 404 on a site", async () => {
    const { organization, guest, site } = await organizationWithCreatedSite();
    expectError(await guest.rest('GET', sitesPath(organization.id)), 403, 'Organization: this operation needs the read role');
    expectError(await guest.rest('GET', sitePath(organization.id, site.id)), 404, 'Site not found');
    expectError(await guest.rest('GET', `${sitePath(organization.id, site.id)}/published`), 404, 'Site not found');
  });

  it('hides sites from outsiders (404), also a read member who loses membership', async () => {
    const { organization, outsider, site } = await organizationWithCreatedSite();
    expectError(await outsider.rest('GET', sitesPath(organization.id)), 404, 'Organization not found');
    expectError(await outsider.rest('POST', sitesPath(organization.id), {}), 404, 'Organization not found');
    for (const [method, suffix, body] of siteOperations('Taken')) {
      expectError(await outsider.rest(method, `${sitePath(organization.id, site.id)}${suffix}`, body), 404, 'Site not found');
    }
    expectGqlError(await outsider.gql(`query($id: ID!) { site(id: $id) { id } }`, { id: site.id }), 'NOT_FOUND', 'Site not found');
  });

  it("answers 404 for a site of another organization under an organization's path, even to an admin of both", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const otherOrganization = await newOrganization(server, admin);
    const elsewhere = await createSite(admin, otherOrganization.id);
    const member = await newMember(server, organization.id, 'admin');
    for (const caller of [admin, member]) {
      for (const [method, suffix, body] of siteOperations('Moved?')) {
        expectError(await caller.rest(method, `${sitePath(organization.id, elsewhere.id)}${suffix}`, body), 404, 'Site not found');
      }
    }
    const scoped = await admin.gql(`query($id: ID!, $o: ID) { site(id: $id, organizationId: $o) { id } }`, { id: elsewhere.id, o: organization.id });
    expectGqlError(scoped, 'NOT_FOUND', 'Site not found');
    expect(await siteRow(server, elsewhere.id)).toMatchObject({ title: 'Untitled site', published: false });
    // The list of one organization never shows another's sites, whatever `space` says.
    const space = await createSpace(admin, otherOrganization.id);
    await createSite(admin, otherOrganization.id, { spaces: [space.id] });
    expect((await admin.rest('GET', `${sitesPath(organization.id)}?space=${space.id}`)).body.count).toBe(0);
  });

  it('lets another user with no membership create nothing, and a new admin member do everything', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    const stranger = await newUser(server);
    expectError(await stranger.rest('POST', sitesPath(organization.id), {}), 404, 'Organization not found');
    const admin = await newMember(server, organization.id, 'admin');
    const site = await createSite(admin, organization.id, { title: 'By a member admin' });
    expect((await admin.rest('DELETE', sitePath(organization.id, site.id))).status).toBe(204);
  });
});
