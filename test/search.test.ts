/**
 * Organization search (contract §4.10) through both doors on the real database: ranking, grouping
 * into spaces → pages → sections, the index following merges, pagination, permission filtering, and
 * the errors (401, 404 across organizations, 400 naming `query`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newTeam } from './support/factories.js';
import { createPage, createSpace, merge, openChangeRequest } from './support/content.js';
import { startTestServer, type TestServer } from './support/server.js';
import { rest } from './support/factories.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

type Team = Awaited<ReturnType<typeof newTeam>>;

/** A space whose main content holds the pages, each `{title, markdown}`. */
async function spaceWith(caller: Team['admin'], organizationId: string, title: string, pages: { title: string; markdown: string }[], body: Record<string, unknown> = {}) {
  const space = await createSpace(caller, organizationId, { title, ...body });
  const cr = await openChangeRequest(caller, space.id);
  for (const page of pages) await createPage(caller, space.id, cr.id, page);
  expect((await merge(caller, space.id, cr.id)).status).toBe(200);
  return space;
}

const search = (caller: Team['admin'], organizationId: string, query: string, extra = '') =>
  caller.rest('GET', `/v1/orgs/${organizationId}/search?query=${encodeURIComponent(query)}${extra}`);

describe('organization search', () => {
  it('ranks spaces, pages and sections, with app URLs, in the reference shape', async () => {
    const { organization, admin } = await newTeam(server);
    const guides = await spaceWith(admin, organization.id, 'Guides', [
      { title: 'Installing', markdown: 'How to install the server.\n\n## Upgrading\n\nUpgrade the servers one by one; install the new server version.\n\n## Backups\n\nNothing about it here.' },
      { title: 'Unrelated', markdown: 'Bananas and apples.' },
    ]);
    const other = await spaceWith(admin, organization.id, 'Notes', [{ title: 'Misc', markdown: 'Once we mentioned a server.' }]);
    const res = await search(admin, organization.id, 'install server');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('searchOrganizationContent', res);
    expect(res.body.count).toBe(1);
    const [space] = res.body.items;
    expect(space).toMatchObject({ id: guides.id, title: 'Guides' });
    expect(space.pages).toHaveLength(1);
    expect(space.pages[0]).toMatchObject({ title: 'Installing', path: 'installing', urls: { app: expect.stringMatching(new RegExp(`/s/${guides.id}/installing$`)) } });
    expect(space.pages[0].sections.map((s: { title: string }) => s.title).sort()).toEqual(['Installing', 'Upgrading']);
    const upgrading = space.pages[0].sections.find((s: { title: string }) => s.title === 'Upgrading');
    expect(upgrading).toMatchObject({ path: 'installing#upgrading', body: expect.stringContaining('Upgrade the servers'), urls: { app: expect.stringMatching(/\/installing#upgrading$/) } });

    // A word in both spaces: the space whose page names it in its title ranks first.
    const both = await search(admin, organization.id, 'server');
    expect(both.body.items.map((s: { id: string }) => s.id)).toEqual([guides.id, other.id]);
    const paged = await search(admin, organization.id, 'server', '&limit=1');
    expect(paged.body).toMatchObject({ count: 2, items: [{ id: guides.id }], next: { page: expect.any(String) } });
    const second = await search(admin, organization.id, 'server', `&limit=1&page=${paged.body.next.page}`);
    expect(second.body).toMatchObject({ items: [{ id: other.id }] });
    expect(second.body.next).toBeUndefined();

    const gql = await admin.gql(`query($o: ID!) { searchOrganizationContent(organizationId: $o, query: "bananas") { count items { space { id } pages { title } } } }`, { o: organization.id });
    expect(gql.data.searchOrganizationContent).toEqual({ count: 1, items: [{ space: { id: guides.id }, pages: [{ title: 'Unrelated' }] }] });
  });

  it('follows the main content as change requests merge', async () => {
    const { organization, admin } = await newTeam(server);
    const space = await spaceWith(admin, organization.id, 'Moving', [{ title: 'First', markdown: 'zeppelin' }]);
    expect((await search(admin, organization.id, 'zeppelin')).body.count).toBe(1);
    const cr = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, cr.id, { title: 'Second', markdown: 'A quokka appears.' });
    // Not merged yet: change requests are not searched.
    expect((await search(admin, organization.id, 'quokka')).body.count).toBe(0);
    await merge(admin, space.id, cr.id);
    const found = await search(admin, organization.id, 'quokka');
    expect(found.body.items[0].pages.map((p: { title: string }) => p.title)).toEqual(['Second']);
  });

  it('never shows a page of a space the caller cannot read', async () => {
    const { organization, admin, read, guest } = await newTeam(server);
    const open = await spaceWith(admin, organization.id, 'Open', [{ title: 'Public plan', markdown: 'The secret word is platypus.' }]);
    const hidden = await spaceWith(admin, organization.id, 'Hidden', [{ title: 'Private plan', markdown: 'Platypus strategy for admins.' }]);
    expect((await admin.rest('PATCH', `/v1/spaces/${hidden.id}`, { defaultLevel: null })).status).toBe(200);
    const forAdmin = await search(admin, organization.id, 'platypus');
    expect(forAdmin.body.items.map((s: { id: string }) => s.id).sort()).toEqual([open.id, hidden.id].sort());
    const forReader = await search(read, organization.id, 'platypus');
    expect(forReader.body).toMatchObject({ count: 1, items: [{ id: open.id }] });
    expect(JSON.stringify(forReader.body)).not.toContain('Private plan');
    // A guest reads nothing without grants.
    expect((await search(guest, organization.id, 'platypus')).body).toMatchObject({ count: 0, items: [] });
  });

  it('refuses bad input and callers outside the organization', async () => {
    const { organization, admin, outsider } = await newTeam(server);
    expectError(await rest(server, null, 'GET', `/v1/orgs/${organization.id}/search?query=x`), 401, /Authentication required/);
    expectError(await search(outsider, organization.id, 'x'), 404, /not found/);
    expectError(await search(admin, 'nope', 'x'), 404, /not found/);
    expectError(await search(admin, organization.id, 'x'.repeat(513)), 400, /^query: must be at most 512 characters/);
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/search`), 400, /query/);
    expectError(await search(admin, organization.id, 'x', '&limit=0'), 400, /^limit/);
    expectGqlError(await admin.gql(`query($o: ID!) { searchOrganizationContent(organizationId: $o, query: "") { count } }`, { o: organization.id }), 'BAD_REQUEST', /^query: /);
  });
});
