/**
 * Site sections and section groups (contract §2.5, §2.7, §4.8, §8) through both doors — REST /v1 and
 * POST /graphql — on the real database: shapes, limits, the first section rule, ordering after moves,
 * the default section, conditions against the adaptive schema, and 401 / 403 / 404.
 *
 * Sites, root-level site spaces, share links and adaptive schemas are inserted directly as rows, so
 * that this file depends only on the operations it tests.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../src/kernel/ids.js';
import { Site, SiteSection, SiteSectionGroup, SiteSpace, type SiteRow } from '../src/domain/sites/index.js';
import { createSpace } from './support/content.js';
import { expectAuthRequired, expectError, expectGqlAuthRequired, expectGqlError } from './support/expectations.js';
import { newOrganization, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { insertAdaptiveSchema, insertShareLink, insertSite, insertSiteSpace, newOrganizationWithSite, siteBase, siteRow } from './support/sites.js';

const SECOND = 1000;
const PUBLIC_URL = 'http://docs.test';

const server = useTestServer();

beforeEach(() => server.clock.advance(SECOND));

// ─── helpers ────────────────────────────────────────────────────────────────────────────────────────

/** The sites of these tests, as rows: unpublished, titled like the section that takes their root-level site spaces. */
const SITE = { title: 'Developer Docs', published: false };

/** Adds a section publishing a new space titled `title` (REST). */
async function addSection(caller: Caller, site: SiteRow, title = 'Guides', body: Record<string, unknown> = {}) {
  const space = await createSpace(caller, site.organization, title);
  const res = await caller.rest('POST', `${siteBase(site)}/sections`, { spaceId: space.id, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; title: string; path: string; siteSpaces: { id: string }[] };
}

async function addGroup(caller: Caller, site: SiteRow, body: Record<string, unknown> = {}) {
  const res = await caller.rest('POST', `${siteBase(site)}/section-groups`, { title: 'Group', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; sections: { id: string }[] };
}

/** Ids of every section in navigation order, as listSiteSections gives them. */
async function sectionOrder(caller: Caller, site: SiteRow): Promise<string[]> {
  const res = await caller.rest('GET', `${siteBase(site)}/sections`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((s: { id: string }) => s.id);
}

/**
 * The site's top level in position order, read behind the doors (positions are not part of the API):
 * ids of sections outside groups, and groups with the ids of their sections in order.
 */
async function topLevel(site: SiteRow): Promise<(string | { group: string; sections: string[] })[]> {
  const em = server.em();
  const [sections, groups] = await Promise.all([em.find(SiteSection, { site: site.id }), em.find(SiteSectionGroup, { site: site.id })]);
  const ordered = <T extends { id: string; position: string }>(rows: T[]) =>
    [...rows].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
  const items = [...sections.filter((s) => !s.sectionGroup), ...groups];
  const groupIds = new Set(groups.map((g) => g.id));
  return ordered(items).map((item) =>
    groupIds.has(item.id) ? { group: item.id, sections: ordered(sections.filter((s) => s.sectionGroup === item.id)).map((s) => s.id) } : item.id,
  );
}

// ─── addSectionToSite ───────────────────────────────────────────────────────────────────────────────

describe('POST B/sections (addSectionToSite)', () => {
  it('adds a section with a site space of the space, as the default section of a site without any', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, SITE);
    const space = await createSpace(admin, organization.id, 'Getting Started');
    const res = await admin.rest('POST', `${siteBase(site)}/sections`, { spaceId: space.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      object: 'site-section',
      id: expect.any(String),
      title: 'Getting Started',
      default: true,
      path: 'getting-started',
      siteSpaces: [{ object: 'site-space', id: expect.any(String), section: res.body.id, space: { object: 'space', id: space.id } }],
      urls: { location: `${PUBLIC_URL}/v1/orgs/${organization.id}/sites/${site.id}/sections/${res.body.id}` }, // unpublished: no published URL
    });
    expect(res.body).not.toHaveProperty('condition');
    expect(res.body).not.toHaveProperty('sectionGroup');
    const siteSpace = await server.em().findOneOrFail(SiteSpace, { id: res.body.siteSpaces[0].id });
    expect(siteSpace).toMatchObject({ site: site.id, section: res.body.id, space: space.id, path: 'getting-started', organization: organization.id });
    expect((await siteRow(server, site.id)).defaultSection).toBe(res.body.id);
    const section = await server.em().findOneOrFail(SiteSection, { id: res.body.id });
    expect(section.defaultSiteSpace).toBe(siteSpace.id);
  });

  it('takes title and icon, and gives a published site its section URLs', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, { ...SITE, published: true, basename: 'docs' });
    const section = await addSection(admin, site, 'API', { title: 'API Reference', icon: 'book' });
    expect(section).toMatchObject({ title: 'API Reference', icon: 'book', path: 'api-reference' });
    expect((section as any).urls).toEqual({
      location: `${PUBLIC_URL}/v1/orgs/${organization.id}/sites/${site.id}/sections/${(section as any).id}`,
      published: `${PUBLIC_URL}/sites/${site.id}/docs/api-reference`,
    });
  });

  it('titles a section after a one-character space "Untitled section" (a section title has at least 2)', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    expect(await addSection(admin, site, 'X')).toMatchObject({ title: 'Untitled section', path: 'untitled-section' });
  });

  it('makes paths unique within the site: -2, -3…', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, SITE);
    const paths = [];
    for (let i = 0; i < 3; i++) paths.push((await addSection(admin, site, 'Guides')).path);
    expect(paths).toEqual(['guides', 'guides-2', 'guides-3']);
    // Another site may use the same path.
    expect((await addSection(admin, await insertSite(server, organization.id, SITE), 'Guides')).path).toBe('guides');
  });

  it('places new sections at the end of the top level, after groups', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const group = await addGroup(admin, site);
    const b = await addSection(admin, site, 'Beta');
    expect(await topLevel(site)).toEqual([a.id, { group: group.id, sections: [] }, b.id]);
    // Only the first section is the default.
    const list = await admin.rest('GET', `${siteBase(site)}/sections`);
    expect(list.body.items.map((s: { default: boolean }) => s.default)).toEqual([true, false]);
  });

  it('checks title (max 64, min 2), icon (max 50), spaceId and unknown fields', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, SITE);
    const space = await createSpace(admin, organization.id, 'Guides');
    const post = (body: unknown) => admin.rest('POST', `${siteBase(site)}/sections`, body);
    expectError(await post({ spaceId: space.id, title: 'x'.repeat(65) }), 400, 'title: must be at most 64 characters');
    expectError(await post({ spaceId: space.id, title: 'x' }), 400, 'title: must be at least 2 characters');
    expectError(await post({ spaceId: space.id, icon: 'i'.repeat(51) }), 400, 'icon: must be at most 50 characters');
    expectError(await post({ title: 'No space' }), 400, 'spaceId: is required');
    expectError(await post({ spaceId: space.id, bogus: 1 }), 400, 'bogus: unknown field');
    expectError(await post({ spaceId: 'no-such-space' }), 400, /^spaceId: no space "no-such-space"/);
    expect((await post({ spaceId: space.id, title: 'x'.repeat(64), icon: 'i'.repeat(50) })).status).toBe(201);
  });

  it('refuses a space of another organization and a deleted space (400 naming spaceId)', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id, SITE);
    const foreign = await createSpace(other.admin, other.organization.id, 'Guides');
    expectError(await admin.rest('POST', `${siteBase(site)}/sections`, { spaceId: foreign.id }), 400, /^spaceId: no space/);
    const deleted = await createSpace(admin, organization.id, 'Guides');
    expect((await admin.rest('DELETE', `/v1/spaces/${deleted.id}`)).status).toBe(204);
    expectError(await admin.rest('POST', `${siteBase(site)}/sections`, { spaceId: deleted.id }), 400, /^spaceId: space "\w+" is deleted; restore it first$/);
    expect(await server.em().count(SiteSection, { site: site.id })).toBe(0);
  });

  it('adds through GraphQL with the graph fields', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, SITE);
    const space = await createSpace(admin, organization.id, 'Handbook');
    const res = await admin.gql(
      `mutation($siteId: ID!, $organizationId: ID, $input: AddSiteSectionInput!) {
        addSiteSection(siteId: $siteId, organizationId: $organizationId, input: $input) {
          object title path default sectionGroup condition icon description urls { published }
          siteSpaces { id } defaultSiteSpace { id } site { id } group { id }
        }
      }`,
      { siteId: site.id, organizationId: organization.id, input: { spaceId: space.id } },
    );
    expect(res.errors).toBeUndefined();
    const section = res.data.addSiteSection;
    expect(section).toEqual({
      object: 'site-section',
      title: 'Handbook',
      path: 'handbook',
      default: true,
      sectionGroup: null,
      condition: null,
      icon: null,
      description: null,
      urls: { published: null },
      siteSpaces: [{ id: expect.any(String) }],
      defaultSiteSpace: { id: section.siteSpaces[0].id },
      site: { id: site.id },
      group: null,
    });
  });
});

