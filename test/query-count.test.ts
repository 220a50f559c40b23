import { describe, expect, it } from 'vitest';
import { newMember, newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createTeam, grant } from './support/people.js';
import { useTestServer } from './support/server.js';
import { insertShareLink, insertSite } from './support/sites.js';
import { countStatements } from './support/sql.js';

const server = useTestServer();

const SPACES_WITH_EVERYTHING = `query($org: ID!) {
  spaces(organizationId: $org, limit: 1000) {
    count
    items {
      id title emoji visibility revision defaultLevel
      comments changeRequests changeRequestsOpen changeRequestsDraft
      permissions { view access admin edit comment merge review }
      viewerRole
      owningOrganization { id title permissions { admin createContent } }
      parentCollection { id title permissions { admin create } parentCollection { id permissions { admin } } }
    }
  }
}`;

const TREE = `query {
  organizations {
    items {
      id
      collections { items { id title permissions { admin } spaces { count items { id permissions { edit } } } collections { items { id } } } }
      spaces(limit: 1000) { count items { id permissions { admin } } }
    }
  }
}`;

async function addSpaces(caller: Caller, organizationId: string, parents: string[], count: number) {
  for (let i = 0; i < count; i++) {
    const parent = parents[i % (parents.length + 1)];
    const res = await caller.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: `Space ${i}`, ...(parent ? { parent } : {}) });
    expect(res.status).toBe(201);
  }
}

