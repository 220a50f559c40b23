/**
 * Site spaces (contract §2.6, §4.8, §8) through both doors — REST /v1 and POST /graphql — on the real
 * database: shapes, paths, defaults, ordering, conditions, permissions and isolation.
 *
 * Sites, sections and groups are inserted as rows (their operations belong to other areas), so these
 * tests depend only on the site-space operations and on spaces.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Site, SiteSpace, type SiteRow } from '../src/domain/sites/index.js';
import { slugOf } from '../src/domain/sites/index.js';
import { createSpace } from './support/content.js';
import { expectAuthRequired, expectContract, expectError, expectGqlAuthRequired, expectLimitsRefused } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';
import {
  insertAdaptiveSchema,
  insertSection,
  insertSectionGroup,
  insertSite,
  newOrganizationWithSite,
  sectionRow,
  siteBase,
  siteRow,
} from './support/sites.js';
import { countStatements } from './support/sql.js';

const SECOND = 1000;
const PUBLIC_URL = 'http://docs.test';

const server = useTestServer();
beforeEach(() => server.clock.advance(SECOND));

// ─── helpers ────────────────────────────────────────────────────────────────────────────────────────

async function addSiteSpace(caller: Caller, site: SiteRow, body: Record<string, unknown>) {
  const res = await caller.rest('POST', `${siteBase(site)}/site-spaces`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Publishes a new space titled `title` in the site and answers the site space. */
async function publish(caller: Caller, site: SiteRow, title: string, sectionId?: string) {
  const space = await createSpace(caller, site.organization, title);
  return addSiteSpace(caller, site, { spaceId: space.id, ...(sectionId ? { sectionId } : {}) });
}

/** A site of a new organization with two sections, at paths `a` and `b` unless `paths` are given: the first is the default. */
async function siteWithTwoSections(paths: [string, string] = ['a', 'b']) {
  const { organization, admin, site } = await newOrganizationWithSite(server);
  const a = await insertSection(server, site, { path: paths[0], position: 'a0', isDefault: true });
  const b = await insertSection(server, site, { path: paths[1], position: 'a1' });
  return { organization, admin, site, a, b };
}

/** A site of a new organization with one section, its default, publishing spaces A, B and C in that order. */
async function sectionWithThreeSiteSpaces() {
  const { admin, site } = await newOrganizationWithSite(server);
  const section = await insertSection(server, site, { path: 's', position: 'a0', isDefault: true });
  const [a, b, c] = [await publish(admin, site, 'A', section.id), await publish(admin, site, 'B', section.id), await publish(admin, site, 'C', section.id)];
  return { admin, site, section, a, b, c };
}