// ─── the first section rule ─────────────────────────────────────────────────────────────────────────

describe('the first section of a site with root-level site spaces', () => {
  it('moves the root-level site spaces into a section titled like the site, which stays the default', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, { ...SITE, title: 'Product Docs' });
    const one = await createSpace(admin, organization.id, 'One');
    const two = await createSpace(admin, organization.id, 'Two');
    const first = await insertSiteSpace(server, site, { space: one.id, position: 'a0', path: 'one' });
    const second = await insertSiteSpace(server, site, { space: two.id, position: 'a1', path: 'two' });
    const em = server.em();
    await em.nativeUpdate(Site, { id: site.id }, { defaultSiteSpace: second.id });

    const added = await addSection(admin, site, 'API');
    const res = await admin.gql(
      `query($siteId: ID!) { siteSections(siteId: $siteId) { count items { id title path default siteSpaces { id } defaultSiteSpace { id } } } }`,
      { siteId: site.id },
    );
    expect(res.errors).toBeUndefined();
    const [keeper, requested] = res.data.siteSections.items;
    expect(res.data.siteSections.count).toBe(2);
    expect(keeper).toEqual({
      id: expect.any(String),
      title: 'Product Docs',
      path: 'product-docs',
      default: true,
      siteSpaces: [{ id: first.id }, { id: second.id }],
      defaultSiteSpace: { id: second.id }, // the site's root default stays the default
    });
    expect(requested).toMatchObject({ id: added.id, title: 'API', default: false, siteSpaces: [{ id: added.siteSpaces[0].id }] });
    expect((await siteRow(server, site.id)).defaultSection).toBe(keeper.id);
    expect(await server.em().count(SiteSpace, { site: site.id, section: null })).toBe(0);

    // A second section does not repeat the rule.
    await addSection(admin, site, 'More');
    expect(await server.em().count(SiteSection, { site: site.id })).toBe(3);
  });

  it('answers the new state to later mutations of the same GraphQL request', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, { ...SITE, title: 'Docs' });
    const root = await createSpace(admin, organization.id, 'Root');
    const first = await insertSiteSpace(server, site, { space: root.id, position: 'a0', path: 'root' });
    const one = await createSpace(admin, organization.id, 'One');
    const two = await createSpace(admin, organization.id, 'Two');
    const res = await admin.gql(
      `mutation($siteId: ID!, $one: ID!, $two: ID!) {
        a: addSiteSection(siteId: $siteId, input: { spaceId: $one }) { title default }
        b: addSiteSection(siteId: $siteId, input: { spaceId: $two }) { title default }
        c: addSiteSectionGroup(siteId: $siteId, input: { title: "All" }) { sections { id } }
      }`,
      { siteId: site.id, one: one.id, two: two.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ a: { title: 'One', default: false }, b: { title: 'Two', default: false }, c: { sections: [] } });
    const list = await admin.gql(`query($siteId: ID!) { siteSections(siteId: $siteId) { items { title default siteSpaces { id } } } }`, { siteId: site.id });
    expect(list.data.siteSections.items).toEqual([
      { title: 'Docs', default: true, siteSpaces: [{ id: first.id }] },
      { title: 'One', default: false, siteSpaces: [expect.anything()] },
      { title: 'Two', default: false, siteSpaces: [expect.anything()] },
    ]);
  });

  it('takes the first root-level site space as the default when the site names none', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, { ...SITE, title: 'Docs' });
    const one = await createSpace(admin, organization.id, 'One');
    const two = await createSpace(admin, organization.id, 'Two');
    await insertSiteSpace(server, site, { space: two.id, position: 'a1', path: 'two' });
    const first = await insertSiteSpace(server, site, { space: one.id, position: 'a0', path: 'one' });
    await addSection(admin, site, 'Docs'); // same title as the site: the keeper has "docs", this "docs-2"
    const sections = await server.em().find(SiteSection, { site: site.id }, { orderBy: { position: 'asc' } });
    expect(sections.map((s) => s.path)).toEqual(['docs', 'docs-2']);
    expect(sections[0].defaultSiteSpace).toBe(first.id);
  });
});

