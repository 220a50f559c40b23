import { describe, expect, it } from 'vitest';
import { seedSiteTree, SITE_TREE_QUERY } from '../scripts/site-tree.js';
import { STRUCTURE_QUERY } from '../scripts/bench-tree/structural-tree.js';
import { commentsPath, postComment } from './support/comments.js';
import { openChangeRequest } from './support/content.js';
import { callerFor, newMember, newOrganization, newOrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { countStatements } from './support/sql.js';

const server = useTestServer();

describe('a whole site tree in one GraphQL request', () => {
  it('costs the same number of SQL statements for 2×3 and for 20×25 site spaces with 5 groups', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const editor = await newMember(server, organization.id, 'edit');
    const small = await seedSiteTree(server.em(), organization.id, 2, 3, 1, server.clock.now());
    const large = await seedSiteTree(server.em(), organization.id, 20, 25, 5, server.clock.now());

    for (const caller of [admin, editor]) {
      let smallResult: { data: any; errors?: unknown } | undefined;
      let largeResult: { data: any; errors?: unknown } | undefined;
      const smallCount = await countStatements(async () => void (smallResult = await caller.gql(SITE_TREE_QUERY, { id: small })));
      const largeCount = await countStatements(async () => void (largeResult = await caller.gql(SITE_TREE_QUERY, { id: large })));
      expect(smallResult!.errors).toBeUndefined();
      expect(largeResult!.errors).toBeUndefined();
      expect(smallResult!.data.site.siteSpaces).toBe(6);
      expect(largeResult!.data.site.siteSpaces).toBe(500);
      expect(largeResult!.data.site.sections.count).toBe(20);
      expect(largeResult!.data.site.sectionGroups.count).toBe(5);
      expect(largeCount).toBe(smallCount);
      // An admin's tree, whatever the site's size: the token (with the caller's memberships), and the
      // site's row for its guard with the answer, which the database writes whole in the same statement
      // (sites/site/reads.ts: its site-space count, default section, structure with everything nested
      // under it, and its pages of sections and groups).
      if (caller === admin) expect(largeCount).toBe(2);
      console.log(`site tree: ${smallCount} SQL statements for 6 and for 500 site spaces`);
    }
  });

  it("reads a page of sections with their site spaces and spaces in the page's statement", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const small = await seedSiteTree(server.em(), organization.id, 2, 3, 1, server.clock.now());
    const large = await seedSiteTree(server.em(), organization.id, 20, 25, 5, server.clock.now());
    let answer: { data: any; errors?: unknown } | undefined;
    const smallCount = await countStatements(async () => void (answer = await admin.gql(STRUCTURE_QUERY, { id: small })));
    const largeCount = await countStatements(async () => void (answer = await admin.gql(STRUCTURE_QUERY, { id: large })));
    expect(answer!.errors).toBeUndefined();
    const sections = answer!.data.site.sections.items;
    expect(sections).toHaveLength(20);
    expect(sections.flatMap((section: any) => section.siteSpaces.map((siteSpace: any) => siteSpace.space.title))).toHaveLength(500);
    expect(sections.find((section: any) => section.title === 'Section 1').siteSpaces[3]).toMatchObject({
      path: 'v3',
      space: { title: 'Space 1.3', visibility: 'public' },
    });
    // The token (with the caller's memberships), the site, and the page with its count, site spaces and spaces.
    expect(largeCount).toBe(3);
    expect(smallCount).toBe(largeCount);
  });

  it('reads a REST page of sections with their site spaces by the page, in the same statements for 2×3 and for 20×25 site spaces', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const small = await seedSiteTree(server.em(), organization.id, 2, 3, 1, server.clock.now());
    const large = await seedSiteTree(server.em(), organization.id, 20, 25, 5, server.clock.now());
    const sections = (site: string) => admin.rest('GET', `/v1/orgs/${organization.id}/sites/${site}/sections?limit=1000`);
    let largeAnswer: Awaited<ReturnType<typeof sections>> | undefined;
    const smallCount = await countStatements(async () => expect((await sections(small)).status).toBe(200));
    const largeCount = await countStatements(async () => void (largeAnswer = await sections(large)));
    expect(largeAnswer!.status).toBe(200);
    expect(largeAnswer!.body.count).toBe(20);
    expect(largeAnswer!.body.items.flatMap((section: { siteSpaces: unknown[] }) => section.siteSpaces)).toHaveLength(500);
    expect(largeCount).toBe(smallCount);
    // A page, not the site's layout: the page's rows, their site spaces and spaces, whatever the site holds.
    expect(largeCount).toBeLessThanOrEqual(10);
    console.log(`REST listSiteSections: ${largeCount} SQL statements for 6 and for 500 site spaces`);
  });

  it('answers the lists beside the structure as their own pages do, in navigation order, with cursors when a page ends early', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const site = await seedSiteTree(server.em(), organization.id, 12, 2, 3, server.clock.now());
    const lists = `sections(limit: $limit) { count items { id title group { id } } next { page } }
      sectionGroups(limit: $limit) { count items { id } next { page } } siteSpaces`;
    const alone = await admin.gql(`query($id: ID!, $limit: Int) { site(id: $id) { ${lists} } }`, { id: site, limit: 100 });
    const beside = await admin.gql(`query($id: ID!, $limit: Int) { site(id: $id) { structure { type } ${lists} } }`, { id: site, limit: 100 });
    expect(alone.errors).toBeUndefined();
    const { structure, ...besideLists } = beside.data.site;
    expect(structure.type).toBe('sections');
    expect(besideLists).toEqual(alone.data.site);
    expect(alone.data.site.sections.count).toBe(12);
    expect(alone.data.site.siteSpaces).toBe(24);

    // A page that ends early is the SQL list's, whose cursor leads on.
    const short = await admin.gql(`query($id: ID!, $limit: Int) { site(id: $id) { structure { type } ${lists} } }`, { id: site, limit: 5 });
    expect(short.data.site.sections.items.map((s: { id: string }) => s.id)).toEqual(
      alone.data.site.sections.items.slice(0, 5).map((s: { id: string }) => s.id),
    );
    expect(short.data.site.sections.next).not.toBeNull();
    const rest = await admin.gql(`query($id: ID!, $page: String) { site(id: $id) { structure { type } sections(limit: 100, page: $page) { items { id } } } }`, {
      id: site,
      page: short.data.site.sections.next.page,
    });
    expect(rest.data.site.sections.items.map((s: { id: string }) => s.id)).toEqual(alone.data.site.sections.items.slice(5).map((s: { id: string }) => s.id));

    // Pages read as their selection's shape (only `id` asked) still hand out cursors that lead on, for
    // each list: sections (navigation order), groups (position) and site spaces (navigation order).
    const walk = async (field: string, limit: number) => {
      const ids: string[] = [];
      let page: string | null = null;
      do {
        const answer: { data: { site: Record<string, { items: { id: string }[]; next: { page: string } | null }> }; errors?: unknown } = await admin.gql(
          `query($id: ID!, $page: String) { site(id: $id) { ${field}(limit: ${limit}, page: $page) { items { id } next { page } } } }`,
          {
            id: site,
            page,
          },
        );
        expect(answer.errors).toBeUndefined();
        ids.push(...answer.data.site[field].items.map((item) => item.id));
        page = answer.data.site[field].next?.page ?? null;
      } while (page);
      return ids;
    };
    expect(await walk('sections', 5)).toEqual(await walk('sections', 100));
    expect(await walk('sectionGroups', 2)).toEqual(await walk('sectionGroups', 100));
    const siteSpaces = await walk('siteSpaceList', 100);
    expect(siteSpaces).toHaveLength(24);
    expect(await walk('siteSpaceList', 7)).toEqual(siteSpaces);
  });

  it('writes the whole site in one statement when the document states its pages, answering as the resolvers do, cursors included', async () => {
    type Page = { count: number; items: { id: string }[]; next: { page: string; __typename?: string } | null };
    type Answer = { data: { site: { sections: Page; sectionGroups: Page } }; errors?: { extensions?: { code?: string } }[] };
    const { organization, admin, read: reader } = await newOrganizationWithRoles(server);
    const site = await seedSiteTree(server.em(), organization.id, 9, 2, 3, server.clock.now());
    const selection = (limit: string) => `id title siteSpaces published urls { location app published } __typename
      defaultSiteSection { id path } structure { type structure { ... on SiteSection { id siteSpaces { id } } ... on SiteSectionGroup { id } } }
      sections(limit: ${limit}) { count items { id title group { id } } next { page __typename } __typename }
      sectionGroups(limit: ${limit}) { count items { id } next { page } }`;
    const ask = (caller: typeof admin, query: string, variables: Record<string, unknown>) => caller.gql(query, variables) as Promise<Answer>;
    for (const caller of [admin, reader]) {
      // Literal limits: the database writes the site (2 statements: the token, then the answer with the
      // site's row, which its guard judges); limits in variables: the resolvers answer, list by list.
      let written: Answer | undefined;
      const statements = await countStatements(
        async () => void (written = await ask(caller, `query($id: ID!) { site(id: $id) { ${selection('4')} } }`, { id: site })),
      );
      const resolved = await ask(caller, `query($id: ID!, $limit: Int) { site(id: $id) { ${selection('$limit')} } }`, { id: site, limit: 4 });
      expect(written!.errors).toBeUndefined();
      expect(statements).toBe(2);
      expect(written!.data).toEqual(resolved.data);
      const { sections, sectionGroups } = written!.data.site;
      expect(sections).toMatchObject({ count: 9, next: { __typename: 'PageRef' } });
      expect(sectionGroups.next).toBeNull();
      // The cursor the database wrote leads on, to the end of the list.
      const ids = sections.items.map((s) => s.id);
      let page = sections.next?.page ?? null;
      while (page) {
        const next = await ask(caller, `query($id: ID!, $page: String) { site(id: $id) { sections(limit: 4, page: $page) { items { id } next { page } } } }`, {
          id: site,
          page,
        });
        ids.push(...next.data.site.sections.items.map((s) => s.id));
        page = next.data.site.sections.next?.page ?? null;
      }
      const all = await ask(caller, `query($id: ID!) { site(id: $id) { sections(limit: 100) { items { id } } } }`, { id: site });
      expect(ids).toEqual(all.data.site.sections.items.map((s) => s.id));
    }
    // Out-of-range limits and unknown sites are refused as before.
    const bad = await ask(admin, `query($id: ID!) { site(id: $id) { sections(limit: 0) { count } } }`, { id: site });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const unknown = await ask(admin, `query { site(id: "nope") { id sections(limit: 2) { count } } }`, {});
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('reads the site with its answer before its guard, which still refuses whoever may not see it, with nothing of the site', async () => {
    type Answer = { data: { site: { id: string; sections: { count: number } } } | null; errors?: { extensions?: { code?: string } }[] };
    const { organization, admin, read, guest, outsider } = await newOrganizationWithRoles(server);
    const site = await seedSiteTree(server.em(), organization.id, 3, 2, 1, server.clock.now());
    // A page of which only the count is asked (a count alone once answered 500: it read the page's rows).
    const query = `query($id: ID!) { site(id: $id) { id title sections(limit: 4) { count } } }`;
    for (const caller of [admin, read]) {
      const answer = (await caller.gql(query, { id: site })) as Answer;
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.site.sections.count).toBe(3);
    }
    const otherOrganization = await newOrganization(server, admin, { title: 'Elsewhere' });
    const created = await admin.gql<{ createApiToken: { token: string } }>(
      `mutation($scope: ApiTokenScopeInput) { createApiToken(label: "elsewhere", scope: $scope) { token } }`,
      { scope: { organization: otherOrganization.id } },
    );
    expect(created.errors).toBeUndefined();
    const limitedElsewhere = callerFor(server, admin.user, created.data.createApiToken.token);
    for (const caller of [guest, outsider, limitedElsewhere]) {
      const answer = (await caller.gql(query, { id: site })) as Answer;
      expect(answer.data).toBeNull();
      expect(answer.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(JSON.stringify(answer)).not.toContain(site);
      // A wrong organization is refused too, and a bad limit after the guard only: the outsider learns nothing.
      const bad = (await caller.gql(`query($id: ID!) { site(id: $id) { sections(limit: 0) { count } } }`, { id: site })) as Answer;
      expect(bad.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    const elsewhere = (await admin.gql(`query($id: ID!, $org: ID) { site(id: $id, organizationId: $org) { id } }`, {
      id: site,
      org: otherOrganization.id,
    })) as Answer;
    expect(elsewhere.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    "keeps the plan of the site's answer statement on the embedded database, and still answers what changed since",
    async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const site = await seedSiteTree(server.em(), organization.id, 3, 2, 1, server.clock.now());
      const query = `query($id: ID!) { site(id: $id) { id title sections(limit: 10) { count items { id title } } } }`;
      type Answer = { data: { site: { title: string; sections: { count: number } } }; errors?: unknown };
      const first = (await admin.gql(query, { id: site })) as Answer;
      // Prepared in the embedded database's one session, as a server's connection keeps a named statement.
      const kept = await server
        .em()
        .getConnection()
        .execute<{ statement: string }[]>(`select statement from pg_prepared_statements where name like 'kept_plan_%'`);
      expect(kept.some((row) => row.statement.includes('"root:rows"'))).toBe(true);
      const renamed = await admin.gql(`mutation($id: ID!) { updateSite(id: $id, input: { title: "Renamed" }) { id } }`, { id: site });
      expect(renamed.errors).toBeUndefined();
      const second = (await admin.gql(query, { id: site })) as Answer;
      expect(first.errors).toBeUndefined();
      expect(second.errors).toBeUndefined();
      expect(second.data.site.title).toBe('Renamed');
      expect(second.data.site.sections).toEqual(first.data.site.sections);
      expect(first.data.site.sections.count).toBe(3);
    },
  );

  it("shows each space's open change requests and own open comments, as the space itself does", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const siteId = await seedSiteTree(server.em(), organization.id, 2, 3, 1, server.clock.now());
    const spacesOf = (data: any): string[] =>
      data.site.structure.structure.flatMap((item: any) =>
        (item.sections ?? [item]).flatMap((section: any) => section.siteSpaces.map((ss: any) => ss.space.id)),
      );
    const [busy, quiet] = spacesOf((await admin.gql(SITE_TREE_QUERY, { id: siteId })).data);

    // busy: two open change requests and one archived; three comments of its own, one resolved, and
    // one on a change request (which the space's count leaves out).
    const first = await openChangeRequest(admin, busy);
    await openChangeRequest(admin, busy);
    const archived = await openChangeRequest(admin, busy);
    expect((await admin.rest('PATCH', `/v1/spaces/${busy}/change-requests/${archived.id}`, { status: 'archived' })).status).toBe(200);
    for (const text of ['One', 'Two']) await postComment(admin, commentsPath(busy), text);
    const resolved = await postComment(admin, commentsPath(busy), 'Three');
    expect((await admin.rest('PUT', `${commentsPath(busy)}/${resolved.id}`, { resolved: true })).status).toBe(200);
    await postComment(admin, commentsPath(busy, first.id), 'On the change request');
    await postComment(admin, commentsPath(quiet), 'Only one');

    const tree = (await admin.gql(SITE_TREE_QUERY, { id: siteId })).data;
    const shown = new Map<string, { comments: number; changeRequestsOpen: number }>();
    for (const item of tree.site.structure.structure) {
      for (const section of item.sections ?? [item])
        for (const ss of section.siteSpaces) shown.set(ss.space.id, { comments: ss.space.comments, changeRequestsOpen: ss.space.changeRequestsOpen });
    }
    expect(shown.get(busy)).toEqual({ comments: 2, changeRequestsOpen: 2 });
    expect(shown.get(quiet)).toEqual({ comments: 1, changeRequestsOpen: 0 });
    // The tree reads the counts with the site's layout; a space read on its own counts them itself.
    for (const [spaceId, counts] of shown) {
      const own = await admin.gql(`query($id: ID!) { space(id: $id) { comments changeRequestsOpen } }`, { id: spaceId });
      expect(own.data.space).toEqual(counts);
    }
  });
});

describe('the site tree through REST', () => {
  it('costs the same number of SQL statements for 2×3 and for 20×25 site spaces', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const small = await seedSiteTree(server.em(), organization.id, 2, 3, 1, server.clock.now());
    const large = await seedSiteTree(server.em(), organization.id, 20, 25, 5, server.clock.now());
    const sections = (site: string) => `/v1/orgs/${organization.id}/sites/${site}/sections?limit=1000`;
    const smallCount = await countStatements(() => admin.rest('GET', sections(small)));
    const largeCount = await countStatements(() => admin.rest('GET', sections(large)));
    expect(largeCount).toBe(smallCount);
  });
});