async function listIds(caller: Caller, site: SiteRow, query = ''): Promise<string[]> {
  const res = await caller.rest('GET', `${siteBase(site)}/site-spaces${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((s: { id: string }) => s.id);
}

// ─── authentication ─────────────────────────────────────────────────────────────────────────────────

describe('authentication', () => {
  it('answers 401 on every site-space operation without a token or with a bad one', async () => {
    const { site } = await newOrganizationWithSite(server);
    const calls: [string, string, unknown?][] = [
      ['GET', `${siteBase(site)}/site-spaces`],
      ['POST', `${siteBase(site)}/site-spaces`, { spaceId: 'x' }],
      ['PATCH', `${siteBase(site)}/site-spaces/x`, { path: 'p' }],
      ['DELETE', `${siteBase(site)}/site-spaces/x`],
      ['POST', `${siteBase(site)}/site-spaces/x/move`, {}],
    ];
    await expectAuthRequired(server, calls);
    await expectGqlAuthRequired(server, `{ siteSpaces(siteId: "${site.id}") { count } }`);
  });
});

// ─── addSpaceToSite ─────────────────────────────────────────────────────────────────────────────────

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces', () => {
  it('publishes a space at the root level of a site without sections, as the default, with every contract field', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server);
    const space = await createSpace(admin, organization.id, 'Getting started');
    const res = await admin.rest('POST', `${siteBase(site)}/site-spaces`, { spaceId: space.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const spaceBody = (await admin.rest('GET', `/v1/spaces/${space.id}`)).body;
    expect(res.body).toEqual({
      object: 'site-space',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      path: 'getting-started',
      space: spaceBody,
      title: 'Getting started',
      default: true,
      hasAdvancedCustomizationFeature: false,
      // What the current client (0.202.0) requires: nothing here is a draft.
      draft: false,
      urls: {
        location: `${PUBLIC_URL}/v1/orgs/${organization.id}/sites/${site.id}/site-spaces/${res.body.id}`,
        published: `${PUBLIC_URL}/sites/${site.id}/getting-started`,
      },
      // root level: no `section`; no condition
    });
    expectContract('addSpaceToSite', res);
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBe(res.body.id);

    const second = await publish(admin, site, 'Reference');
    expect(second).toMatchObject({ path: 'reference', default: false });
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBe(res.body.id);
  });

  it('goes to the default section when no section is named, and to the named section otherwise', async () => {
    const { admin, site } = await newOrganizationWithSite(server, { hostname: 'docs.example.com', basename: 'help' });
    const first = await insertSection(server, site, { path: 'guides', position: 'a0' });
    const main = await insertSection(server, site, { path: 'api', position: 'a1', isDefault: true });

    const toDefault = await publish(admin, site, 'Endpoints');
    expect(toDefault).toMatchObject({ section: main.id, default: true, urls: { published: 'https://docs.example.com/help/api/endpoints' } });
    const named = await publish(admin, site, 'Tutorial', first.id);
    expect(named).toMatchObject({ section: first.id, default: true, path: 'tutorial' });
    const another = await publish(admin, site, 'Advanced', first.id);
    expect(another).toMatchObject({ section: first.id, default: false });

    expect((await sectionRow(server, main.id)).defaultSiteSpace).toBe(toDefault.id);
    expect((await sectionRow(server, first.id)).defaultSiteSpace).toBe(named.id);
    // A site with sections keeps no root-level default.
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBeNull();
  });

  it('falls back to the oldest section of a site with sections but no default section', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const oldest = await insertSection(server, site, { path: 'one', position: 'a1' });
    server.clock.advance(SECOND);
    await insertSection(server, site, { path: 'two', position: 'a0' });
    expect(await publish(admin, site, 'Anything')).toMatchObject({ section: oldest.id, default: true });
  });

  it('makes paths from titles, unique among the siblings only', async () => {
    const { admin, site, a, b } = await siteWithTwoSections();
    expect((await publish(admin, site, 'Guide', a.id)).path).toBe('guide');
    expect((await publish(admin, site, 'Guide', a.id)).path).toBe('guide-2');
    expect((await publish(admin, site, 'guide!', a.id)).path).toBe('guide-3');
    expect((await publish(admin, site, 'Guide', b.id)).path).toBe('guide');
    expect((await publish(admin, site, 'Café Über — Déjà vu', b.id)).path).toBe('cafe-uber-deja-vu');
    expect((await publish(admin, site, '🎉', b.id)).path).toBe('space');
  });

  it('refuses a missing, unknown, foreign or deleted space and a section of another site, naming the field', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id);
    const otherSite = await insertSite(server, organization.id);
    const foreignSection = await insertSection(server, otherSite, { path: 'x', position: 'a0' });
    const space = await createSpace(admin, organization.id, 'Mine');
    const foreign = await createSpace(other.admin, other.organization.id, 'Theirs');
    const deleted = await createSpace(admin, organization.id, 'Gone');
    expect((await admin.rest('DELETE', `/v1/spaces/${deleted.id}`)).status).toBe(204);
    const url = `${siteBase(site)}/site-spaces`;

    expectError(await admin.rest('POST', url, {}), 400, 'spaceId: is required');
    expectError(await admin.rest('POST', url, { spaceId: 'nope' }), 400, 'spaceId: no space "nope" that you can read in the site\'s organization');
    expectError(await admin.rest('POST', url, { spaceId: foreign.id }), 400, `spaceId: no space "${foreign.id}" that you can read in the site's organization`);
    expectError(await admin.rest('POST', url, { spaceId: deleted.id }), 400, `spaceId: space "${deleted.id}" is deleted; restore it first`);
    expectError(
      await admin.rest('POST', url, { spaceId: space.id, sectionId: foreignSection.id }),
      400,
      `sectionId: no section "${foreignSection.id}" in this site`,
    );
    expectError(await admin.rest('POST', url, { spaceId: space.id, sectionId: 'nope' }), 400, 'sectionId: no section "nope" in this site');
    expectError(await admin.rest('POST', url, { spaceId: space.id, extra: 1 }), 400, 'extra: unknown field');
    expect(await server.em().count(SiteSpace, { site: site.id })).toBe(0);
  });

  it('refuses the same space twice in one section (409) but accepts it in another section', async () => {
    const { organization, admin, site, a, b } = await siteWithTwoSections();
    const space = await createSpace(admin, organization.id, 'Shared');
    await addSiteSpace(admin, site, { spaceId: space.id, sectionId: a.id });
    expectError(
      await admin.rest('POST', `${siteBase(site)}/site-spaces`, { spaceId: space.id, sectionId: a.id }),
      409,
      `spaceId: space "${space.id}" is already published in this section`,
    );
    expect(await addSiteSpace(admin, site, { spaceId: space.id, sectionId: b.id })).toMatchObject({ section: b.id, path: 'shared' });
  });

  it('gives concurrent additions distinct paths and positions, and one default', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server);
    const spaces = [];
    for (let i = 0; i < 6; i++) spaces.push(await createSpace(admin, organization.id, 'Same'));
    const added = await Promise.all(spaces.map((space) => admin.rest('POST', `${siteBase(site)}/site-spaces`, { spaceId: space.id })));
    expect(added.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(added.map((r) => r.body.path).sort()).toEqual(['same', 'same-2', 'same-3', 'same-4', 'same-5', 'same-6']);
    expect(added.filter((r) => r.body.default)).toHaveLength(1);
    const rows = await server.em().find(SiteSpace, { site: site.id });
    expect(new Set(rows.map((r) => r.position)).size).toBe(6);
    expect(await listIds(admin, site, '?default=true')).toEqual([added.find((r) => r.body.default)!.body.id]);
  });

  it('answers no published URL while the site is unpublished', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server, { published: false });
    const added = await publish(admin, site, 'Draft');
    expect(added.urls).toEqual({ location: `${PUBLIC_URL}/v1/orgs/${organization.id}/sites/${site.id}/site-spaces/${added.id}` });
  });

  it('works through GraphQL, with the site and section relations', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server);
    const section = await insertSection(server, site, { path: 'docs', position: 'a0', isDefault: true });
    const space = await createSpace(admin, organization.id, 'Handbook');
    const res = await admin.gql(
      `mutation($siteId: ID!, $input: AddSiteSpaceInput!) {
        addSiteSpace(siteId: $siteId, input: $input) {
          object path section title default condition hasAdvancedCustomizationFeature urls { published }
          space { id title } site { id } siteSection { id path }
        }
      }`,
      { siteId: site.id, input: { spaceId: space.id } },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.addSiteSpace).toEqual({
      object: 'site-space',
      path: 'handbook',
      section: section.id,
      title: 'Handbook',
      default: true,
      condition: null,
      hasAdvancedCustomizationFeature: false,
      urls: { published: `${PUBLIC_URL}/sites/${site.id}/docs/handbook` },
      space: { id: space.id, title: 'Handbook' },
      site: { id: site.id },
      siteSection: { id: section.id, path: 'docs' },
    });
    const bad = await admin.gql(`mutation($siteId: ID!) { addSiteSpace(siteId: $siteId, input: { spaceId: "nope" }) { id } }`, { siteId: site.id });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(bad.errors?.[0]?.message).toMatch(/^spaceId: /);
  });
});