// ─── listSiteSections / listSiteSectionGroups ───────────────────────────────────────────────────────

describe('GET B/sections and B/section-groups', () => {
  it("lists every section in navigation order, grouped ones at their group's place, page by page", async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const [a, b, c, d] = [
      await addSection(admin, site, 'Alpha'),
      await addSection(admin, site, 'Beta'),
      await addSection(admin, site, 'Gamma'),
      await addSection(admin, site, 'Delta'),
    ];
    const group = await addGroup(admin, site, { sections: [d.id, b.id] });
    const e = await addSection(admin, site, 'Epsilon');
    expect(await sectionOrder(admin, site)).toEqual([a.id, c.id, d.id, b.id, e.id]);
    // Move the group first: its sections follow it.
    expect(
      (await admin.rest('POST', `${siteBase(site)}/section-groups/${group.id}/move`, { position: { before: { type: 'site-section', id: a.id } } })).status,
    ).toBe(200);
    expect(await sectionOrder(admin, site)).toEqual([d.id, b.id, a.id, c.id, e.id]);

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await admin.rest('GET', `${siteBase(site)}/sections?limit=2${page ? `&page=${page}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(5);
      seen.push(...res.body.items.map((s: { id: string }) => s.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([d.id, b.id, a.id, c.id, e.id]);
    expectError(await admin.rest('GET', `${siteBase(site)}/sections?limit=1001`), 400, 'limit: must be an integer from 1 to 1000');
  });

  it('lists groups by position with their sections', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const g1 = await addGroup(admin, site, { title: 'First', sections: [a.id] });
    const g2 = await addGroup(admin, site, { title: 'Second', icon: 'star' });
    await admin.rest('POST', `${siteBase(site)}/section-groups/${g2.id}/move`, { position: { before: { type: 'site-section-group', id: g1.id } } });
    const res = await admin.rest('GET', `${siteBase(site)}/section-groups`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      count: 2,
      items: [
        { object: 'site-section-group', id: g2.id, title: 'Second', icon: 'star', sections: [] },
        { object: 'site-section-group', id: g1.id, title: 'First', sections: [{ id: a.id, sectionGroup: g1.id }] },
      ],
    });
    expect(res.body).not.toHaveProperty('next');
    expect(res.body.items[1]).not.toHaveProperty('icon');
  });

  it('answers empty lists for a site without sections', async () => {
    const { read, site } = await newOrganizationWithSite(server, SITE);
    expect((await read.rest('GET', `${siteBase(site)}/sections`)).body).toEqual({ items: [], count: 0 });
    expect((await read.rest('GET', `${siteBase(site)}/section-groups`)).body).toEqual({ items: [], count: 0 });
  });

  it('opens the section list of a share-link site to a holder of an active share key', async () => {
    const { admin, site } = await newOrganizationWithSite(server, { ...SITE, visibility: 'share-link' });
    const section = await addSection(admin, site, 'Shared');
    const key = `key-${newId()}`;
    await insertShareLink(server, site, { name: 'Link', key });
    const stranger = await newUser(server);
    expectError(await stranger.rest('GET', `${siteBase(site)}/sections`), 404, 'Site not found');
    const res = await stranger.rest('GET', `${siteBase(site)}/sections?shareKey=${key}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([section.id]);
    // The key opens only the list of sections, not the groups.
    expectError(await stranger.rest('GET', `${siteBase(site)}/section-groups?shareKey=${key}`), 404, 'Site not found');
  });
});

// ─── updateSiteSectionById ──────────────────────────────────────────────────────────────────────────

describe('PATCH B/sections/{siteSectionId}', () => {
  it('changes title, path, icon, description and default site space; null removes icon and description', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, SITE);
    const one = await createSpace(admin, organization.id, 'One');
    const two = await createSpace(admin, organization.id, 'Two');
    await insertSiteSpace(server, site, { space: one.id, position: 'a0', path: 'one' });
    const second = await insertSiteSpace(server, site, { space: two.id, position: 'a1', path: 'two' });
    await addSection(admin, site, 'Other');
    const keeper = (await server.em().findOneOrFail(SiteSection, { site: site.id, path: 'developer-docs' })).id;
    const url = `${siteBase(site)}/sections/${keeper}`;

    const res = await admin.rest('PATCH', url, {
      title: 'Renamed',
      path: 'renamed_1',
      icon: 'rocket',
      description: 'What it holds',
      defaultSiteSpace: second.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: keeper, title: 'Renamed', path: 'renamed_1', icon: 'rocket', description: 'What it holds', default: true });
    expect((await server.em().findOneOrFail(SiteSection, { id: keeper })).defaultSiteSpace).toBe(second.id);
    const g = await admin.gql(`query($siteId: ID!) { siteSections(siteId: $siteId) { items { id defaultSiteSpace { id } } } }`, { siteId: site.id });
    expect(g.data.siteSections.items[0]).toEqual({ id: keeper, defaultSiteSpace: { id: second.id } });

    const cleared = await admin.rest('PATCH', url, { icon: null, description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('icon');
    expect(cleared.body).not.toHaveProperty('description');
    expect(cleared.body.title).toBe('Renamed'); // omitted fields stay
    expect((await admin.rest('PATCH', url, {})).status).toBe(200);
  });

  it('checks every limit of §8 and the path characters', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const section = await addSection(admin, site, 'Alpha');
    const patch = (body: unknown) => admin.rest('PATCH', `${siteBase(site)}/sections/${section.id}`, body);
    expectError(await patch({ title: 'x' }), 400, 'title: must be at least 2 characters');
    expectError(await patch({ title: 'x'.repeat(129) }), 400, 'title: must be at most 128 characters');
    expectError(await patch({ path: '' }), 400, 'path: must be at least 1 character');
    expectError(await patch({ path: 'p'.repeat(101) }), 400, 'path: must be at most 100 characters');
    expectError(await patch({ path: 'Not Valid' }), 400, 'path: must contain only lowercase letters, digits, hyphens and underscores');
    expectError(await patch({ icon: 'i'.repeat(51) }), 400, 'icon: must be at most 50 characters');
    expectError(await patch({ description: 'd'.repeat(257) }), 400, 'description: must be at most 256 characters');
    expectError(await patch({ title: null }), 400, 'title: must be a string');
    expectError(await patch({ bogus: true }), 400, 'bogus: unknown field');
    const ok = await patch({ title: 'x'.repeat(128), path: 'p'.repeat(100), icon: 'i'.repeat(50), description: 'd'.repeat(255) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await patch({ title: 'ab', path: 'p' })).status).toBe(200);
  });

  it("stores a description of 256 characters, the contract's maximum", async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const section = await addSection(admin, site, 'Alpha');
    const res = await admin.rest('PATCH', `${siteBase(site)}/sections/${section.id}`, { description: 'd'.repeat(256) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.description).toBe('d'.repeat(256));
  });

  it('answers 409 naming path when another section of the site has it', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    await addSection(admin, site, 'Beta');
    expectError(
      await admin.rest('PATCH', `${siteBase(site)}/sections/${a.id}`, { path: 'beta' }),
      409,
      'path: "beta" is already used by another section of the site',
    );
    // Its own path is not a conflict.
    expect((await admin.rest('PATCH', `${siteBase(site)}/sections/${a.id}`, { path: 'alpha' })).status).toBe(200);
  });

  it('refuses a default site space of another section (400)', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const b = await addSection(admin, site, 'Beta');
    const res = await admin.rest('PATCH', `${siteBase(site)}/sections/${a.id}`, { defaultSiteSpace: b.siteSpaces[0].id });
    expectError(res, 400, `defaultSiteSpace: no site space "${b.siteSpaces[0].id}" in this section`);
    expectError(await admin.rest('PATCH', `${siteBase(site)}/sections/${a.id}`, { defaultSiteSpace: 'nope' }), 400, /^defaultSiteSpace: /);
  });

  describe('condition', () => {
    async function siteWithSection(jsonSchema?: Record<string, unknown>) {
      const { admin, site } = await newOrganizationWithSite(server, SITE);
      if (jsonSchema) await insertAdaptiveSchema(server, site, { jsonSchema });
      const section = await addSection(admin, site, 'Alpha');
      return { admin, site, section, url: `${siteBase(site)}/sections/${section.id}` };
    }
    const schema = {
      type: 'object',
      properties: { unsigned: { type: 'object', properties: { beta: { type: 'boolean' }, plan: { type: 'string' } } } },
    };

    it('accepts a condition over attributes of the adaptive schema; omitted keeps it, null removes it', async () => {
      const { admin, site, url } = await siteWithSection(schema);
      const condition = 'visitor.claims.unsigned.beta && visitor.claims.unsigned.plan === "pro"';
      const res = await admin.rest('PATCH', url, { condition });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.condition).toBe(condition);
      expect((await admin.rest('PATCH', url, { title: 'Kept' })).body.condition).toBe(condition);
      const removed = await admin.rest('PATCH', url, { condition: null });
      expect(removed.status).toBe(200);
      expect(removed.body).not.toHaveProperty('condition');
      const g = await admin.gql(`query($siteId: ID!) { siteSections(siteId: $siteId) { items { condition } } }`, { siteId: site.id });
      expect(g.data.siteSections.items[0].condition).toBeNull();
    });

    it('refuses a condition on a site without adaptive schema', async () => {
      const { admin, url } = await siteWithSection();
      expectError(
        await admin.rest('PATCH', url, { condition: 'visitor.claims.unsigned.beta' }),
        400,
        'condition: "visitor.claims.unsigned.beta" needs an adaptive schema on the site that defines it',
      );
    });

    it('refuses an attribute the schema does not define, an expression that does not parse, and the length limits', async () => {
      const { admin, site, section, url } = await siteWithSection(schema);
      expectError(
        await admin.rest('PATCH', url, { condition: 'visitor.claims.unsigned.gamma' }),
        400,
        'condition: the site\'s adaptive schema defines no attribute "visitor.claims.unsigned.gamma"',
      );
      expectError(await admin.rest('PATCH', url, { condition: 'visitor.claims.(' }), 400, /^condition: does not parse: /);
      expectError(await admin.rest('PATCH', url, { condition: '' }), 400, 'condition: must be at least 1 character');
      expectError(await admin.rest('PATCH', url, { condition: `"${'x'.repeat(1023)}"` }), 400, 'condition: must be at most 1024 characters');
      const g = await admin.gql(
        `mutation($siteId: ID!, $id: ID!) { updateSiteSection(siteId: $siteId, id: $id, input: { condition: "visitor.claims.unsigned.gamma" }) { id } }`,
        { siteId: site.id, id: section.id },
      );
      expectGqlError(g, 'BAD_REQUEST', /defines no attribute/);
    });
  });
});

// ─── deleteSiteSectionById ──────────────────────────────────────────────────────────────────────────

describe('DELETE B/sections/{siteSectionId}', () => {
  it('removes the section with its site spaces (204)', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const b = await addSection(admin, site, 'Beta');
    const res = await admin.rest('DELETE', `${siteBase(site)}/sections/${b.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await server.em().count(SiteSpace, { id: b.siteSpaces[0].id })).toBe(0);
    expect(await sectionOrder(admin, site)).toEqual([a.id]);
    expect((await siteRow(server, site.id)).defaultSection).toBe(a.id); // not the default: unchanged
    expectError(await admin.rest('DELETE', `${siteBase(site)}/sections/${b.id}`), 404, 'Site section not found');
  });

  it('hands the default to the first top-level section, then to the first grouped one, then to none', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const b = await addSection(admin, site, 'Beta');
    const c = await addSection(admin, site, 'Gamma');
    const d = await addSection(admin, site, 'Delta');
    await addGroup(admin, site, { sections: [c.id] });
    // Top level: a, b, group[c], d → d moved first so that "first" means position, not creation.
    await admin.rest('POST', `${siteBase(site)}/sections/${d.id}/move`, { position: { before: { type: 'site-section', siteSection: b.id } } });
    expect((await admin.rest('DELETE', `${siteBase(site)}/sections/${a.id}`)).status).toBe(204);
    expect((await siteRow(server, site.id)).defaultSection).toBe(d.id);
    expect((await admin.rest('DELETE', `${siteBase(site)}/sections/${d.id}`)).status).toBe(204);
    expect((await siteRow(server, site.id)).defaultSection).toBe(b.id);
    expect((await admin.rest('DELETE', `${siteBase(site)}/sections/${b.id}`)).status).toBe(204);
    expect((await siteRow(server, site.id)).defaultSection).toBe(c.id);
    const list = await admin.rest('GET', `${siteBase(site)}/sections`);
    expect(list.body.items).toMatchObject([{ id: c.id, default: true }]);
    expect((await admin.rest('DELETE', `${siteBase(site)}/sections/${c.id}`)).status).toBe(204);
    expect((await siteRow(server, site.id)).defaultSection).toBeNull();
  });

  it('deletes through GraphQL', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const res = await admin.gql(`mutation($siteId: ID!, $id: ID!) { deleteSiteSection(siteId: $siteId, id: $id) }`, { siteId: site.id, id: a.id });
    expect(res).toMatchObject({ data: { deleteSiteSection: true } });
    expect(await server.em().count(SiteSection, { site: site.id })).toBe(0);
  });
});

