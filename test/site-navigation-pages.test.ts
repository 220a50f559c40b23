import { describe, expect, it } from 'vitest';
import { SiteSection, SiteSectionGroup, SiteSpace } from '../src/domain/sites/index.js';
import { sectionsInNavigationOrder } from '../src/domain/sites/sections/index.js';
import { createSpace } from './support/content.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { insertSection, insertSectionGroup, insertSite, siteBase } from './support/sites.js';

/**
 * A large site's sections and site spaces page through an index in navigation order (the key the
 * database keeps, Migration20261202090000); the order must stay the one the layout gives, also after a
 * group moves, a section joins a group and a site space moves.
 */
const server = useTestServer();

/** Pages through a REST list with `limit` and `next`, checking `count` on every page. */
async function everyPage(call: (query: string) => Promise<{ status: number; body: any }>, limit: number) {
  const ids: string[] = [];
  let page: string | undefined;
  let count: number | undefined;
  do {
    const res = await call(`?limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    count ??= res.body.count;
    expect(res.body.count).toBe(count);
    ids.push(...res.body.items.map((item: { id: string }) => item.id));
    page = res.body.next?.page;
  } while (page);
  expect(ids.length).toBe(count);
  return ids;
}

describe('site navigation lists', () => {
  it('page sections and site spaces of a large site in navigation order, through moves', { timeout: 120_000 }, async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id, { type: 'ultimate' });
    const space = await createSpace(admin, organization.id);
    const groups = await Promise.all(['a2', 'a5', 'a8'].map((position) => insertSectionGroup(server, site, { position })));
    const em = server.em();
    // Hundreds of sections, a third of them in groups, and site spaces in each (the database derives every key).
    await em.getConnection().execute(
      `insert into site_section (id, organization_id, site_id, section_group_id, title, path, position, created_at)
       select 'sec' || lpad(n::text, 5, '0'), ?, ?, (array[?, ?, ?, null, null, null])[1 + n % 6], 'Section ' || n, 'p' || n,
              'a' || lpad((n * 7919 % 1000)::text, 4, '0'), now()
       from generate_series(1, 600) n`,
      [organization.id, site.id, ...groups.map((g) => g.id)],
    );
    await em.getConnection().execute(
      `insert into site_space (id, organization_id, site_id, section_id, space_id, path, position, created_at)
       select 'ss' || lpad(n::text, 6, '0'), ?, ?, case when n % 10 = 0 then null else 'sec' || lpad((1 + n % 600)::text, 5, '0') end, ?,
              'v' || n, 'a' || lpad((n * 104729 % 10000)::text, 5, '0'), now()
       from generate_series(1, 3000) n`,
      [organization.id, site.id, space.id],
    );
    const lists = {
      sections: (query: string) => admin.rest('GET', `${siteBase(site)}/sections${query}`),
      siteSpaces: (query: string) => admin.rest('GET', `${siteBase(site)}/site-spaces${query}`),
    };

    /** The navigation order the layout gives, computed from the rows as they are now. */
    const expected = async () => {
      const fresh = server.em();
      const [sections, groupRows, siteSpaces] = await Promise.all([
        fresh.find(SiteSection, { site: site.id }),
        fresh.find(SiteSectionGroup, { site: site.id }),
        fresh.find(SiteSpace, { site: site.id }),
      ]);
      const ordered = sectionsInNavigationOrder(sections, groupRows);
      const rank = new Map(ordered.map((s, i) => [s.id, i]));
      const siteSpaceOrder = [...siteSpaces].sort((a, b) => {
        const ra = a.section ? rank.get(a.section)! : -1;
        const rb = b.section ? rank.get(b.section)! : -1;
        return ra - rb || (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1);
      });
      return { sections: ordered.map((s) => s.id), siteSpaces: siteSpaceOrder.map((s) => s.id) };
    };

    let want = await expected();
    expect(await everyPage(lists.sections, 97)).toEqual(want.sections);
    expect(await everyPage(lists.siteSpaces, 250)).toEqual(want.siteSpaces);

    // A group moves to the front, a top-level section joins a group, a site space moves to another place.
    const move = await admin.rest('POST', `${siteBase(site)}/section-groups/${groups[2].id}/move`, {
      position: { before: { type: 'site-section-group', id: groups[0].id } },
    });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    const topLevel = (await server.em().find(SiteSection, { site: site.id, sectionGroup: null }, { limit: 1 }))[0];
    expect((await admin.rest('POST', `${siteBase(site)}/section-groups/${groups[1].id}/sections`, { sectionId: topLevel.id })).status).toBe(201);
    const [first, second] = want.siteSpaces.slice(-2);
    const moved = await admin.rest('POST', `${siteBase(site)}/site-spaces/${second}/move`, { position: { before: { type: 'site-space', siteSpace: first } } });
    expect([200, 400]).toContain(moved.status); // only within one section: either way the order stays the layout's

    want = await expected();
    expect(await everyPage(lists.sections, 97)).toEqual(want.sections);
    expect(await everyPage(lists.siteSpaces, 250)).toEqual(want.siteSpaces);

    // Default site spaces of their sections, and the others.
    await insertSection(server, site, { path: 'with-default', position: 'zz' });
    const defaults = (await everyPage((q) => admin.rest('GET', `${siteBase(site)}/site-spaces${q}&default=true`), 500)).length;
    const others = (await everyPage((q) => admin.rest('GET', `${siteBase(site)}/site-spaces${q}&default=false`), 500)).length;
    expect(defaults + others).toBe(want.siteSpaces.length);
  });
});