// ─── listSiteSpaces ─────────────────────────────────────────────────────────────────────────────────

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces', () => {
  it('lists in navigation order: groups and sections by position, then each section by position', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const group = await insertSectionGroup(server, site, { position: 'a0' });
    const top = await insertSection(server, site, { path: 'top', position: 'a1', isDefault: true });
    const grouped2 = await insertSection(server, site, { path: 'g2', position: 'a1', sectionGroup: group.id });
    const grouped1 = await insertSection(server, site, { path: 'g1', position: 'a0', sectionGroup: group.id });
    const t1 = await publish(admin, site, 'T1', top.id);
    const g2 = await publish(admin, site, 'G2', grouped2.id);
    const g1a = await publish(admin, site, 'G1a', grouped1.id);
    const g1b = await publish(admin, site, 'G1b', grouped1.id);
    const res = await admin.rest('GET', `${siteBase(site)}/site-spaces`);
    expect(res.status).toBe(200);
    expectContract('listSiteSpaces', res);
    expect(res.body.count).toBe(4);
    expect(res.body.next).toBeUndefined();
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([g1a.id, g1b.id, g2.id, t1.id]);
  });

  it('filters by `default`: true only the defaults, false the others, absent all', async () => {
    const { admin, site, a, b } = await siteWithTwoSections();
    const a1 = await publish(admin, site, 'A1', a.id);
    const a2 = await publish(admin, site, 'A2', a.id);
    const b1 = await publish(admin, site, 'B1', b.id);
    const b2 = await publish(admin, site, 'B2', b.id);
    expect(await listIds(admin, site, '?default=true')).toEqual([a1.id, b1.id]);
    expect(await listIds(admin, site, '?default=false')).toEqual([a2.id, b2.id]);
    expect(await listIds(admin, site)).toEqual([a1.id, a2.id, b1.id, b2.id]);
    const all = await admin.rest('GET', `${siteBase(site)}/site-spaces`);
    expect(all.body.items.map((s: { default: boolean }) => s.default)).toEqual([true, false, true, false]);
    const res = await admin.rest('GET', `${siteBase(site)}/site-spaces?default=true`);
    expect(res.body.count).toBe(2);
    expectError(await admin.rest('GET', `${siteBase(site)}/site-spaces?default=yes`), 400, 'default: must be true or false');

    const gql = await admin.gql(`query($id: ID!) { siteSpaces(siteId: $id, default: false) { count items { id default } } }`, { id: site.id });
    expect(gql.data.siteSpaces).toEqual({
      count: 2,
      items: [
        { id: a2.id, default: false },
        { id: b2.id, default: false },
      ],
    });
  });

  it('pages with `limit` and `page`, and keeps `limit` within 1-1000', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const ids = [];
    for (const title of ['One', 'Two', 'Three']) ids.push((await publish(admin, site, title)).id);
    const first = await admin.rest('GET', `${siteBase(site)}/site-spaces?limit=2`);
    expect(first.body.items.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
    expect(first.body.count).toBe(3);
    const second = await admin.rest('GET', `${siteBase(site)}/site-spaces?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((s: { id: string }) => s.id)).toEqual(ids.slice(2));
    expect(second.body.next).toBeUndefined();
    expect((await admin.rest('GET', `${siteBase(site)}/site-spaces?limit=1000`)).status).toBe(200);
    await expectLimitsRefused(admin, `${siteBase(site)}/site-spaces`, [0, 1001]);
    expectError(await admin.rest('GET', `${siteBase(site)}/site-spaces?page=garbage`), 400, 'page: not a page identifier returned by this list');
  });

  it('sends the same number of SQL statements for 2 and for 8 site spaces with their relations', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const small = await insertSite(server, organization.id);
    const large = await insertSite(server, organization.id);
    for (const site of [small, large]) {
      const a = await insertSection(server, site, { path: 'a', position: 'a0', isDefault: true });
      const b = await insertSection(server, site, { path: 'b', position: 'a1' });
      const count = site === small ? 2 : 8;
      for (let i = 0; i < count; i++) await publish(admin, site, `S${i}`, i % 2 ? b.id : a.id);
    }
    const query = `query($id: ID!) { siteSpaces(siteId: $id) { count items {
      id path title default urls { published } space { id title permissions { admin } } site { id } siteSection { id }
    } } }`;
    const statements = (siteId: string) =>
      countStatements(async () => {
        const res = await admin.gql(query, { id: siteId });
        expect(res.errors).toBeUndefined();
      });
    expect(await statements(large.id)).toBe(await statements(small.id));
  });
});

// ─── updateSiteSpaceById ────────────────────────────────────────────────────────────────────────────

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', () => {
  it('changes the path within 1-100 characters, unique among the siblings', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const a = await publish(admin, site, 'Alpha');
    await publish(admin, site, 'Beta');
    const url = `${siteBase(site)}/site-spaces/${a.id}`;

    const res = await admin.rest('PATCH', url, { path: 'x'.repeat(100) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('updateSiteSpaceById', res);
    expect(res.body).toMatchObject({ id: a.id, path: 'x'.repeat(100), urls: { published: `${PUBLIC_URL}/sites/${site.id}/${'x'.repeat(100)}` } });
    expect((await admin.rest('PATCH', url, { path: 'alpha' })).body.path).toBe('alpha');
    // Its own path again is no conflict.
    expect((await admin.rest('PATCH', url, { path: 'alpha' })).status).toBe(200);

    expectError(await admin.rest('PATCH', url, { path: '' }), 400, 'path: must be at least 1 character');
    expectError(await admin.rest('PATCH', url, { path: 'x'.repeat(101) }), 400, 'path: must be at most 100 characters');
    expectError(await admin.rest('PATCH', url, { path: 'a/b' }), 400, 'path: must be one URL path segment (no /, ?, #, % or spaces)');
    expectError(await admin.rest('PATCH', url, { path: 'beta' }), 409, 'path: "beta" is already the path of another site space of this site\'s root level');
    expectError(await admin.rest('PATCH', url, { path: 42 }), 400, /^path: /);
    expectError(await admin.rest('PATCH', url, { nope: 1 }), 400, 'nope: unknown field');
  });

  it('allows the same path in another section', async () => {
    const { admin, site, a, b } = await siteWithTwoSections();
    await publish(admin, site, 'Shared', a.id);
    const other = await publish(admin, site, 'Other', b.id);
    const res = await admin.rest('PATCH', `${siteBase(site)}/site-spaces/${other.id}`, { path: 'shared' });
    expect(res.status).toBe(200);
    expect(res.body.path).toBe('shared');
  });

  it('sets a condition the adaptive schema allows, keeps it when omitted and removes it with null', async () => {
    const { admin, site } = await newOrganizationWithSite(server, { adaptiveContentEnabled: true });
    await insertAdaptiveSchema(server, site, {
      jsonSchema: { type: 'object', properties: { plan: { type: 'string' }, beta: { type: 'boolean', description: 'Beta tester' } } },
    });
    const added = await publish(admin, site, 'Pro docs');
    const url = `${siteBase(site)}/site-spaces/${added.id}`;
    const condition = 'visitor.claims.plan === "pro" && !visitor.claims.beta';

    const set = await admin.rest('PATCH', url, { condition });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.condition).toBe(condition);
    const kept = await admin.rest('PATCH', url, { path: 'pro' });
    expect(kept.body).toMatchObject({ path: 'pro', condition });
    expect((await server.em().findOneOrFail(SiteSpace, { id: added.id })).condition).toBe(condition);

    expectError(
      await admin.rest('PATCH', url, { condition: 'visitor.claims.region == "eu"' }),
      400,
      'condition: the site\'s adaptive schema defines no attribute "visitor.claims.region"',
    );
    expectError(await admin.rest('PATCH', url, { condition: 'visitor.claims.plan ===' }), 400, /^condition: does not parse: /);
    expectError(await admin.rest('PATCH', url, { condition: '' }), 400, 'condition: must be at least 1 character');
    expectError(await admin.rest('PATCH', url, { condition: `"${'x'.repeat(1023)}"` }), 400, 'condition: must be at most 1024 characters');
    // A refused condition leaves the stored one alone.
    expect((await server.em().findOneOrFail(SiteSpace, { id: added.id })).condition).toBe(condition);
    // 1024 characters are fine.
    expect((await admin.rest('PATCH', url, { condition: `"${'x'.repeat(1022)}"` })).status).toBe(200);

    const removed = await admin.rest('PATCH', url, { condition: null });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('condition');
    expect((await server.em().findOneOrFail(SiteSpace, { id: added.id })).condition).toBeNull();
  });

  it('refuses attribute conditions on a site without an adaptive schema', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const added = await publish(admin, site, 'Docs');
    expectError(
      await admin.rest('PATCH', `${siteBase(site)}/site-spaces/${added.id}`, { condition: 'visitor.claims.beta' }),
      400,
      'condition: "visitor.claims.beta" needs an adaptive schema on the site that defines it',
    );
  });

  it('points the site space at another space of the organization, keeping its path', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id);
    const added = await publish(admin, site, 'Version 1');
    const sibling = await publish(admin, site, 'Sibling');
    const v2 = await createSpace(admin, organization.id, 'Version 2');
    const url = `${siteBase(site)}/site-spaces/${added.id}`;

    const res = await admin.rest('PATCH', url, { spaceId: v2.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: added.id, path: 'version-1', title: 'Version 2', space: { id: v2.id, title: 'Version 2' }, default: true });

    const foreign = await createSpace(other.admin, other.organization.id, 'Theirs');
    expectError(await admin.rest('PATCH', url, { spaceId: foreign.id }), 400, `spaceId: no space "${foreign.id}" that you can read in the site's organization`);
    expectError(await admin.rest('PATCH', url, { spaceId: null }), 400, 'spaceId: must be a string');
    expectError(
      await admin.rest('PATCH', url, { spaceId: sibling.space.id }),
      409,
      `spaceId: space "${sibling.space.id}" is already published in this site's root level`,
    );
  });

  it('works through GraphQL', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const added = await publish(admin, site, 'Docs');
    const res = await admin.gql(
      `mutation($siteId: ID!, $id: ID!) { updateSiteSpace(siteId: $siteId, id: $id, input: { path: "manual", condition: "true" }) { id path condition } }`,
      { siteId: site.id, id: added.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.updateSiteSpace).toEqual({ id: added.id, path: 'manual', condition: 'true' });
  });
});