// ─── moveSiteSection ────────────────────────────────────────────────────────────────────────────────

describe('POST B/sections/{siteSectionId}/move', () => {
  it('orders top-level sections among the top-level items; without position, to the end', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const b = await addSection(admin, site, 'Beta');
    const group = await addGroup(admin, site);
    const c = await addSection(admin, site, 'Gamma');
    const move = (id: string, body: unknown) => admin.rest('POST', `${siteBase(site)}/sections/${id}/move`, body);
    const g = { group: group.id, sections: [] };

    const res = await move(c.id, { position: { before: { type: 'site-section', siteSection: a.id } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: 'site-section', id: c.id });
    expect(await topLevel(site)).toEqual([c.id, a.id, b.id, g]);
    expect((await move(a.id, { position: { after: { type: 'site-section', siteSection: b.id } } })).status).toBe(200);
    expect(await topLevel(site)).toEqual([c.id, b.id, a.id, g]);
    expect(
      (await move(c.id, { position: { after: { type: 'site-section', siteSection: b.id }, before: { type: 'site-section', siteSection: a.id } } })).status,
    ).toBe(200);
    expect(await topLevel(site)).toEqual([b.id, c.id, a.id, g]);
    expect((await move(b.id, {})).status).toBe(200);
    expect(await topLevel(site)).toEqual([c.id, a.id, g, b.id]);
  });

  it('orders grouped sections among their group; a pointer across levels is a 400', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const [a, b, c, top] = [
      await addSection(admin, site, 'Alpha'),
      await addSection(admin, site, 'Beta'),
      await addSection(admin, site, 'Gamma'),
      await addSection(admin, site, 'Top'),
    ];
    const group = await addGroup(admin, site, { sections: [a.id, b.id, c.id] });
    const move = (id: string, body: unknown) => admin.rest('POST', `${siteBase(site)}/sections/${id}/move`, body);

    expect((await move(c.id, { position: { before: { type: 'site-section', siteSection: a.id } } })).status).toBe(200);
    expect(await topLevel(site)).toEqual([top.id, { group: group.id, sections: [c.id, a.id, b.id] }]);
    expect((await move(c.id, {})).status).toBe(200); // the end of its group
    expect(await topLevel(site)).toEqual([top.id, { group: group.id, sections: [a.id, b.id, c.id] }]);

    expectError(await move(a.id, { position: { before: { type: 'site-section', siteSection: top.id } } }), 400, /^position\.before\.siteSection: /);
    expectError(await move(top.id, { position: { after: { type: 'site-section', siteSection: a.id } } }), 400, /^position\.after\.siteSection: /);
    expectError(await move(top.id, { position: { after: { type: 'site-section', siteSection: group.id } } }), 400, /^position\.after\.siteSection: /);
    expectError(await move(top.id, { position: { after: { type: 'site-section', siteSection: top.id } } }), 400, /^position\.after\.siteSection: /);
    expectError(await move(a.id, { position: { after: { type: 'space', siteSection: b.id } } }), 400, 'position.after.type: must be "site-section"');
    expectError(
      await move(a.id, { position: { after: { type: 'site-section', siteSection: c.id }, before: { type: 'site-section', siteSection: b.id } } }),
      400,
      'position: "after" and "before" must be adjacent siblings, in that order',
    );
    expectError(await move(a.id, { position: { after: { type: 'site-section' } } }), 400, /siteSection/);
  });

  it('moves through GraphQL with a position argument', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const b = await addSection(admin, site, 'Beta');
    const res = await admin.gql(
      `mutation($siteId: ID!, $id: ID!, $position: SiteSectionPositionInput) { moveSiteSection(siteId: $siteId, id: $id, position: $position) { id } }`,
      { siteId: site.id, id: b.id, position: { before: { type: 'site-section', siteSection: a.id } } },
    );
    expect(res.errors).toBeUndefined();
    expect(await sectionOrder(admin, site)).toEqual([b.id, a.id]);
  });
});

