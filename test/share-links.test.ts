/**
 * Share links of sites (contract §2.8, §3, §4.8, §5.4, §8) through both doors on the real database:
 * shapes, limits, permissions, and share keys that open a share-link site to callers outside its
 * organization — and stop doing so at once.
 *
 * Sites are inserted as rows (their operations belong to another area); site spaces are added through
 * the site-space operations.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ShareLink, Site, type SiteRow } from '../src/domain/sites/index.js';
import { createSpace } from './support/content.js';
import { expectAuthRequired, expectContract, expectError, expectGqlAuthRequired, expectLimitsRefused } from './support/expectations.js';
import { newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { serverNow, useTestServer } from './support/server.js';
import { insertSite, newOrganizationWithSite, siteBase } from './support/sites.js';

const SECOND = 1000;
const PUBLIC_URL = 'http://docs.test';

const server = useTestServer();
beforeEach(() => server.clock.advance(SECOND));

// ─── helpers ────────────────────────────────────────────────────────────────────────────────────────

/** The sites of these tests, as rows: published and shared by link. */
const SHARED = { visibility: 'share-link' };

async function createLink(caller: Caller, site: SiteRow, name = 'Partners') {
  const res = await caller.rest('POST', `${siteBase(site)}/share-links`, { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; active: boolean; createdAt: string; urls: { published: string } };
}

/** The secret key carried by a share link's published URL. */
const keyOf = (link: { urls: { published: string } }) => new URL(link.urls.published).searchParams.get('shareKey')!;

/** A share-link site publishing one space, with an active link, and an authenticated caller outside the organization. */
async function sharedSite() {
  const team = await newOrganizationWithRoles(server);
  const site = await insertSite(server, team.organization.id, SHARED);
  const space = await createSpace(team.admin, team.organization.id, 'Partner guide');
  const added = await team.admin.rest('POST', `${siteBase(site)}/site-spaces`, { spaceId: space.id });
  expect(added.status).toBe(201);
  const link = await createLink(team.admin, site);
  return { ...team, site, space, siteSpace: added.body, link, key: keyOf(link), visitor: await newUser(server) };
}

/** Status of reading the space and the site's spaces with `key`, as `caller`. */
async function reads(caller: Caller, site: SiteRow, spaceId: string, key: string) {
  const q = `shareKey=${encodeURIComponent(key)}`;
  const space = await caller.rest('GET', `/v1/spaces/${spaceId}?${q}`);
  const list = await caller.rest('GET', `${siteBase(site)}/site-spaces?${q}`);
  return [space.status, list.status];
}

// ─── authentication ─────────────────────────────────────────────────────────────────────────────────

describe('authentication', () => {
  it('answers 401 on every share-link operation without a token or with a bad one', async () => {
    const { site } = await newOrganizationWithSite(server, SHARED);
    const calls: [string, string, unknown?][] = [
      ['GET', `${siteBase(site)}/share-links`],
      ['POST', `${siteBase(site)}/share-links`, { name: 'x' }],
      ['PATCH', `${siteBase(site)}/share-links/x`, { active: false }],
      ['DELETE', `${siteBase(site)}/share-links/x`],
    ];
    await expectAuthRequired(server, calls);
    await expectGqlAuthRequired(server, `{ shareLinks(siteId: "${site.id}") { count } }`);
  });
});

// ─── the operations ─────────────────────────────────────────────────────────────────────────────────

describe('share link operations', () => {
  it('creates an active link whose published URL carries a new secret key of at least 128 bits', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, { ...SHARED, hostname: 'partners.example.com' });
    const res = await admin.rest('POST', `${siteBase(site)}/share-links`, { name: 'Partners' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectContract('createSiteShareLink', res);
    expect(res.body).toEqual({
      object: 'share-link',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      createdAt: serverNow(server),
      name: 'Partners',
      active: true,
      urls: { published: expect.stringMatching(/^https:\/\/partners\.example\.com\?shareKey=[A-Za-z0-9_-]+$/) },
    });
    const key = keyOf(res.body);
    expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16);
    const row = await server.em().findOneOrFail(ShareLink, { id: res.body.id });
    expect(row).toMatchObject({ key, site: site.id, organization: organization.id, active: true });

    const second = await createLink(admin, site, 'Partners');
    expect(keyOf(second)).not.toBe(key);
    // The URL is handed out even before the site is published.
    const unpublished = await insertSite(server, organization.id, { ...SHARED, published: false });
    expect((await createLink(admin, unpublished)).urls.published).toMatch(new RegExp(`^${PUBLIC_URL}/sites/${unpublished.id}\\?shareKey=`));
  });

  it('requires a name of at most 50 characters', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SHARED);
    const url = `${siteBase(site)}/share-links`;
    expect((await admin.rest('POST', url, { name: 'x'.repeat(50) })).status).toBe(201);
    expect((await admin.rest('POST', url, { name: '' })).status).toBe(201);
    expectError(await admin.rest('POST', url, { name: 'x'.repeat(51) }), 400, 'name: must be at most 50 characters');
    expectError(await admin.rest('POST', url, {}), 400, 'name: is required');
    expectError(await admin.rest('POST', url, { name: 7 }), 400, /^name: /);
    expectError(await admin.rest('POST', url, { name: 'x', key: 'mine' }), 400, 'key: unknown field');
    expect(await server.em().count(ShareLink, { site: site.id })).toBe(2);
  });

  it("lists a site's links oldest first, with pages, and only that site's", async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, SHARED);
    const other = await insertSite(server, organization.id, SHARED);
    const links = [];
    for (const name of ['First', 'Second', 'Third']) {
      links.push(await createLink(admin, site, name));
      server.clock.advance(SECOND);
    }
    await createLink(admin, other, 'Elsewhere');
    const res = await admin.rest('GET', `${siteBase(site)}/share-links`);
    expect(res.status).toBe(200);
    expectContract('listSiteShareLinks', res);
    expect(res.body).toEqual({ items: links, count: 3 });

    const page1 = await admin.rest('GET', `${siteBase(site)}/share-links?limit=2`);
    expect(page1.body.items.map((l: { name: string }) => l.name)).toEqual(['First', 'Second']);
    const page2 = await admin.rest('GET', `${siteBase(site)}/share-links?limit=2&page=${page1.body.next.page}`);
    expect(page2.body).toEqual({ items: [links[2]], count: 3 });
    await expectLimitsRefused(admin, `${siteBase(site)}/share-links`, [1001, 0]);
  });

  it('renames and turns links off and on; refuses an empty change or a long name', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SHARED);
    const link = await createLink(admin, site);
    const url = `${siteBase(site)}/share-links/${link.id}`;

    const off = await admin.rest('PATCH', url, { active: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expectContract('updateSiteShareLinkById', off);
    expect(off.body).toEqual({ ...link, active: false });
    const renamed = await admin.rest('PATCH', url, { name: 'Resellers', active: true });
    expect(renamed.body).toEqual({ ...link, name: 'Resellers', active: true });
    expect((await admin.rest('PATCH', url, { name: 'y'.repeat(50) })).body.name).toBe('y'.repeat(50));

    expectError(await admin.rest('PATCH', url, {}), 400, 'active or name is required');
    expectError(await admin.rest('PATCH', url, { name: 'x'.repeat(51) }), 400, 'name: must be at most 50 characters');
    expectError(await admin.rest('PATCH', url, { name: null }), 400, 'name: must be a string');
    expectError(await admin.rest('PATCH', url, { active: null }), 400, 'active: must be true or false');
    expectError(await admin.rest('PATCH', url, { active: 'no' }), 400, /^active: /);
    expectError(await admin.rest('PATCH', url, { key: 'x' }), 400, 'key: unknown field');
    expect(await server.em().findOneOrFail(ShareLink, { id: link.id })).toMatchObject({ name: 'y'.repeat(50), active: true });
  });

  it('deletes a link, then answers 404 for it', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SHARED);
    const link = await createLink(admin, site);
    const res = await admin.rest('DELETE', `${siteBase(site)}/share-links/${link.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await server.em().count(ShareLink, { id: link.id })).toBe(0);
    expectError(await admin.rest('DELETE', `${siteBase(site)}/share-links/${link.id}`), 404, 'Share link not found');
    expectError(await admin.rest('PATCH', `${siteBase(site)}/share-links/${link.id}`, { active: true }), 404, 'Share link not found');
  });

  it('works through GraphQL', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SHARED);
    const created = await admin.gql(
      `mutation($s: ID!) { createShareLink(siteId: $s, input: { name: "Press" }) { object id name active urls { published } } }`,
      { s: site.id },
    );
    expect(created.errors).toBeUndefined();
    const { id } = created.data.createShareLink;
    expect(created.data.createShareLink).toMatchObject({ object: 'share-link', name: 'Press', active: true });
    const updated = await admin.gql(`mutation($s: ID!, $id: ID!) { updateShareLink(siteId: $s, id: $id, input: { active: false }) { active } }`, {
      s: site.id,
      id,
    });
    expect(updated.data.updateShareLink).toEqual({ active: false });
    const listed = await admin.gql(`query($s: ID!) { shareLinks(siteId: $s) { count items { id active } } }`, { s: site.id });
    expect(listed.data.shareLinks).toEqual({ count: 1, items: [{ id, active: false }] });
    const tooLong = await admin.gql(`mutation($s: ID!) { createShareLink(siteId: $s, input: { name: "${'x'.repeat(51)}" }) { id } }`, { s: site.id });
    expect(tooLong.errors?.[0]).toMatchObject({ message: 'name: must be at most 50 characters', extensions: { code: 'BAD_REQUEST' } });
    const deleted = await admin.gql(`mutation($s: ID!, $id: ID!) { deleteShareLink(siteId: $s, id: $id) }`, { s: site.id, id });
    expect(deleted.data.deleteShareLink).toBe(true);
  });
});

// ─── permissions and isolation ──────────────────────────────────────────────────────────────────────

describe('permissions and isolation', () => {
  it('needs the admin role for every share-link operation, listing included (403 for members)', async () => {
    const { admin, read, create, site } = await newOrganizationWithSite(server, SHARED);
    const link = await createLink(admin, site);
    const forbidden = 'Site: this operation needs the admin role';
    for (const member of [read, create]) {
      expectError(await member.rest('GET', `${siteBase(site)}/share-links`), 403, forbidden);
      expectError(await member.rest('POST', `${siteBase(site)}/share-links`, { name: 'x' }), 403, forbidden);
      expectError(await member.rest('PATCH', `${siteBase(site)}/share-links/${link.id}`, { active: false }), 403, forbidden);
      expectError(await member.rest('DELETE', `${siteBase(site)}/share-links/${link.id}`), 403, forbidden);
    }
    expect(await server.em().findOneOrFail(ShareLink, { id: link.id })).toMatchObject({ active: true });
  });

  it('answers 404 to guests, outsiders, other organizations and for links of another site', async () => {
    const { organization, admin, guest, outsider } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id, SHARED);
    const otherSite = await insertSite(server, organization.id, SHARED);
    const link = await createLink(admin, site);
    const theirs = await createLink(admin, otherSite);
    for (const caller of [guest, outsider, other.admin]) {
      expectError(await caller.rest('GET', `${siteBase(site)}/share-links`), 404, 'Site not found');
      expectError(await caller.rest('PATCH', `${siteBase(site)}/share-links/${link.id}`, { active: false }), 404, 'Site not found');
      expectError(await caller.rest('DELETE', `${siteBase(site)}/share-links/${link.id}`), 404, 'Site not found');
    }
    expectError(await other.admin.rest('GET', `/v1/orgs/${other.organization.id}/sites/${site.id}/share-links`), 404, 'Site not found');
    expectError(await admin.rest('PATCH', `${siteBase(site)}/share-links/${theirs.id}`, { active: false }), 404, 'Share link not found');
    expectError(await admin.rest('DELETE', `${siteBase(site)}/share-links/${theirs.id}`), 404, 'Share link not found');
    // A share key grants reading, never the links themselves.
    expectError(await outsider.rest('GET', `${siteBase(site)}/share-links?shareKey=${encodeURIComponent(keyOf(link))}`), 404, 'Site not found');
  });
});

// ─── share keys at work ─────────────────────────────────────────────────────────────────────────────

describe('share keys', () => {
  it("open the site's spaces and site spaces to an authenticated non-member, read only", async () => {
    const { site, space, siteSpace, key, visitor, admin } = await sharedSite();
    const q = `shareKey=${encodeURIComponent(key)}`;
    expectError(await visitor.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
    expectError(await visitor.rest('GET', `${siteBase(site)}/site-spaces`), 404, 'Site not found');

    const got = await visitor.rest('GET', `/v1/spaces/${space.id}?${q}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({ id: space.id, title: 'Partner guide', permissions: { access: false, admin: false, edit: false } });

    const listed = await visitor.rest('GET', `${siteBase(site)}/site-spaces?${q}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([siteSpace.id]);
    // Published URLs carry the key, so that they open the site for whoever holds it.
    expect(listed.body.items[0].urls.published).toBe(`${PUBLIC_URL}/sites/${site.id}/partner-guide?${q}`);
    const asAdmin = await admin.rest('GET', `${siteBase(site)}/site-spaces`);
    expect(asAdmin.body.items[0].urls.published).toBe(`${PUBLIC_URL}/sites/${site.id}/partner-guide`);

    const gql = await visitor.gql(`query($s: ID!, $k: String) { siteSpaces(siteId: $s, shareKey: $k) { count items { id space { id } } } }`, {
      s: site.id,
      k: key,
    });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.siteSpaces).toEqual({ count: 1, items: [{ id: siteSpace.id, space: { id: space.id } }] });
    // The key opens the published space, not its change requests.
    const drafts = await visitor.gql(
      `query($s: ID!, $k: String) { siteSpaces(siteId: $s, shareKey: $k) { items { space { changeRequestList { count } } } } }`,
      {
        s: site.id,
        k: key,
      },
    );
    expect(drafts.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // Reading only: the key opens no change.
    expectError(await visitor.rest('PATCH', `/v1/spaces/${space.id}?${q}`, { title: 'Mine' }), 404, 'Space not found');
    expectError(await visitor.rest('DELETE', `${siteBase(site)}/site-spaces/${siteSpace.id}?${q}`), 404, 'Site not found');
    expectError(await visitor.rest('POST', `${siteBase(site)}/site-spaces?${q}`, { spaceId: space.id }), 404, 'Site not found');
  });

  it("resolve the published URLs of site spaces in the site's published structure and in its sections", async () => {
    type WithSiteSpaces = { siteSpaces: { urls: { published: string } }[] };
    const urlsOf = (items: WithSiteSpaces[]) => items.flatMap((item) => item.siteSpaces.map((siteSpace) => siteSpace.urls.published));
    const { site, space, key, visitor, admin } = await sharedSite();
    const q = `shareKey=${encodeURIComponent(key)}`;
    const published = await visitor.rest('GET', `${siteBase(site)}/published?${q}`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const rootLevel = (published.body as { structure: { structure: { urls: { published: string } }[] } }).structure.structure;
    expect(rootLevel[0].urls.published).toBe(`${PUBLIC_URL}/sites/${site.id}/partner-guide?${q}`);
    // In sections (the first takes the site's root-level site space), and through GraphQL's structure.
    const section = await admin.rest('POST', `${siteBase(site)}/sections`, { spaceId: space.id, title: 'Guides' });
    expect(section.status, JSON.stringify(section.body)).toBe(201);
    const sections = await visitor.rest('GET', `${siteBase(site)}/sections?${q}`);
    expect(sections.status, JSON.stringify(sections.body)).toBe(200);
    const urls = urlsOf((sections.body as { items: WithSiteSpaces[] }).items);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.endsWith(`?${q}`), url).toBe(true);
    const structure = await visitor.gql(
      `query($s: ID!, $k: String) { siteStructure(siteId: $s, shareKey: $k) { structure { ... on SiteSection { siteSpaces { urls { published } } } } } }`,
      { s: site.id, k: key },
    );
    expect(structure.errors).toBeUndefined();
    expect(urlsOf((structure.data as { siteStructure: { structure: WithSiteSpaces[] } }).siteStructure.structure)).toEqual(urls);
    // Without a key (the organization's admin), none.
    const asAdmin = await admin.rest('GET', `${siteBase(site)}/sections`);
    expect(JSON.stringify(asAdmin.body)).not.toContain('shareKey');
  });

  it('stop working at once when the link is turned off, and work again when turned on', async () => {
    const { site, space, link, key, visitor, admin } = await sharedSite();
    expect(await reads(visitor, site, space.id, key)).toEqual([200, 200]);
    expect((await admin.rest('PATCH', `${siteBase(site)}/share-links/${link.id}`, { active: false })).status).toBe(200);
    expect(await reads(visitor, site, space.id, key)).toEqual([404, 404]);
    expect((await admin.rest('PATCH', `${siteBase(site)}/share-links/${link.id}`, { active: true })).status).toBe(200);
    expect(await reads(visitor, site, space.id, key)).toEqual([200, 200]);
  });

  it('stop working at once when the link is deleted', async () => {
    const { site, space, link, key, visitor, admin } = await sharedSite();
    expect(await reads(visitor, site, space.id, key)).toEqual([200, 200]);
    expect((await admin.rest('DELETE', `${siteBase(site)}/share-links/${link.id}`)).status).toBe(204);
    expect(await reads(visitor, site, space.id, key)).toEqual([404, 404]);
  });

  it("work only while the site's visibility is share-link", async () => {
    const { site, space, key, visitor } = await sharedSite();
    for (const visibility of ['public', 'unlisted', 'visitor-auth']) {
      await server.em().nativeUpdate(Site, { id: site.id }, { visibility });
      expect(await reads(visitor, site, space.id, key), visibility).toEqual([404, 404]);
    }
    await server.em().nativeUpdate(Site, { id: site.id }, { visibility: 'share-link' });
    expect(await reads(visitor, site, space.id, key)).toEqual([200, 200]);
  });

  it('open only their own site and the spaces it publishes', async () => {
    const { organization, admin, site, space, key, visitor } = await sharedSite();
    const otherSite = await insertSite(server, organization.id, SHARED);
    const unpublishedSpace = await createSpace(admin, organization.id, 'Internal');
    expectError(await visitor.rest('GET', `${siteBase(otherSite)}/site-spaces?shareKey=${encodeURIComponent(key)}`), 404, 'Site not found');
    expectError(await visitor.rest('GET', `/v1/spaces/${unpublishedSpace.id}?shareKey=${encodeURIComponent(key)}`), 404, 'Space not found');
    expectError(await visitor.rest('GET', `/v1/spaces/${space.id}?shareKey=not-a-key`), 404, 'Space not found');
    // Under another organization's path the site is not found, key or not.
    const other = await newOrganizationWithRoles(server);
    expectError(
      await visitor.rest('GET', `/v1/orgs/${other.organization.id}/sites/${site.id}/site-spaces?shareKey=${encodeURIComponent(key)}`),
      404,
      'Site not found',
    );
    // Once the space leaves the site, the key no longer opens it.
    const siteSpaces = (await admin.rest('GET', `${siteBase(site)}/site-spaces`)).body.items;
    expect((await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${siteSpaces[0].id}`)).status).toBe(204);
    expect(await reads(visitor, site, space.id, key)).toEqual([404, 200]);
  });
});