// ─── deleteSiteSpaceById and defaults ───────────────────────────────────────────────────────────────

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', () => {
  it('removes the site space but not the space, and answers 404 the second time', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const added = await publish(admin, site, 'Docs');
    const res = await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${added.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await server.em().count(SiteSpace, { id: added.id })).toBe(0);
    expect((await admin.rest('GET', `/v1/spaces/${added.space.id}`)).status).toBe(200);
    expectError(await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${added.id}`), 404, 'Site space not found');
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBeNull();
  });

  it("hands a section's default to the next site space, and keeps it when another one goes", async () => {
    const { admin, site, section, a, b, c } = await sectionWithThreeSiteSpaces();
    expect((await sectionRow(server, section.id)).defaultSiteSpace).toBe(a.id);

    expect((await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${a.id}`)).status).toBe(204);
    expect((await sectionRow(server, section.id)).defaultSiteSpace).toBe(b.id);
    expect(await listIds(admin, site, '?default=true')).toEqual([b.id]);

    expect((await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${c.id}`)).status).toBe(204);
    expect((await sectionRow(server, section.id)).defaultSiteSpace).toBe(b.id);

    expect((await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${b.id}`)).status).toBe(204);
    expect((await sectionRow(server, section.id)).defaultSiteSpace).toBeNull();
    // The next space added becomes the default again.
    const d = await publish(admin, site, 'D', section.id);
    expect(d.default).toBe(true);
  });

  it('hands the root default to the following site space in position order, else to the one before', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const x = await publish(admin, site, 'X');
    const y = await publish(admin, site, 'Y');
    const z = await publish(admin, site, 'Z');
    // Z moved first: position order is Z, X, Y.
    expect(
      (await admin.rest('POST', `${siteBase(site)}/site-spaces/${z.id}/move`, { position: { before: { type: 'site-space', siteSpace: x.id } } })).status,
    ).toBe(200);
    await server.em().nativeUpdate(Site, { id: site.id }, { defaultSiteSpace: z.id });

    expect((await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${z.id}`)).status).toBe(204);
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBe(x.id);
    await server.em().nativeUpdate(Site, { id: site.id }, { defaultSiteSpace: y.id });
    expect((await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${y.id}`)).status).toBe(204);
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBe(x.id);
    expect((await admin.rest('DELETE', `${siteBase(site)}/site-spaces/${x.id}`)).status).toBe(204);
    expect((await siteRow(server, site.id)).defaultSiteSpace).toBeNull();
  });

  it('works through GraphQL', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const added = await publish(admin, site, 'Docs');
    const res = await admin.gql(`mutation($s: ID!, $id: ID!) { deleteSiteSpace(siteId: $s, id: $id) }`, { s: site.id, id: added.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.deleteSiteSpace).toBe(true);
  });
});