// ─── section groups ─────────────────────────────────────────────────────────────────────────────────

describe('section groups', () => {
  it('creates a group at the end of the top level with the given sections in order (201)', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const [a, b, c] = [await addSection(admin, site, 'Alpha'), await addSection(admin, site, 'Beta'), await addSection(admin, site, 'Gamma')];
    const res = await admin.rest('POST', `${siteBase(site)}/section-groups`, { title: 'Reference', icon: 'books', sections: [c.id, a.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      object: 'site-section-group',
      id: expect.any(String),
      title: 'Reference',
      icon: 'books',
      sections: [
        { id: c.id, sectionGroup: res.body.id },
        { id: a.id, sectionGroup: res.body.id },
      ],
    });
    expect(await topLevel(site)).toEqual([b.id, { group: res.body.id, sections: [c.id, a.id] }]);
    // Sections move from another group too.
    const other = await addGroup(admin, site, { sections: [a.id] });
    expect(await topLevel(site)).toEqual([b.id, { group: res.body.id, sections: [c.id] }, { group: other.id, sections: [a.id] }]);
  });

  it('checks title (1-100), icon (max 50) and sections', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, SITE);
    const elsewhere = await addSection(admin, await insertSite(server, organization.id, SITE), 'Elsewhere');
    const post = (body: unknown) => admin.rest('POST', `${siteBase(site)}/section-groups`, body);
    expectError(await post({}), 400, 'title: is required');
    expectError(await post({ title: '' }), 400, 'title: must be at least 1 character');
    expectError(await post({ title: 't'.repeat(101) }), 400, 'title: must be at most 100 characters');
    expectError(await post({ title: 'G', icon: 'i'.repeat(51) }), 400, 'icon: must be at most 50 characters');
    expectError(await post({ title: 'G', sections: [elsewhere.id] }), 400, `sections: no section "${elsewhere.id}" in this site`);
    expect((await post({ title: 't'.repeat(100), icon: 'i'.repeat(50) })).status).toBe(201);
    expect((await post({ title: 'G' })).status).toBe(201);
  });

  it('updates title and icon; null removes the icon', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const group = await addGroup(admin, site, { title: 'Old', icon: 'star' });
    const url = `${siteBase(site)}/section-groups/${group.id}`;
    const res = await admin.rest('PATCH', url, { title: 'New' });
    expect(res.status).toBe(200);
    // draft and children: what the current client (0.202.0) requires of a group.
    expect(res.body).toEqual({ object: 'site-section-group', id: group.id, title: 'New', icon: 'star', sections: [], draft: false, children: [] });
    const cleared = await admin.rest('PATCH', url, { icon: null });
    expect(cleared.body).toEqual({ object: 'site-section-group', id: group.id, title: 'New', sections: [], draft: false, children: [] });
    expectError(await admin.rest('PATCH', url, { title: '' }), 400, 'title: must be at least 1 character');
    expectError(await admin.rest('PATCH', url, { title: 't'.repeat(101) }), 400, 'title: must be at most 100 characters');
    expectError(await admin.rest('PATCH', url, { icon: 'i'.repeat(51) }), 400, 'icon: must be at most 50 characters');
  });

  it('adds a section to the end of a group (201, the group) and removes it to the end of the top level (204)', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const [a, b, c] = [await addSection(admin, site, 'Alpha'), await addSection(admin, site, 'Beta'), await addSection(admin, site, 'Gamma')];
    const group = await addGroup(admin, site, { sections: [b.id] });
    const other = await addGroup(admin, site, { sections: [c.id] });
    const add = (sectionId: string) => admin.rest('POST', `${siteBase(site)}/section-groups/${group.id}/sections`, { sectionId });

    const res = await add(a.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ object: 'site-section-group', id: group.id, sections: [{ id: b.id }, { id: a.id }] });
    expect((await add(c.id)).status).toBe(201); // from another group
    expect(await topLevel(site)).toEqual([
      { group: group.id, sections: [b.id, a.id, c.id] },
      { group: other.id, sections: [] },
    ]);
    expect((await add(b.id)).body.sections.map((s: { id: string }) => s.id)).toEqual([b.id, a.id, c.id]); // already in: stays
    expectError(await add('nope'), 400, 'sectionId: no section "nope" in this site');
    expectError(await admin.rest('POST', `${siteBase(site)}/section-groups/${group.id}/sections`, {}), 400, 'sectionId: is required');

    const removed = await admin.rest('DELETE', `${siteBase(site)}/section-groups/${group.id}/sections/${a.id}`);
    expect(removed.status).toBe(204);
    expect(await topLevel(site)).toEqual([{ group: group.id, sections: [b.id, c.id] }, { group: other.id, sections: [] }, a.id]);
    expectError(await admin.rest('DELETE', `${siteBase(site)}/section-groups/${group.id}/sections/${a.id}`), 404, 'Site section not found');
    expectError(await admin.rest('DELETE', `${siteBase(site)}/section-groups/${other.id}/sections/${b.id}`), 404, 'Site section not found');
  });

  it('deletes a group and keeps its sections, at the end of the top level in their order', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const [a, b, c, d] = [
      await addSection(admin, site, 'Alpha'),
      await addSection(admin, site, 'Beta'),
      await addSection(admin, site, 'Gamma'),
      await addSection(admin, site, 'Delta'),
    ];
    const group = await addGroup(admin, site, { sections: [c.id, a.id] });
    await admin.rest('POST', `${siteBase(site)}/section-groups/${group.id}/move`, { position: { before: { type: 'site-section', id: b.id } } });
    expect(await topLevel(site)).toEqual([{ group: group.id, sections: [c.id, a.id] }, b.id, d.id]);
    const res = await admin.rest('DELETE', `${siteBase(site)}/section-groups/${group.id}`);
    expect(res.status).toBe(204);
    expect(await topLevel(site)).toEqual([b.id, d.id, c.id, a.id]);
    expect((await admin.rest('GET', `${siteBase(site)}/section-groups`)).body).toEqual({ items: [], count: 0 });
    expectError(await admin.rest('DELETE', `${siteBase(site)}/section-groups/${group.id}`), 404, 'Site section group not found');
  });

  it('moves a group among the top-level items; without position, to the end', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const g1 = await addGroup(admin, site, { title: 'G1' });
    const b = await addSection(admin, site, 'Beta');
    const g2 = await addGroup(admin, site, { title: 'G2' });
    const inner = await addSection(admin, site, 'Inner');
    await admin.rest('POST', `${siteBase(site)}/section-groups/${g2.id}/sections`, { sectionId: inner.id });
    const move = (id: string, body: unknown) => admin.rest('POST', `${siteBase(site)}/section-groups/${id}/move`, body);
    const G1 = { group: g1.id, sections: [] };
    const G2 = { group: g2.id, sections: [inner.id] };
    expect(await topLevel(site)).toEqual([a.id, G1, b.id, G2]);

    const res = await move(g2.id, { position: { before: { type: 'site-section', id: a.id } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: 'site-section-group', id: g2.id, title: 'G2', sections: [{ id: inner.id }] });
    expect(await topLevel(site)).toEqual([G2, a.id, G1, b.id]);
    expect((await move(g2.id, { position: { after: { type: 'site-section-group', id: g1.id } } })).status).toBe(200);
    expect(await topLevel(site)).toEqual([a.id, G1, G2, b.id]);
    expect((await move(g1.id, {})).status).toBe(200);
    expect(await topLevel(site)).toEqual([a.id, G2, b.id, G1]);

    expectError(await move(g1.id, { position: { before: { type: 'site-section', id: inner.id } } }), 400, /^position\.before\.id: /);
    expectError(await move(g1.id, { position: { before: { type: 'site-section-group', id: a.id } } }), 400, /^position\.before\.id: /);
    expectError(await move(g1.id, { position: { before: { type: 'site-section-group', id: g1.id } } }), 400, /^position\.before\.id: /);
    expectError(
      await move(g1.id, { position: { before: { type: 'space', id: a.id } } }),
      400,
      'position.before.type: must be "site-section" or "site-section-group"',
    );
  });

  it('works through GraphQL with the graph fields', async () => {
    const { admin, site } = await newOrganizationWithSite(server, SITE);
    const a = await addSection(admin, site, 'Alpha');
    const created = await admin.gql(
      `mutation($siteId: ID!, $input: AddSiteSectionGroupInput!) {
        addSiteSectionGroup(siteId: $siteId, input: $input) { object id title icon site { id } sections { id sectionGroup group { id title } } }
      }`,
      { siteId: site.id, input: { title: 'Group', sections: [a.id] } },
    );
    expect(created.errors).toBeUndefined();
    const group = created.data.addSiteSectionGroup;
    expect(group).toEqual({
      object: 'site-section-group',
      id: expect.any(String),
      title: 'Group',
      icon: null,
      site: { id: site.id },
      sections: [{ id: a.id, sectionGroup: group.id, group: { id: group.id, title: 'Group' } }],
    });
    const vars = { siteId: site.id, id: group.id, sectionId: a.id };
    expect(
      (await admin.gql(`mutation($siteId: ID!, $id: ID!, $sectionId: ID!) { removeSectionFromGroup(siteId: $siteId, id: $id, sectionId: $sectionId) }`, vars))
        .data,
    ).toEqual({
      removeSectionFromGroup: true,
    });
    const added = await admin.gql(
      `mutation($siteId: ID!, $id: ID!, $sectionId: ID!) { addSectionToGroup(siteId: $siteId, id: $id, sectionId: $sectionId) { sections { id } } }`,
      vars,
    );
    expect(added.data.addSectionToGroup.sections).toEqual([{ id: a.id }]);
    const updated = await admin.gql(
      `mutation($siteId: ID!, $id: ID!) { updateSiteSectionGroup(siteId: $siteId, id: $id, input: { icon: "gear" }) { icon } }`,
      vars,
    );
    expect(updated.data.updateSiteSectionGroup.icon).toBe('gear');
    const moved = await admin.gql(`mutation($siteId: ID!, $id: ID!) { moveSiteSectionGroup(siteId: $siteId, id: $id) { id } }`, vars);
    expect(moved.errors).toBeUndefined();
    expect((await admin.gql(`mutation($siteId: ID!, $id: ID!) { deleteSiteSectionGroup(siteId: $siteId, id: $id) }`, vars)).data).toEqual({
      deleteSiteSectionGroup: true,
    });
  });
});

