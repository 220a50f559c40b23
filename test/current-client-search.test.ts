/**
 * Search through the current official client (`@gitbook/api@0.202.0`): a space's search and a site's,
 * with 0.202.0's result fields (score, rank, description, ancestors), paging, scopes, permission
 * denials and bad input, each answer validated against that version's reference.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createPage, createSpace, merge, openChangeRequest } from './support/content.js';
import { currentClientFor, expectCurrent, expectRefused } from './support/current-client.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { currentReference } from './support/openapi.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();
const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

let admin: Caller;
let read: Caller;
let guest: Caller;
let outsider: Caller;
let organizationId: string;
/** A space with Guide > Install > Linux (all naming "kestrel"), and two more spaces naming it. */
let handbook: string;
let other: string;
let third: string;
let guideId: string;
let installId: string;
let linuxId: string;

/** A space whose main content holds the pages given (each under the previous when `nested`). */
async function spaceWith(title: string, pages: { title: string; markdown: string; description?: string }[], nested = false) {
  const space = await createSpace(admin, organizationId, title);
  const cr = await openChangeRequest(admin, space.id);
  const ids: string[] = [];
  for (const page of pages) {
    const made = await createPage(admin, space.id, cr.id, { ...page, ...(nested && ids.length ? { parent: ids[ids.length - 1] } : {}) });
    ids.push(made.page!.id);
  }
  expect((await merge(admin, space.id, cr.id)).status).toBe(200);
  return { id: space.id, pages: ids };
}

beforeAll(async () => {
  const roles = await newOrganizationWithRoles(server);
  ({ admin, read, guest, outsider } = roles);
  organizationId = roles.organization.id;
  const made = await spaceWith(
    'Handbook',
    [
      { title: 'Guide', markdown: 'The kestrel hovers.', description: 'Where to start' },
      { title: 'Install', markdown: 'Install the kestrel.\n\n## Kestrel on servers\n\nA kestrel kestrel kestrel here.' },
      { title: 'Linux', markdown: 'Kestrel on Linux.' },
    ],
    true,
  );
  handbook = made.id;
  [guideId, installId, linuxId] = made.pages;
  other = (await spaceWith('Other', [{ title: 'Birds', markdown: 'A kestrel and a falcon.' }])).id;
  third = (await spaceWith('Third', [{ title: 'More birds', markdown: 'Another kestrel.' }])).id;
});

type PageResult = {
  id: string;
  title: string;
  description: string;
  path: string;
  score: number;
  rank: number;
  ancestors: { title: string }[];
  sections?: { id: string; score: number }[];
};