// ─── moveSiteSpace ──────────────────────────────────────────────────────────────────────────────────

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move', () => {
  it('moves before, after, and to the end of its section, leaving the default alone', async () => {
    const { admin, site, section, a, b, c } = await sectionWithThreeSiteSpaces();
    const move = (id: string, body?: unknown) => admin.rest('POST', `${siteBase(site)}/site-spaces/${id}/move`, body);

    const res = await move(c.id, { position: { before: { type: 'site-space', siteSpace: a.id } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('moveSiteSpace', res);
    expect(res.body).toMatchObject({ id: c.id, section: section.id, default: false });
    expect(await listIds(admin, site)).toEqual([c.id, a.id, b.id]);

    expect((await move(c.id, { position: { after: { type: 'site-space', siteSpace: a.id } } })).status).toBe(200);
    expect(await listIds(admin, site)).toEqual([a.id, c.id, b.id]);

    expect((await move(a.id, { position: { after: { type: 'site-space', siteSpace: c.id }, before: { type: 'site-space', siteSpace: b.id } } })).status).toBe(
      200,
    );
    expect(await listIds(admin, site)).toEqual([c.id, a.id, b.id]);

    expect((await move(c.id)).status).toBe(200);
    expect(await listIds(admin, site)).toEqual([a.id, b.id, c.id]);
    expect((await move(a.id, {})).status).toBe(200);
    expect(await listIds(admin, site)).toEqual([b.id, c.id, a.id]);
    expect((await sectionRow(server, section.id)).defaultSiteSpace).toBe(a.id);
  });

  it('refuses pointers that are not siblings, of the wrong type, or not adjacent', async () => {
    const { admin, site, a: s1, b: s2 } = await siteWithTwoSections(['s1', 's2']);
    const a = await publish(admin, site, 'A', s1.id);
    const b = await publish(admin, site, 'B', s1.id);
    const c = await publish(admin, site, 'C', s1.id);
    const elsewhere = await publish(admin, site, 'Elsewhere', s2.id);
    const url = `${siteBase(site)}/site-spaces/${a.id}/move`;

    const pointer = (siteSpace: string, type = 'site-space') => ({ type, siteSpace });
    expectError(
      await admin.rest('POST', url, { position: { before: pointer(elsewhere.id) } }),
      400,
      `position.before: "${elsewhere.id}" is not a sibling of the item`,
    );
    expectError(await admin.rest('POST', url, { position: { after: pointer(a.id) } }), 400, `position.after: "${a.id}" is not a sibling of the item`);
    expectError(await admin.rest('POST', url, { position: { before: pointer(b.id, 'space') } }), 400, 'position.before.type: must be "site-space"');
    expectError(
      await admin.rest('POST', url, { position: { after: pointer(c.id), before: pointer(b.id) } }),
      400,
      'position: "after" and "before" must be adjacent siblings, in that order',
    );
    expectError(await admin.rest('POST', url, { position: { before: { type: 'site-space' } } }), 400, /^position\.before\.siteSpace: /);
    expectError(await admin.rest('POST', url, { parent: 'x' }), 400, 'parent: unknown field');
    expect(await listIds(admin, site)).toEqual([a.id, b.id, c.id, elsewhere.id]);
  });

  it('works through GraphQL', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const a = await publish(admin, site, 'A');
    const b = await publish(admin, site, 'B');
    const res = await admin.gql(`mutation($s: ID!, $id: ID!, $p: SiteSpacePositionInput) { moveSiteSpace(siteId: $s, id: $id, position: $p) { id } }`, {
      s: site.id,
      id: b.id,
      p: { before: { type: 'site-space', siteSpace: a.id } },
    });
    expect(res.errors).toBeUndefined();
    expect(await listIds(admin, site)).toEqual([b.id, a.id]);
  });
});