// ─── 401, 403, 404 ──────────────────────────────────────────────────────────────────────────────────

describe('401, 403 and 404', () => {
  /** Every operation of the area, against one section and one group of `site`. */
  function operations(site: SiteRow, sectionId: string, groupId: string, spaceId: string): [string, string, unknown?][] {
    const b = siteBase(site);
    return [
      ['GET', `${b}/sections`],
      ['POST', `${b}/sections`, { spaceId }],
      ['PATCH', `${b}/sections/${sectionId}`, { title: 'Changed' }],
      ['POST', `${b}/sections/${sectionId}/move`, {}],
      ['DELETE', `${b}/sections/${sectionId}`],
      ['GET', `${b}/section-groups`],
      ['POST', `${b}/section-groups`, { title: 'G' }],
      ['PATCH', `${b}/section-groups/${groupId}`, { title: 'Changed' }],
      ['POST', `${b}/section-groups/${groupId}/sections`, { sectionId }],
      ['DELETE', `${b}/section-groups/${groupId}/sections/${sectionId}`],
      ['POST', `${b}/section-groups/${groupId}/move`, {}],
      ['DELETE', `${b}/section-groups/${groupId}`],
    ];
  }

  async function fixture() {
    const t = await newOrganizationWithRoles(server);
    const site = await insertSite(server, t.organization.id, SITE);
    const space = await createSpace(t.admin, t.organization.id, 'Guides');
    const section = await addSection(t.admin, site, 'Alpha');
    const group = await addGroup(t.admin, site, { sections: [section.id] });
    return { ...t, site, space, section, group };
  }

  it('answers 401 without a token or with a bad one, on both doors', async () => {
    const { site, space, section, group } = await fixture();
    await expectAuthRequired(server, operations(site, section.id, group.id, space.id));
    await expectGqlAuthRequired(server, `query($id: ID!) { siteSections(siteId: $id) { count } }`, { id: site.id });
  });

  it('lets read members list and answers 403 to their changes', async () => {
    const { site, space, section, group, read, edit, create } = await fixture();
    for (const caller of [read, edit, create]) {
      for (const [method, path, body] of operations(site, section.id, group.id, space.id)) {
        const res = await caller.rest(method, path, body);
        if (method === 'GET') expect(res.status, `${method} ${path}`).toBe(200);
        else expectError(res, 403, 'Site: this operation needs the admin role');
      }
    }
    expectGqlError(await read.gql(`mutation($s: ID!, $id: ID!) { deleteSiteSection(siteId: $s, id: $id) }`, { s: site.id, id: section.id }), 'FORBIDDEN');
    expect(await server.em().count(SiteSection, { site: site.id })).toBe(1);
  });

  it('hides the site from guests, outsiders and under another organization (404)', async () => {
    const { site, space, section, group, guest, outsider, admin } = await fixture();
    for (const caller of [guest, outsider]) {
      for (const [method, path, body] of operations(site, section.id, group.id, space.id)) {
        expectError(await caller.rest(method, path, body), 404, 'Site not found');
      }
    }
    // The admin's own site, named under another organization of theirs.
    const elsewhere = await newOrganization(server, admin);
    const wrong = { ...site, organization: elsewhere.id };
    for (const [method, path, body] of operations(wrong, section.id, group.id, space.id)) {
      expectError(await admin.rest(method, path, body), 404, 'Site not found');
    }
    expectGqlError(
      await admin.gql(`query($s: ID!, $o: ID) { siteSections(siteId: $s, organizationId: $o) { count } }`, { s: site.id, o: elsewhere.id }),
      'NOT_FOUND',
      'Site not found',
    );
  });

  it('answers 404 for sections and groups of another site', async () => {
    const { site, admin, organization } = await fixture();
    const other = await insertSite(server, organization.id, SITE);
    const foreignSection = await addSection(admin, other, 'Foreign');
    const foreignGroup = await addGroup(admin, other);
    const b = siteBase(site);
    const sectionMissing: [string, string, unknown?][] = [
      ['PATCH', `${b}/sections/${foreignSection.id}`, { title: 'Changed' }],
      ['POST', `${b}/sections/${foreignSection.id}/move`, {}],
      ['DELETE', `${b}/sections/${foreignSection.id}`],
      ['DELETE', `${b}/sections/no-such-section`],
    ];
    for (const [method, path, body] of sectionMissing) expectError(await admin.rest(method, path, body), 404, 'Site section not found');
    const groupMissing: [string, string, unknown?][] = [
      ['PATCH', `${b}/section-groups/${foreignGroup.id}`, { title: 'Changed' }],
      ['POST', `${b}/section-groups/${foreignGroup.id}/sections`, { sectionId: foreignSection.id }],
      ['DELETE', `${b}/section-groups/${foreignGroup.id}/sections/${foreignSection.id}`],
      ['POST', `${b}/section-groups/${foreignGroup.id}/move`, {}],
      ['DELETE', `${b}/section-groups/${foreignGroup.id}`],
    ];
    for (const [method, path, body] of groupMissing) expectError(await admin.rest(method, path, body), 404, 'Site section group not found');
    // Nothing of the other site changed.
    expect(await sectionOrder(admin, other)).toEqual([foreignSection.id]);
    expect(await topLevel(other)).toEqual([foreignSection.id, { group: foreignGroup.id, sections: [] }]);
    expectGqlError(
      await admin.gql(`mutation($s: ID!, $id: ID!) { deleteSiteSection(siteId: $s, id: $id) }`, { s: site.id, id: foreignSection.id }),
      'NOT_FOUND',
      'Site section not found',
    );
  });
});