describe('SQL statements per GraphQL request', () => {
  it('stay the same for 5 and for 50 spaces with permissions, counts and relations', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const editor = await newMember(server, organization.id, 'edit');
    const outer = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Outer' })).body.id;
    const inner = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Inner', parent: outer })).body.id;
    await admin.rest('PATCH', `/v1/collections/${inner}`, { defaultLevel: 'read' });

    await addSpaces(admin, organization.id, [outer, inner], 5);
    const measure = async (caller: Caller) => {
      let result: { data: any; errors?: unknown[] } | undefined;
      const statements = await countStatements(async () => {
        result = await caller.gql(SPACES_WITH_EVERYTHING, { org: organization.id });
      });
      expect(result!.errors).toBeUndefined();
      return { statements, count: result!.data.spaces.count as number };
    };
    const fewAsAdmin = await measure(admin);
    const fewAsEditor = await measure(editor);
    expect(fewAsAdmin.count).toBe(5);

    await addSpaces(admin, organization.id, [outer, inner], 45);
    const manyAsAdmin = await measure(admin);
    const manyAsEditor = await measure(editor);
    expect(manyAsAdmin.count).toBe(50);
    expect(manyAsEditor.count).toBe(50);

    expect(manyAsAdmin.statements).toBe(fewAsAdmin.statements);
    expect(manyAsEditor.statements).toBe(fewAsEditor.statements);
    console.log(`SQL statements for the space list: admin ${fewAsAdmin.statements} (5 and 50 spaces), editor ${fewAsEditor.statements}`);
  });

  it('stay the same for a whole organization tree as it grows', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collections: string[] = [];
    for (let i = 0; i < 2; i++) {
      collections.push((await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: `C${i}` })).body.id);
    }
    await addSpaces(admin, organization.id, collections, 4);
    const small = await countStatements(() => admin.gql(TREE));

    for (let i = 2; i < 12; i++) {
      const parent = i % 2 ? collections[0] : undefined;
      collections.push((await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: `C${i}`, ...(parent ? { parent } : {}) })).body.id);
    }
    await addSpaces(admin, organization.id, collections, 40);
    let tree: { errors?: unknown[] } | undefined;
    const large = await countStatements(async () => {
      tree = await admin.gql(TREE);
    });
    expect(tree!.errors).toBeUndefined();
    expect(large).toBe(small);
    console.log(`SQL statements for the organization tree: ${small} (2 or 12 collections, 4 or 44 spaces)`);
  });

  it('stay the same for REST lists of 5 and 50 spaces', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await addSpaces(admin, organization.id, [], 5);
    const few = await countStatements(() => admin.rest('GET', `/v1/orgs/${organization.id}/spaces`));
    await addSpaces(admin, organization.id, [], 45);
    const many = await countStatements(() => admin.rest('GET', `/v1/orgs/${organization.id}/spaces`));
    expect(many).toBe(few);
  });

  it('stay the same for 5 and for 50 members with their space and team counts', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const collection = (await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Guides' })).body.id;
    await addSpaces(admin, organization.id, [collection], 6);
    const spaces = (await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`)).body.items.map((s: { id: string }) => s.id);
    const team = await createTeam(admin, organization.id, 'Writers', [read.user.id]);
    await grant(admin, { collection }, { team: team.id }, 'edit');
    await grant(admin, { space: spaces[0] }, { user: read.user.id }, 'admin');

    const MEMBERS = `query($org: ID!) { members(organizationId: $org, limit: 1000) { count items { id role spaces teams user { id displayName } } } }`;
    const measure = async (caller: Caller) => {
      let result: { data: any; errors?: unknown[] } | undefined;
      const statements = await countStatements(async () => {
        result = await caller.gql(MEMBERS, { org: organization.id });
      });
      expect(result!.errors).toBeUndefined();
      const rest = await countStatements(() => caller.rest('GET', `/v1/orgs/${organization.id}/members?limit=1000`));
      return { statements, rest, count: result!.data.members.count as number };
    };
    const fewAsAdmin = await measure(admin);
    const fewAsReader = await measure(read);
    expect(fewAsAdmin.count).toBe(5);

    for (let i = 0; i < 45; i++) {
      const member = await newMember(server, organization.id, i % 3 ? 'read' : null);
      if (i % 2) await admin.rest('PUT', `/v1/orgs/${organization.id}/teams/${team.id}/members/${member.user.id}`);
      if (i % 5 === 0) await grant(admin, { space: spaces[i % spaces.length] }, { user: member.user.id }, 'comment');
    }
    const manyAsAdmin = await measure(admin);
    const manyAsReader = await measure(read);
    expect(manyAsAdmin.count).toBe(50);
    expect(manyAsAdmin.statements).toBe(fewAsAdmin.statements);
    expect(manyAsAdmin.rest).toBe(fewAsAdmin.rest);
    expect(manyAsReader.statements).toBe(fewAsReader.statements);
    expect(manyAsReader.rest).toBe(fewAsReader.rest);
    console.log(`SQL statements for 5 and 50 members with counts: admin ${fewAsAdmin.statements}, reader ${fewAsReader.statements}`);
  });

  it('stay the same for a member given 5 or 50 spaces through user and team grants', async () => {
    const { organization, admin, guest } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id, 'Guests', [guest.user.id]);
    // Grants every space (again: a grant replaces the earlier one), half to the guest, half to their team.
    const grantNew = async (count: number) => {
      await addSpaces(admin, organization.id, [], count);
      const all = (await admin.rest('GET', `/v1/orgs/${organization.id}/spaces?limit=1000`)).body.items.map((s: { id: string }) => s.id);
      for (const [i, id] of all.entries()) await grant(admin, { space: id }, i % 2 ? { team: team.id } : { user: guest.user.id }, 'edit');
    };
    await grantNew(5);
    const few = await countStatements(() => guest.gql(SPACES_WITH_EVERYTHING, { org: organization.id }));
    await grantNew(45);
    let result: { data: any; errors?: unknown[] } | undefined;
    const many = await countStatements(async () => {
      result = await guest.gql(SPACES_WITH_EVERYTHING, { org: organization.id });
    });
    expect(result!.errors).toBeUndefined();
    expect(result!.data.spaces.count).toBe(50);
    expect(many).toBe(few);
  });

  it('stay the same for 5 and for 50 sites with a page of their share links each', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const SITES = `query($org: ID!) { sites(organizationId: $org, limit: 1000) { count items { id shareLinks(limit: 2) { count items { id name } next { page } } } } }`;
    const links: number[] = [];
    const addSites = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const site = await insertSite(server, organization.id, { visibility: 'share-link' });
        for (let j = 0; j < i % 4; j++) await insertShareLink(server, site, { name: `Link ${j}` });
        links.push(i % 4);
      }
    };
    const measure = async () => {
      let result: { data: any; errors?: unknown[] } | undefined;
      const statements = await countStatements(async () => {
        result = await admin.gql(SITES, { org: organization.id });
      });
      expect(result!.errors).toBeUndefined();
      return { statements, sites: result!.data.sites.items as { shareLinks: { count: number; items: unknown[]; next: unknown } }[] };
    };
    await addSites(5);
    const few = await measure();
    await addSites(45);
    const many = await measure();
    expect(many.sites).toHaveLength(50);
    // Sites made at the same instant come in id order: compare the counts as a whole.
    expect(many.sites.map((s) => s.shareLinks.count).sort()).toEqual(links.sort());
    expect(many.sites.every((s) => s.shareLinks.items.length === Math.min(2, s.shareLinks.count) && !!s.shareLinks.next === s.shareLinks.count > 2)).toBe(true);
    expect(many.statements).toBe(few.statements);
    console.log(`SQL statements for sites with their share links: ${few.statements} (5 and 50 sites)`);
  });
});