// ─── permissions and isolation ──────────────────────────────────────────────────────────────────────

describe('permissions and isolation', () => {
  it('lets members read, and only admins change (403 for a read member)', async () => {
    const { organization, admin, read, edit, site } = await newOrganizationWithSite(server);
    const added = await publish(admin, site, 'Docs');
    const space = await createSpace(admin, organization.id, 'More');
    for (const member of [read, edit]) {
      expect(await listIds(member, site)).toEqual([added.id]);
      const forbidden = 'Site: this operation needs the admin role';
      expectError(await member.rest('POST', `${siteBase(site)}/site-spaces`, { spaceId: space.id }), 403, forbidden);
      expectError(await member.rest('PATCH', `${siteBase(site)}/site-spaces/${added.id}`, { path: 'x' }), 403, forbidden);
      expectError(await member.rest('POST', `${siteBase(site)}/site-spaces/${added.id}/move`, {}), 403, forbidden);
      expectError(await member.rest('DELETE', `${siteBase(site)}/site-spaces/${added.id}`), 403, forbidden);
    }
    const gql = await read.gql(`mutation($s: ID!, $id: ID!) { deleteSiteSpace(siteId: $s, id: $id) }`, { s: site.id, id: added.id });
    expect(gql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await server.em().count(SiteSpace, { site: site.id })).toBe(1);
  });

  it('answers 404 to guests, outsiders and admins of other organizations', async () => {
    const { organization, admin, guest, outsider } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id);
    const added = await publish(admin, site, 'Docs');
    for (const caller of [guest, outsider, other.admin]) {
      expectError(await caller.rest('GET', `${siteBase(site)}/site-spaces`), 404, 'Site not found');
      expectError(await caller.rest('PATCH', `${siteBase(site)}/site-spaces/${added.id}`, { path: 'x' }), 404, 'Site not found');
      expectError(await caller.rest('DELETE', `${siteBase(site)}/site-spaces/${added.id}`), 404, 'Site not found');
    }
    // Under another organization's path, even one the caller administers.
    const mixed = `/v1/orgs/${other.organization.id}/sites/${site.id}`;
    expectError(await other.admin.rest('GET', `${mixed}/site-spaces`), 404, 'Site not found');
    expectError(await admin.rest('GET', `${mixed}/site-spaces`), 404, 'Site not found');
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/sites/no-such-site/site-spaces`), 404, 'Site not found');
  });

  it('answers 404 for a site space of another site, on every operation', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server);
    const otherSite = await insertSite(server, organization.id);
    const theirs = await publish(admin, otherSite, 'Theirs');
    const mine = await publish(admin, site, 'Mine');
    const url = `${siteBase(site)}/site-spaces/${theirs.id}`;
    expectError(await admin.rest('PATCH', url, { path: 'x' }), 404, 'Site space not found');
    expectError(await admin.rest('DELETE', url), 404, 'Site space not found');
    expectError(await admin.rest('POST', `${url}/move`, {}), 404, 'Site space not found');
    expectError(
      await admin.rest('POST', `${siteBase(site)}/site-spaces/${mine.id}/move`, { position: { before: { type: 'site-space', siteSpace: theirs.id } } }),
      400,
      `position.before: "${theirs.id}" is not a sibling of the item`,
    );
    expect(await server.em().count(SiteSpace, { id: theirs.id, path: 'theirs' })).toBe(1);
  });
});

describe('slugOf', () => {
  it('keeps lower-case ASCII words joined by hyphens', () => {
    expect(slugOf('  Hello,   World!  ', 'space')).toBe('hello-world');
    expect(slugOf('Ünïcödé 2.0', 'space')).toBe('unicode-2-0');
    expect(slugOf('日本語', 'space')).toBe('space');
  });
});
