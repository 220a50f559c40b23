import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSiteTree, SITE_TREE_QUERY } from '../scripts/site-tree.js';
import { newMember, newTeam } from './support/factories.js';
import { startTestServer, type TestServer } from './support/server.js';
import { countStatements } from './support/sql.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

describe('a whole site tree in one GraphQL request', () => {
  it('costs the same number of SQL statements for 2×3 and for 20×25 site spaces with 5 groups', async () => {
    const { organization, admin } = await newTeam(server);
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
      console.log(`site tree: ${smallCount} SQL statements for 6 and for 500 site spaces`);
    }
  });
});

describe('the site tree through REST', () => {
  it('costs the same number of SQL statements for 2×3 and for 20×25 site spaces', async () => {
    const { organization, admin } = await newTeam(server);
    const small = await seedSiteTree(server.em(), organization.id, 2, 3, 1, server.clock.now());
    const large = await seedSiteTree(server.em(), organization.id, 20, 25, 5, server.clock.now());
    const sections = (site: string) => `/v1/orgs/${organization.id}/sites/${site}/sections?limit=1000`;
    const smallCount = await countStatements(() => admin.rest('GET', sections(small)));
    const largeCount = await countStatements(() => admin.rest('GET', sections(large)));
    expect(largeCount).toBe(smallCount);
  });
});