describe('the current client: searching a space', () => {
  it("answers the space's pages best first, with score, rank, description, ancestors and sections", async () => {
    const found = await expectCurrent('searchSpaceContent', clientFor(read).spaces.searchSpaceContent(handbook, { query: 'kestrel' }));
    const items = found.items as PageResult[];
    expect(found.count).toBe(3);
    expect(items.map((item) => item.rank)).toEqual([1, 2, 3]);
    expect(items.map((item) => item.id).sort()).toEqual([guideId, installId, linuxId].sort());
    const scores = items.map((item) => item.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The heading naming the word four times makes Install the best page.
    expect(items[0]).toMatchObject({ id: installId, title: 'Install', path: 'guide/install', description: '', ancestors: [{ title: 'Guide' }] });
    expect(items[0].sections!.map((s) => s.id)).toEqual([`${installId}#kestrel-on-servers`, installId]);
    expect(items[0].score).toBe(items[0].sections![0].score);
    expect(items.find((item) => item.id === guideId)).toMatchObject({ description: 'Where to start', ancestors: [] });
    expect(items.find((item) => item.id === linuxId)).toMatchObject({ path: 'guide/install/linux', ancestors: [{ title: 'Guide' }, { title: 'Install' }] });
    // Only this space's pages: the others name the word too.
    expect(JSON.stringify(found)).not.toContain('Birds');
  });

  it('pages the results, keeping each page its rank in the whole answer', async () => {
    const api = clientFor(read).spaces;
    const all = (await expectCurrent('searchSpaceContent', api.searchSpaceContent(handbook, { query: 'kestrel' }))).items as PageResult[];
    const first = await expectCurrent('searchSpaceContent', api.searchSpaceContent(handbook, { query: 'kestrel', limit: 2 }));
    expect(first.count).toBe(3);
    expect(typeof first.next?.page).toBe('string');
    const second = await expectCurrent('searchSpaceContent', api.searchSpaceContent(handbook, { query: 'kestrel', limit: 2, page: first.next!.page }));
    expect(second.next).toBeUndefined();
    const paged = [...first.items, ...second.items] as PageResult[];
    expect(paged.map((item) => [item.id, item.rank])).toEqual(all.map((item) => [item.id, item.rank]));
  });

  it('answers nothing for words no page names, and the same to concurrent identical searches', async () => {
    const api = clientFor(read).spaces;
    expect(await expectCurrent('searchSpaceContent', api.searchSpaceContent(handbook, { query: 'zeppelin' }))).toEqual({ items: [], count: 0 });
    const answers = await Promise.all([1, 2, 3].map(() => expectCurrent('searchSpaceContent', api.searchSpaceContent(handbook, { query: 'kestrel' }))));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
  });

  it('refuses bad input, callers who cannot read the space and unknown spaces', async () => {
    const api = clientFor(read).spaces;
    await expectRefused(api.searchSpaceContent(handbook, { query: '' }), 400);
    await expectRefused(api.searchSpaceContent(handbook, { query: 'x'.repeat(513) }), 400);
    await expectRefused(api.searchSpaceContent(handbook, { query: 'kestrel', limit: 0 }), 400);
    await expectRefused(api.searchSpaceContent(handbook, { query: 'kestrel', page: 'bm90IGEgY3Vyc29y' }), 400);
    const missing = await read.rest('GET', `/v1/spaces/${handbook}/search`);
    expect(missing.status).toBe(400);
    const { error } = missing.body as { error: { code: number; message: string } };
    expect(error.code).toBe(400);
    expect(error.message).toMatch(/query/);
    await expectRefused(clientFor(guest).spaces.searchSpaceContent(handbook, { query: 'kestrel' }), 404);
    await expectRefused(clientFor(outsider).spaces.searchSpaceContent(handbook, { query: 'kestrel' }), 404);
    await expectRefused(api.searchSpaceContent('no-such-space', { query: 'kestrel' }), 404);
    expect((await fetch(`${server.url}/v1/spaces/${handbook}/search?query=kestrel`)).status).toBe(401);
  });
});

describe('the current client: searching an organization', () => {
  it("answers 0.202.0's fields too, pages ranked across the spaces", async () => {
    // A contract operation (not in the current client's list): its answer validated against 0.202.0's schema by hand.
    const { status, data: found } = await clientFor(read).orgs.searchOrganizationContent(organizationId, { query: 'kestrel' });
    expect(status).toBe(200);
    expect(currentReference.validateResponse('searchOrganizationContent', 200, found)).toEqual([]);
    const items = found.items as { type: string; id: string; pages: PageResult[] }[];
    expect(items.map((item) => item.type)).toEqual(['space', 'space', 'space']);
    expect(items[0]).toMatchObject({ id: handbook, pages: [{ id: installId, rank: 1, ancestors: [{ title: 'Guide' }] }, {}, {}] });
    expect(items.flatMap((item) => item.pages.map((page) => page.rank)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('the current client: searching a site', () => {
  let siteId: string;
  let sections: { id: string; siteSpaces: { id: string }[] }[];

  beforeAll(async () => {
    const site = await admin.rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    siteId = (site.body as { id: string }).id;
    sections = [];
    for (const space of [handbook, other]) {
      const res = await admin.rest('POST', `/v1/orgs/${organizationId}/sites/${siteId}/sections`, { spaceId: space, title: `Section ${sections.length}` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      sections.push(res.body as { id: string; siteSpaces: { id: string }[] });
    }
    // A second variant of the first section: searched by `all` and `specific`, not by the default scope.
    const variant = await admin.rest('POST', `/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`, { spaceId: third, sectionId: sections[0].id });
    expect(variant.status, JSON.stringify(variant.body)).toBe(201);
    sections[0].siteSpaces.push(variant.body as { id: string });
  });

  type SpaceResult = { type: string; id: string; score: number; pages: PageResult[] };
  const spacesOf = (answer: { items: unknown[] }) => (answer.items as SpaceResult[]).map((item) => item.id).sort();

  it("answers the site's spaces in the scope asked, best first, pages ranked across them", async () => {
    const api = clientFor(read).orgs;
    const all = await expectCurrent('searchSiteContent', api.searchSiteContent(organizationId, siteId, { query: 'kestrel', scope: { mode: 'all' } }));
    expect(spacesOf(all)).toEqual([handbook, other, third].sort());
    const items = all.items as SpaceResult[];
    expect(items.every((item) => item.type === 'space')).toBe(true);
    expect(items.map((item) => item.score)).toEqual(items.map((item) => item.score).sort((a, b) => b - a));
    expect(items.flatMap((item) => item.pages.map((page) => page.rank)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(items[0].pages[0]).toMatchObject({ id: installId, rank: 1, ancestors: [{ title: 'Guide' }] });

    const byDefault = await expectCurrent('searchSiteContent', api.searchSiteContent(organizationId, siteId, { query: 'kestrel', scope: { mode: 'default' } }));
    expect(spacesOf(byDefault)).toEqual([handbook, other].sort());
    const variant = sections[0].siteSpaces[1].id;
    const withCurrent = await expectCurrent(
      'searchSiteContent',
      api.searchSiteContent(organizationId, siteId, { query: 'kestrel', scope: { mode: 'default', currentSiteSpace: variant } }),
    );
    expect(spacesOf(withCurrent)).toEqual([handbook, other, third].sort());
    const onlyCurrent = await expectCurrent(
      'searchSiteContent',
      api.searchSiteContent(organizationId, siteId, {
        query: 'kestrel',
        scope: { mode: 'default', currentSiteSpace: variant, restrictTo: 'currentSiteSpace' },
      }),
    );
    expect(spacesOf(onlyCurrent)).toEqual([third]);
    const others = await expectCurrent(
      'searchSiteContent',
      api.searchSiteContent(organizationId, siteId, {
        query: 'kestrel',
        scope: { mode: 'default', currentSiteSpace: sections[1].siteSpaces[0].id, restrictTo: 'otherSiteSpaces' },
      }),
    );
    expect(spacesOf(others)).toEqual([handbook]);
    const specific = await expectCurrent(
      'searchSiteContent',
      api.searchSiteContent(organizationId, siteId, { query: 'kestrel', scope: { mode: 'specific', siteSpaceIds: [sections[1].siteSpaces[0].id] } }),
    );
    expect(spacesOf(specific)).toEqual([other]);
    // The deprecated forms.
    const legacy = await expectCurrent('searchSiteContent', api.searchSiteContent(organizationId, siteId, { query: 'kestrel', siteSpaceIds: [variant] }));
    expect(spacesOf(legacy)).toEqual([third]);
    const legacyAll = await expectCurrent('searchSiteContent', api.searchSiteContent(organizationId, siteId, { query: 'kestrel', mode: 'all' }));
    expect(spacesOf(legacyAll)).toEqual(spacesOf(all));
    const legacyCurrent = await expectCurrent(
      'searchSiteContent',
      api.searchSiteContent(organizationId, siteId, { query: 'kestrel', mode: 'current', siteSpaceId: variant }),
    );
    expect(spacesOf(legacyCurrent)).toEqual(spacesOf(withCurrent));
  });

  it('pages the spaces, keeping the ranks of the whole answer', async () => {
    const api = clientFor(read).orgs;
    const body = { query: 'kestrel', scope: { mode: 'all' as const } };
    const whole = (await expectCurrent('searchSiteContent', api.searchSiteContent(organizationId, siteId, body))).items as SpaceResult[];
    const first = await expectCurrent('searchSiteContent', api.searchSiteContent(organizationId, siteId, body, { limit: 2 }));
    expect(first.count).toBe(3);
    expect(typeof first.next?.page).toBe('string');
    const second = await expectCurrent('searchSiteContent', api.searchSiteContent(organizationId, siteId, body, { limit: 2, page: first.next!.page }));
    expect(second.next).toBeUndefined();
    expect([...first.items, ...second.items]).toEqual(whole);
  });

  it('refuses bad input, callers who cannot read the site and unknown sites, answering nothing', async () => {
    const api = clientFor(read).orgs;
    const search = (body: unknown) => api.searchSiteContent(organizationId, siteId, body as never);
    await expectRefused(search({ query: '', scope: { mode: 'all' } }), 400);
    await expectRefused(search({ query: 'x'.repeat(513), scope: { mode: 'all' } }), 400);
    await expectRefused(search({ query: 'kestrel' }), 400);
    await expectRefused(search({ query: 'kestrel', scope: { mode: 'everything' } }), 400);
    await expectRefused(search({ query: 'kestrel', scope: { mode: 'specific', siteSpaceIds: [] } }), 400);
    await expectRefused(search({ query: 'kestrel', scope: { mode: 'specific', siteSpaceIds: ['no-such-site-space'] } }), 400);
    await expectRefused(search({ query: 'kestrel', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } }), 400);
    await expectRefused(search({ query: 'kestrel', scope: { mode: 'all' }, mode: 'all' }), 400);
    const noBody = await read.rest('POST', `/v1/orgs/${organizationId}/sites/${siteId}/search`);
    expect(noBody.status).toBe(400);
    expect(noBody.body).toMatchObject({ error: { code: 400 } });
    const body = { query: 'kestrel', scope: { mode: 'all' as const } };
    await expectRefused(clientFor(guest).orgs.searchSiteContent(organizationId, siteId, body), 404);
    await expectRefused(clientFor(outsider).orgs.searchSiteContent(organizationId, siteId, body), 404);
    await expectRefused(api.searchSiteContent(organizationId, 'no-such-site', body), 404);
    const anonymous = await fetch(`${server.url}/v1/orgs/${organizationId}/sites/${siteId}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(anonymous.status).toBe(401);
  });
});
