import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
// The package's index.d.ts imports './client' without an extension, which NodeNext resolution cannot
// follow, so GitBookAPI loses its inherited API groups in type-checking. Its `exports` map hides
// dist/client, hence this path to the declaration file (a type-only import, erased at run time).
import type { Api, MemberRole, PublishIntegration, SiteAdaptiveJSONSchema, SiteVisibility, TeamMemberRole } from '../node_modules/@gitbook/api/dist/client.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/kernel/ids.js';
import { newMember, newOrganization, newUser, type Caller } from './support/factories.js';
import { contractOperations } from './support/contract-operations.js';
import { createInviteLink } from './support/people.js';
import { formatErrors, referenceSuccessStatuses, validateResponse } from './support/openapi.js';
import { identityProviderKeys } from './support/saml.js';
import { useTestServer } from './support/server.js';
import { routes } from '../rest-facade/routes/index.js';

/**
 * Contract test: drives every routed REST operation with the official client of the public reference
 * (`@gitbook/api`) and validates each success body against the reference schema of the operation.
 */

/** Success status per operation id, from the contract's operations.tsv ("204/205": the contract answers 204). */
// A copy of shared/contract/operations.tsv, so that the suite runs from a lone clone; the test
// "matches the shared contract" below keeps it equal to the original where that is present.
const statuses = new Map(contractOperations().map((operation) => [operation.operationId, operation.success[0]]));

/**
 * The contract's success status. getAuthenticatedUser, createSpace, listSpacesInOrganizationById,
 * publishSite and unpublishSite are routed but absent from operations.tsv; for them the reference's only
 * 2xx status stands in.
 */
function expectedStatus(operationId: string): number {
  const listed = statuses.get(operationId);
  if (listed !== undefined) return listed;
  const reference = referenceSuccessStatuses(operationId);
  if (reference.length !== 1) throw new Error(`${operationId}: not in operations.tsv and the reference has ${reference.length} success statuses`);
  return reference[0];
}

type ClientResponse = Response & { data: any };

/**
 * Asserts that a client response has the contract's success status and a body that conforms to the
 * reference schema of the operation (for 204: no body). Returns the parsed body.
 */
async function expectContract(operationId: string, call: Promise<unknown>): Promise<any> {
  const res = (await call) as ClientResponse;
  expect(res.status, `${operationId}: HTTP status`).toBe(expectedStatus(operationId));
  // The client parses JSON for operations with a body; 204 operations hand back the raw response.
  const body = res.status === 204 ? (await res.text()) || undefined : res.data;
  const errors = validateResponse(operationId, res.status, body);
  expect(errors, `${operationId} ${res.status} does not match the reference schema:\n${formatErrors(errors)}\nbody: ${JSON.stringify(body, null, 2)}`).toEqual(
    [],
  );
  return body;
}

// The website import reads a local site (see importContentInChangeRequest).
const server = useTestServer({ FETCH_ALLOW_PRIVATE: '127.0.0.1' });
let admin: Caller;
let api: GitBookAPI & Api<{ authToken?: string }>;
let organizationId: string;
/** A second organization of the same admin, the target of transfers. */
let otherOrganizationId: string;
let emailDomain: string;
/** The last raw response the client received, cloned before the client reads it. */
let lastRaw: Response | undefined;

beforeAll(async () => {
  emailDomain = `contract-${newId().toLowerCase()}.example.com`;
  admin = await newUser(server, { email: `admin@${emailDomain}` });
  organizationId = (await newOrganization(server, admin, { title: 'Contract org', emailDomains: [emailDomain] })).id;
  otherOrganizationId = (await newOrganization(server, admin, { title: 'Transfer target' })).id;
  api = new GitBookAPI({
    authToken: admin.token,
    endpoint: server.url,
    serviceBinding: {
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        lastRaw = res.clone();
        return res;
      },
    },
  }) as typeof api;
});

async function createSpace(title = 'Docs') {
  const { data } = await api.orgs.createSpace(organizationId, { title, emoji: '🎉' });
  return data;
}

async function createCollection(title = 'Guides') {
  const { data } = await api.orgs.createCollection(organizationId, { title });
  return data;
}

/** A new site publishing a new space at its root level (createSite with `spaces`). */
async function createSite(title = 'Docs site') {
  const space = await createSpace('Guide');
  const { data: site } = await api.orgs.createSite(organizationId, { title, spaces: [space.id] });
  return { site, space };
}

/** A new section of the site, publishing a new space titled `title`. */
async function addSection(siteId: string, title = 'Section') {
  const space = await createSpace(title);
  const { data } = await api.orgs.addSectionToSite(organizationId, siteId, { spaceId: space.id });
  return data;
}

async function addGroup(siteId: string, title = 'Group', sections: string[] = []) {
  const { data } = await api.orgs.addSectionGroupToSite(organizationId, siteId, { title, sections });
  return data;
}

/** A new site space of the site, publishing a new space titled `title` (in the default section, if any). */
async function addSiteSpace(siteId: string, title = 'Variant') {
  const space = await createSpace(title);
  const { data } = await api.orgs.addSpaceToSite(organizationId, siteId, { spaceId: space.id });
  return data;
}

async function createShareLink(siteId: string, name = 'Partners') {
  const { data } = await api.orgs.createSiteShareLink(organizationId, siteId, { name });
  return data;
}

/** A valid adaptive schema: one boolean attribute and the unsigned claims. */
const ADAPTIVE_SCHEMA: SiteAdaptiveJSONSchema = {
  type: 'object',
  properties: {
    beta: { type: 'boolean', description: 'Whether the visitor is in the beta programme' },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { plan: { type: 'string', description: 'The plan of the visitor' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe('contract: the reference client against the REST facade', () => {
  it('reaches the server under /v1 with the bearer token', async () => {
    await api.user.getAuthenticatedUser();
    expect(lastRaw?.url).toBe(`${server.url}/v1/user`);
  });

  describe('users', () => {
    it('getAuthenticatedUser', async () => {
      const user = await expectContract('getAuthenticatedUser', api.user.getAuthenticatedUser());
      expect(user).toMatchObject({ object: 'user', id: admin.user.id, email: admin.user.email });
    });
  });

  describe('organizations', () => {
    it('listOrganizationsForAuthenticatedUser', async () => {
      const list = await expectContract('listOrganizationsForAuthenticatedUser', api.orgs.listOrganizationsForAuthenticatedUser());
      expect(list.items.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([organizationId, otherOrganizationId]));
    });

    it('getOrganizationById', async () => {
      const organization = await expectContract('getOrganizationById', api.orgs.getOrganizationById(organizationId));
      expect(organization).toMatchObject({ object: 'organization', id: organizationId, title: 'Contract org' });
    });

    it('updateOrganizationById', async () => {
      const organization = await expectContract('updateOrganizationById', api.orgs.updateOrganizationById(organizationId, { title: 'Contract org 2' }));
      expect(organization).toMatchObject({ id: organizationId, title: 'Contract org 2' });
      await api.orgs.updateOrganizationById(organizationId, { title: 'Contract org' });
    });

    it('getOrganizationsForEmailDomain', async () => {
      const result = await expectContract('getOrganizationsForEmailDomain', api.emailDomains.getOrganizationsForEmailDomain(emailDomain));
      expect(result.organizations.map((o: { id: string }) => o.id)).toEqual([organizationId]);
    });

    it('updateOrganizationMemberLastSeenAt', async () => {
      // The contract names the field `serviceVisitorClaims` where the reference names it
      // `gitbookVisitorClaims`; the contract wins, so this body is checked against the contract's
      // shape ({serviceVisitorClaims: string}) instead of the reference schema.
      const res = (await api.orgs.updateOrganizationMemberLastSeenAt(organizationId)) as unknown as ClientResponse;
      expect(res.status).toBe(expectedStatus('updateOrganizationMemberLastSeenAt'));
      expect(res.data).toEqual({ serviceVisitorClaims: expect.any(String) });
    });
  });

  describe('members', () => {
    it('listMembersInOrganizationById', async () => {
      const member = await newMember(server, organizationId, null);
      const list = await expectContract(
        'listMembersInOrganizationById',
        api.orgs.listMembersInOrganizationById(organizationId, { role: 'guest', order: 'asc' }),
      );
      expect(list.items.map((m: { id: string }) => m.id)).toContain(member.user.id);
      expect(list.items.every((m: { role: string | null }) => m.role === null)).toBe(true);
    });

    it('getMemberInOrganizationById', async () => {
      const member = await expectContract('getMemberInOrganizationById', api.orgs.getMemberInOrganizationById(organizationId, admin.user.id));
      expect(member).toMatchObject({ object: 'member', id: admin.user.id, role: 'admin' });
    });

    it('updateMemberInOrganizationById', async () => {
      const member = await newMember(server, organizationId, 'read');
      const updated = await expectContract(
        'updateMemberInOrganizationById',
        api.orgs.updateMemberInOrganizationById(organizationId, member.user.id, { role: 'edit' as MemberRole }),
      );
      expect(updated).toMatchObject({ id: member.user.id, role: 'edit' });
    });

    it('removeMemberFromOrganizationById', async () => {
      const member = await newMember(server, organizationId, 'read');
      await expectContract('removeMemberFromOrganizationById', api.orgs.removeMemberFromOrganizationById(organizationId, member.user.id));
    });

    it('setUserAsSSOMemberForOrganization', async () => {
      const member = await newMember(server, organizationId, 'read');
      const marked = await expectContract('setUserAsSSOMemberForOrganization', api.orgs.setUserAsSsoMemberForOrganization(organizationId, member.user.id));
      expect(marked).toMatchObject({ id: member.user.id, sso: true });
    });

    it('listSpacesForOrganizationMember', async () => {
      const member = await newMember(server, organizationId, 'read');
      const space = await createSpace('Shared');
      const list = await expectContract('listSpacesForOrganizationMember', api.orgs.listSpacesForOrganizationMember(organizationId, member.user.id));
      expect(list.items[0]).toMatchObject({ permission: 'read', space: { id: space.id } });
    });

    it('listTeamsForOrganizationMember', async () => {
      const member = await newMember(server, organizationId, 'read');
      const { data: team } = await api.orgs.createOrganizationTeam(organizationId, { title: 'Readers', members: [member.user.id] });
      const list = await expectContract('listTeamsForOrganizationMember', api.orgs.listTeamsForOrganizationMember(organizationId, member.user.id));
      expect(list.items).toEqual([{ team: expect.objectContaining({ id: team.id }), member: { role: 'member' } }]);
    });
  });

  describe('teams', () => {
    async function createTeam(title = 'Writers', members: string[] = []) {
      const { data } = await api.orgs.createOrganizationTeam(organizationId, { title, members });
      return data;
    }

    it('createOrganizationTeam', async () => {
      const member = await newMember(server, organizationId, 'edit');
      const team = await expectContract(
        'createOrganizationTeam',
        api.orgs.createOrganizationTeam(organizationId, { title: 'Writers', members: [member.user.id] }),
      );
      expect(team).toMatchObject({ object: 'team', title: 'Writers', members: 1, spaces: 0 });
    });

    it('listTeamsInOrganizationById', async () => {
      const team = await createTeam('Listed team');
      const list = await expectContract(
        'listTeamsInOrganizationById',
        api.orgs.listTeamsInOrganizationById(organizationId, { title: 'listed', owner: admin.user.id }),
      );
      expect(list.items.map((t: { id: string }) => t.id)).toEqual([team.id]);
    });

    it('getTeamInOrganizationById', async () => {
      const team = await createTeam();
      const got = await expectContract('getTeamInOrganizationById', api.orgs.getTeamInOrganizationById(organizationId, team.id));
      expect(got).toMatchObject({ id: team.id, title: 'Writers' });
    });

    it('updateTeamInOrganizationById', async () => {
      const team = await createTeam();
      const updated = await expectContract(
        'updateTeamInOrganizationById',
        api.orgs.updateTeamInOrganizationById(organizationId, team.id, { title: 'Authors' }),
      );
      expect(updated).toMatchObject({ id: team.id, title: 'Authors' });
    });

    it('removeTeamFromOrganizationById', async () => {
      const team = await createTeam();
      await expectContract('removeTeamFromOrganizationById', api.orgs.removeTeamFromOrganizationById(organizationId, team.id));
    });

    it('listTeamMembersInOrganizationById', async () => {
      const member = await newMember(server, organizationId, 'edit');
      const team = await createTeam('Writers', [member.user.id]);
      const list = await expectContract('listTeamMembersInOrganizationById', api.orgs.listTeamMembersInOrganizationById(organizationId, team.id));
      expect(list.items).toEqual([{ organization: expect.objectContaining({ id: member.user.id }), team: { role: 'member' }, permissions: { view: true } }]);
    });

    it('updateMembersInOrganizationTeam', async () => {
      const member = await newMember(server, organizationId, 'edit');
      const team = await createTeam();
      await expectContract(
        'updateMembersInOrganizationTeam',
        api.orgs.updateMembersInOrganizationTeam(organizationId, team.id, {
          add: [member.user.email],
          memberships: { [member.user.id]: { role: 'owner' as TeamMemberRole } },
        }),
      );
      const { data } = await api.orgs.listTeamMembersInOrganizationById(organizationId, team.id);
      expect(data.items.map((m) => [m.organization.id, m.team.role])).toEqual([[member.user.id, 'owner']]);
    });

    it('addMemberToOrganizationTeamById', async () => {
      const member = await newMember(server, organizationId, 'edit');
      const team = await createTeam();
      await expectContract(
        'addMemberToOrganizationTeamById',
        api.orgs.addMemberToOrganizationTeamById(organizationId, team.id, member.user.id, { role: 'owner' as TeamMemberRole }),
      );
    });

    it('deleteMemberFromOrganizationTeamById', async () => {
      const member = await newMember(server, organizationId, 'edit');
      const team = await createTeam('Writers', [member.user.id]);
      await expectContract('deleteMemberFromOrganizationTeamById', api.orgs.deleteMemberFromOrganizationTeamById(organizationId, team.id, member.user.id));
    });
  });

  describe('invite links', () => {
    it('getOrganizationInviteLink', async () => {
      const link = await createInviteLink(admin, organizationId, { role: 'edit' });
      const got = await expectContract('getOrganizationInviteLink', api.orgs.getOrganizationInviteLink(organizationId, link.id));
      expect(got).toEqual({ object: 'invite', id: link.id, role: 'edit', redundant: true });
    });

    it('getOrganizationInviteLink of a link to a space', async () => {
      const space = await createSpace('Partner guide');
      const link = await createInviteLink(admin, organizationId, { space: space.id, level: 'comment' });
      const got = await expectContract('getOrganizationInviteLink', api.orgs.getOrganizationInviteLink(organizationId, link.id));
      expect(got).toMatchObject({ object: 'invite', id: link.id, level: 'comment', space: { id: space.id } });
    });

    it('updateOrganizationInviteById', async () => {
      const link = await createInviteLink(admin, organizationId, { role: 'edit' });
      const updated = await expectContract('updateOrganizationInviteById', api.orgs.updateOrganizationInviteById(organizationId, link.id, { role: null }));
      expect(updated).toMatchObject({ id: link.id, role: null });
    });

    it('deleteOrganizationInviteById', async () => {
      const link = await createInviteLink(admin, organizationId, { role: 'edit' });
      await expectContract('deleteOrganizationInviteById', api.orgs.deleteOrganizationInviteById(organizationId, link.id));
    });
  });

  describe('spaces', () => {
    it('createSpace', async () => {
      const space = await expectContract('createSpace', api.orgs.createSpace(organizationId, { title: 'Docs', emoji: '🎉' }));
      expect(space).toMatchObject({ object: 'space', title: 'Docs', emoji: '🎉', organization: organizationId });
      expect(lastRaw?.headers.get('location')).toBe(space.urls.location);
    });

    it('listSpacesInOrganizationById', async () => {
      const space = await createSpace();
      const list = await expectContract('listSpacesInOrganizationById', api.orgs.listSpacesInOrganizationById(organizationId));
      expect(list.items.map((s: { id: string }) => s.id)).toContain(space.id);
    });

    it('getSpaceById', async () => {
      const space = await createSpace();
      const got = await expectContract('getSpaceById', api.spaces.getSpaceById(space.id));
      expect(got).toMatchObject({ id: space.id, title: 'Docs' });
    });

    it('updateSpaceById', async () => {
      const space = await createSpace();
      const updated = await expectContract('updateSpaceById', api.spaces.updateSpaceById(space.id, { title: 'Renamed' }));
      expect(updated).toMatchObject({ id: space.id, title: 'Renamed' });
    });

    it('duplicateSpace', async () => {
      const space = await createSpace('Original');
      const copy = await expectContract('duplicateSpace', api.spaces.duplicateSpace(space.id));
      expect(copy.id).not.toBe(space.id);
      expect(copy.organization).toBe(organizationId);
    });

    it('moveSpace', async () => {
      const space = await createSpace();
      const collection = await createCollection();
      const moved = await expectContract('moveSpace', api.spaces.moveSpace(space.id, { parent: collection.id }));
      expect(moved).toMatchObject({ id: space.id, parent: collection.id });
    });

    it('transferSpace', async () => {
      const space = await createSpace();
      const transferred = await expectContract('transferSpace', api.spaces.transferSpace(space.id, { organization: otherOrganizationId }));
      expect(transferred).toMatchObject({ id: space.id, organization: otherOrganizationId });
    });

    it('deleteSpaceById', async () => {
      const space = await createSpace();
      await expectContract('deleteSpaceById', api.spaces.deleteSpaceById(space.id));
    });

    it('restoreSpace', async () => {
      const space = await createSpace();
      await api.spaces.deleteSpaceById(space.id);
      const restored = await expectContract('restoreSpace', api.spaces.restoreSpace(space.id));
      expect(restored.id).toBe(space.id);
      expect(restored.deletedAt).toBeUndefined();
    });
  });

  describe('collections', () => {
    it('createCollection', async () => {
      const collection = await expectContract('createCollection', api.orgs.createCollection(organizationId, { title: 'Guides' }));
      expect(collection).toMatchObject({ object: 'collection', title: 'Guides', organization: organizationId });
      expect(lastRaw?.headers.get('location')).toBe(collection.urls.location);
    });

    it('getCollectionById', async () => {
      const collection = await createCollection();
      const got = await expectContract('getCollectionById', api.collections.getCollectionById(collection.id));
      expect(got).toMatchObject({ id: collection.id, title: 'Guides' });
    });

    it('updateCollectionById', async () => {
      const collection = await createCollection();
      const updated = await expectContract(
        'updateCollectionById',
        api.collections.updateCollectionById(collection.id, { title: 'Handbook', description: 'How we work' }),
      );
      expect(updated).toMatchObject({ id: collection.id, title: 'Handbook', description: 'How we work' });
    });

    it('listSpacesInCollectionById', async () => {
      const collection = await createCollection();
      const space = await createSpace();
      await api.spaces.moveSpace(space.id, { parent: collection.id });
      const list = await expectContract('listSpacesInCollectionById', api.collections.listSpacesInCollectionById(collection.id));
      expect(list.items.map((s: { id: string }) => s.id)).toEqual([space.id]);
    });

    it('listCollectionsInOrganizationById', async () => {
      const collection = await createCollection();
      const list = await expectContract('listCollectionsInOrganizationById', api.orgs.listCollectionsInOrganizationById(organizationId));
      expect(list.items.map((c: { id: string }) => c.id)).toContain(collection.id);
    });

    it('moveCollection', async () => {
      const parent = await createCollection('Parent');
      const child = await createCollection('Child');
      const moved = await expectContract('moveCollection', api.collections.moveCollection(child.id, { parent: parent.id }));
      expect(moved).toMatchObject({ id: child.id, parent: parent.id });
    });

    it('transferCollection', async () => {
      const collection = await createCollection();
      const transferred = await expectContract('transferCollection', api.collections.transferCollection(collection.id, { organization: otherOrganizationId }));
      expect(transferred).toMatchObject({ id: collection.id, organization: otherOrganizationId });
    });

    it('deleteCollectionById', async () => {
      const collection = await createCollection();
      await expectContract('deleteCollectionById', api.collections.deleteCollectionById(collection.id));
    });
  });

  describe('sites', () => {
    it('createSite', async () => {
      const space = await createSpace('Guide');
      const site = await expectContract(
        'createSite',
        api.orgs.createSite(organizationId, { title: 'Docs site', visibility: 'unlisted' as SiteVisibility, spaces: [space.id] }),
      );
      expect(site).toMatchObject({ object: 'site', title: 'Docs site', visibility: 'unlisted', published: false, siteSpaces: 1 });
      expect(lastRaw?.headers.get('location')).toBe(site.urls.location);
    });

    it('listSites', async () => {
      const { site, space } = await createSite();
      const list = await expectContract('listSites', api.orgs.listSites(organizationId, { space: space.id }));
      expect(list.items.map((s: { id: string }) => s.id)).toEqual([site.id]);
    });

    it('getSiteById', async () => {
      const { site } = await createSite();
      const got = await expectContract('getSiteById', api.orgs.getSiteById(organizationId, site.id));
      expect(got).toMatchObject({ object: 'site', id: site.id, title: 'Docs site', siteSpaces: 1 });
    });

    it('updateSiteById', async () => {
      const { site } = await createSite();
      const updated = await expectContract(
        'updateSiteById',
        api.orgs.updateSiteById(organizationId, site.id, {
          title: 'Renamed site',
          basename: 'docs',
          adaptiveContent: { enabled: true },
          proxy: 'www.contract.example.com/docs',
        }),
      );
      expect(updated).toMatchObject({
        id: site.id,
        title: 'Renamed site',
        basename: 'docs',
        adaptiveContent: { enabled: true },
        proxy: { origin: 'www.contract.example.com/docs', target: expect.any(String) },
      });
    });

    it('deleteSiteById', async () => {
      const { site } = await createSite();
      await expectContract('deleteSiteById', api.orgs.deleteSiteById(organizationId, site.id));
    });

    it('publishSite', async () => {
      const { site } = await createSite();
      const published = await expectContract('publishSite', api.orgs.publishSite(organizationId, site.id));
      expect(published).toMatchObject({ id: site.id, published: true, urls: { published: expect.any(String) } });
    });

    it('unpublishSite', async () => {
      const { site } = await createSite();
      await api.orgs.publishSite(organizationId, site.id);
      const unpublished = await expectContract('unpublishSite', api.orgs.unpublishSite(organizationId, site.id));
      expect(unpublished).toMatchObject({ id: site.id, published: false });
    });

    it('updateSiteAdaptiveSchema', async () => {
      const { site } = await createSite();
      const schema = await expectContract(
        'updateSiteAdaptiveSchema',
        api.orgs.updateSiteAdaptiveSchema(organizationId, site.id, { jsonSchema: ADAPTIVE_SCHEMA }),
      );
      expect(schema).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: ADAPTIVE_SCHEMA });
    });

    it('getSiteAdaptiveSchema', async () => {
      const { site } = await createSite();
      await api.orgs.updateSiteAdaptiveSchema(organizationId, site.id, { jsonSchema: ADAPTIVE_SCHEMA });
      const schema = await expectContract('getSiteAdaptiveSchema', api.orgs.getSiteAdaptiveSchema(organizationId, site.id));
      expect(schema).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: ADAPTIVE_SCHEMA });
    });

    it('getPublishedContentSite of a site without sections', async () => {
      const { site, space } = await createSite();
      await api.orgs.publishSite(organizationId, site.id);
      const published = await expectContract('getPublishedContentSite', api.orgs.getPublishedContentSite(organizationId, site.id));
      expect(published).toMatchObject({ object: 'published-content-site', site: { id: site.id, published: true }, structure: { type: 'siteSpaces' } });
      expect(published.structure.structure.map((s: { space: { id: string } }) => s.space.id)).toEqual([space.id]);
    });

    it('getPublishedContentSite of a share-link site, with a share key', async () => {
      const space = await createSpace('Partner guide');
      const { data: site } = await api.orgs.createSite(organizationId, { visibility: 'share-link' as SiteVisibility, spaces: [space.id] });
      await api.orgs.publishSite(organizationId, site.id);
      const link = await createShareLink(site.id);
      const shareKey = new URL(link.urls.published!).searchParams.get('shareKey')!;
      const published = await expectContract('getPublishedContentSite', api.orgs.getPublishedContentSite(organizationId, site.id, { shareKey }));
      expect(published.site).toMatchObject({ id: site.id, visibility: 'share-link', published: true });
      // Its site spaces' published URLs carry the key that opened it.
      const siteSpaces = (published as { structure: { structure: { urls: { published?: string } }[] } }).structure.structure;
      expect(siteSpaces.length).toBe(1);
      expect(siteSpaces[0].urls.published).toMatch(new RegExp(`\\?shareKey=${encodeURIComponent(shareKey)}$`));
    });

    it('getPublishedContentSite of a site with sections and a group', async () => {
      const { site } = await createSite();
      const first = await addSection(site.id, 'First');
      const grouped = await addSection(site.id, 'Grouped');
      const group = await addGroup(site.id, 'Products', [grouped.id]);
      const published = await expectContract('getPublishedContentSite', api.orgs.getPublishedContentSite(organizationId, site.id));
      expect(published.structure.type).toBe('sections');
      // The first section added took the site's root-level site space into a section titled like the site.
      expect(published.structure.structure.map((item: { object: string; id: string; title: string }) => [item.object, item.title])).toEqual([
        ['site-section', 'Docs site'],
        ['site-section', 'First'],
        ['site-section-group', 'Products'],
      ]);
      expect(published.structure.structure[1].id).toBe(first.id);
      expect(published.structure.structure[2].id).toBe(group.id);
    });
  });

  describe('site sections', () => {
    it('addSectionToSite', async () => {
      const { site } = await createSite();
      const space = await createSpace('Getting Started');
      const section = await expectContract(
        'addSectionToSite',
        api.orgs.addSectionToSite(organizationId, site.id, { spaceId: space.id, title: 'Start', icon: 'rocket' }),
      );
      expect(section).toMatchObject({ object: 'site-section', title: 'Start', icon: 'rocket' });
      expect(section.siteSpaces.map((s: { space: { id: string } }) => s.space.id)).toEqual([space.id]);
    });

    it('listSiteSections', async () => {
      const { site } = await createSite();
      const a = await addSection(site.id, 'Alpha');
      const b = await addSection(site.id, 'Beta');
      const list = await expectContract('listSiteSections', api.orgs.listSiteSections(organizationId, site.id));
      // The first section added took the site's root-level site space into a section titled like the site.
      expect(list.items.map((s: { title: string }) => s.title)).toEqual(['Docs site', 'Alpha', 'Beta']);
      expect(list.items.slice(1).map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
    });

    it('updateSiteSectionById', async () => {
      const { site } = await createSite();
      await api.orgs.updateSiteAdaptiveSchema(organizationId, site.id, { jsonSchema: ADAPTIVE_SCHEMA });
      const section = await addSection(site.id, 'Alpha');
      const updated = await expectContract(
        'updateSiteSectionById',
        api.orgs.updateSiteSectionById(organizationId, site.id, section.id, {
          title: 'Renamed',
          path: 'renamed',
          description: 'About this section',
          condition: 'visitor.claims.beta',
        }),
      );
      expect(updated).toMatchObject({ id: section.id, title: 'Renamed', path: 'renamed', description: 'About this section', condition: 'visitor.claims.beta' });
    });

    it('moveSiteSection', async () => {
      const { site } = await createSite();
      const a = await addSection(site.id, 'Alpha');
      const b = await addSection(site.id, 'Beta');
      const moved = await expectContract(
        'moveSiteSection',
        api.orgs.moveSiteSection(organizationId, site.id, b.id, { position: { before: { type: 'site-section', siteSection: a.id } } }),
      );
      expect(moved.id).toBe(b.id);
      const { data } = await api.orgs.listSiteSections(organizationId, site.id);
      expect(data.items.slice(1).map((s) => s.id)).toEqual([b.id, a.id]);
    });

    it('deleteSiteSectionById', async () => {
      const { site } = await createSite();
      const section = await addSection(site.id);
      await expectContract('deleteSiteSectionById', api.orgs.deleteSiteSectionById(organizationId, site.id, section.id));
    });
  });

  describe('site section groups', () => {
    it('addSectionGroupToSite', async () => {
      const { site } = await createSite();
      const section = await addSection(site.id);
      const group = await expectContract(
        'addSectionGroupToSite',
        api.orgs.addSectionGroupToSite(organizationId, site.id, { title: 'Products', icon: 'box', sections: [section.id] }),
      );
      expect(group).toMatchObject({ object: 'site-section-group', title: 'Products', icon: 'box' });
      expect(group.sections.map((s: { id: string }) => s.id)).toEqual([section.id]);
    });

    it('listSiteSectionGroups', async () => {
      const { site } = await createSite();
      await addSection(site.id);
      const group = await addGroup(site.id);
      const list = await expectContract('listSiteSectionGroups', api.orgs.listSiteSectionGroups(organizationId, site.id));
      expect(list.items.map((g: { id: string }) => g.id)).toEqual([group.id]);
    });

    it('updateSiteSectionGroupById', async () => {
      const { site } = await createSite();
      await addSection(site.id);
      const group = await addGroup(site.id);
      const updated = await expectContract(
        'updateSiteSectionGroupById',
        api.orgs.updateSiteSectionGroupById(organizationId, site.id, group.id, { title: 'Renamed group', icon: 'book' }),
      );
      expect(updated).toMatchObject({ id: group.id, title: 'Renamed group', icon: 'book' });
    });

    it('addSectionToGroup', async () => {
      const { site } = await createSite();
      const section = await addSection(site.id);
      const group = await addGroup(site.id);
      const updated = await expectContract('addSectionToGroup', api.orgs.addSectionToGroup(organizationId, site.id, group.id, { sectionId: section.id }));
      expect(updated.sections.map((s: { id: string }) => s.id)).toEqual([section.id]);
    });

    it('removeSectionFromGroup', async () => {
      const { site } = await createSite();
      const section = await addSection(site.id);
      const group = await addGroup(site.id, 'Group', [section.id]);
      await expectContract('removeSectionFromGroup', api.orgs.removeSectionFromGroup(organizationId, site.id, group.id, section.id));
    });

    it('moveSiteSectionGroup', async () => {
      const { site } = await createSite();
      const section = await addSection(site.id);
      const group = await addGroup(site.id);
      const moved = await expectContract(
        'moveSiteSectionGroup',
        api.orgs.moveSiteSectionGroup(organizationId, site.id, group.id, { position: { before: { type: 'site-section', id: section.id } } }),
      );
      expect(moved.id).toBe(group.id);
    });

    it('deleteSiteSectionGroupById', async () => {
      const { site } = await createSite();
      await addSection(site.id);
      const group = await addGroup(site.id);
      await expectContract('deleteSiteSectionGroupById', api.orgs.deleteSiteSectionGroupById(organizationId, site.id, group.id));
    });
  });

  describe('site spaces', () => {
    it('addSpaceToSite', async () => {
      const { site } = await createSite();
      const space = await createSpace('Reference');
      const siteSpace = await expectContract('addSpaceToSite', api.orgs.addSpaceToSite(organizationId, site.id, { spaceId: space.id }));
      expect(siteSpace).toMatchObject({ object: 'site-space', path: 'reference', space: { id: space.id } });
    });

    it('listSiteSpaces of a site without sections', async () => {
      const { site, space } = await createSite();
      const list = await expectContract('listSiteSpaces', api.orgs.listSiteSpaces(organizationId, site.id));
      expect(list.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([space.id]);
    });

    it('listSiteSpaces of a published site with sections', async () => {
      const { site, space } = await createSite();
      await api.orgs.publishSite(organizationId, site.id);
      const section = await addSection(site.id, 'Alpha');
      const list = await expectContract('listSiteSpaces', api.orgs.listSiteSpaces(organizationId, site.id));
      expect(list.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([space.id, section.siteSpaces[0].space.id]);
      expect(list.items[1]).toMatchObject({ section: section.id, urls: { published: expect.any(String) } });
    });

    it('updateSiteSpaceById', async () => {
      const { site } = await createSite();
      await api.orgs.updateSiteAdaptiveSchema(organizationId, site.id, { jsonSchema: ADAPTIVE_SCHEMA });
      const siteSpace = await addSiteSpace(site.id);
      const updated = await expectContract(
        'updateSiteSpaceById',
        api.orgs.updateSiteSpaceById(organizationId, site.id, siteSpace.id, { path: 'v2', condition: 'visitor.claims.unsigned.plan === "pro"' }),
      );
      expect(updated).toMatchObject({ id: siteSpace.id, path: 'v2', condition: 'visitor.claims.unsigned.plan === "pro"' });
    });

    it('moveSiteSpace', async () => {
      const { site } = await createSite();
      const a = await addSiteSpace(site.id, 'Alpha');
      const b = await addSiteSpace(site.id, 'Beta');
      const moved = await expectContract(
        'moveSiteSpace',
        api.orgs.moveSiteSpace(organizationId, site.id, b.id, { position: { before: { type: 'site-space', siteSpace: a.id } } }),
      );
      expect(moved.id).toBe(b.id);
    });

    it('deleteSiteSpaceById', async () => {
      const { site } = await createSite();
      const siteSpace = await addSiteSpace(site.id);
      await expectContract('deleteSiteSpaceById', api.orgs.deleteSiteSpaceById(organizationId, site.id, siteSpace.id));
    });
  });

  describe('share links', () => {
    it('createSiteShareLink', async () => {
      const { site } = await createSite();
      const link = await expectContract('createSiteShareLink', api.orgs.createSiteShareLink(organizationId, site.id, { name: 'Partners' }));
      expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true, urls: { published: expect.any(String) } });
    });

    it('listSiteShareLinks', async () => {
      const { site } = await createSite();
      const link = await createShareLink(site.id);
      const list = await expectContract('listSiteShareLinks', api.orgs.listSiteShareLinks(organizationId, site.id));
      expect(list.items.map((l: { id: string }) => l.id)).toEqual([link.id]);
    });

    it('updateSiteShareLinkById', async () => {
      const { site } = await createSite();
      const link = await createShareLink(site.id);
      const updated = await expectContract(
        'updateSiteShareLinkById',
        api.orgs.updateSiteShareLinkById(organizationId, site.id, link.id, { name: 'Press', active: false }),
      );
      expect(updated).toMatchObject({ id: link.id, name: 'Press', active: false });
    });

    it('deleteSiteShareLinkById', async () => {
      const { site } = await createSite();
      const link = await createShareLink(site.id);
      await expectContract('deleteSiteShareLinkById', api.orgs.deleteSiteShareLinkById(organizationId, site.id, link.id));
    });
  });

  describe('site insights', () => {
    /** A page view of the site now, by a visitor with visitor-auth claims. */
    const pageView = (url = 'https://docs.example.com/start') => ({
      type: 'page_view' as const,
      session: {
        visitorId: 'visitor-1',
        sessionId: 'session-1',
        cookies: {},
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
        language: 'en',
        referrer: null,
        visitorAuthClaims: { plan: 'pro' },
      },
      location: { url, siteSection: null, siteSpace: null, siteShareKey: null, space: null, revision: null, page: null },
      timestamp: server.clock.now().toISOString(),
    });

    it('trackEventsInSiteById', async () => {
      const { site } = await createSite();
      await expectContract(
        'trackEventsInSiteById',
        api.orgs.trackEventsInSiteById(organizationId, site.id, { events: [pageView(), pageView('https://docs.example.com/b')] }),
      );
    });

    it('aggregateSiteEvents', async () => {
      const { site } = await createSite();
      await api.orgs.trackEventsInSiteById(organizationId, site.id, { events: [pageView(), pageView()] });
      const result = await expectContract(
        'aggregateSiteEvents',
        api.orgs.aggregateSiteEvents(organizationId, site.id, {
          select: [{ column: 'datetime', interval: 'day' }, { column: 'url' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
          range: 'last7Days',
        } as never),
      );
      expect(result.columns.map((c: { column: string }) => c.column)).toEqual(['datetime', 'url', 'eventsCount', 'visitorsCount']);
      expect(result.columns[2].values).toEqual([2]);
    });

    it('listSiteVisitorSegments', async () => {
      const { site } = await createSite();
      await api.orgs.trackEventsInSiteById(organizationId, site.id, { events: [pageView()] });
      const list = await expectContract('listSiteVisitorSegments', api.orgs.listSiteVisitorSegments(organizationId, site.id));
      expect(list.items).toEqual([{ title: 'plan: pro', claims: { plan: 'pro' }, events: 1, visitors: 1, sessions: 1 }]);
    });
  });

  describe('SAML providers and SSO logins', () => {
    const certificate = identityProviderKeys().certificate;
    const provider = (label = 'Okta') => ({ label, entityID: 'https://idp.example.com/metadata', ssoURL: 'https://idp.example.com/sso', certificate });

    async function createProvider(label?: string) {
      const { data } = await api.orgs.createOrganizationSamlProvider(organizationId, provider(label));
      return data;
    }

    it('createOrganizationSAMLProvider', async () => {
      const { data: team } = await api.orgs.createOrganizationTeam(organizationId, { title: 'SSO people' });
      const created = await expectContract(
        'createOrganizationSAMLProvider',
        api.orgs.createOrganizationSamlProvider(organizationId, { ...provider(), defaultTeam: team.id }),
      );
      expect(created).toMatchObject({
        object: 'saml-provider',
        label: 'Okta',
        status: 'active',
        certificate,
        defaultTeam: { id: team.id, title: 'SSO people' },
      });
      expect(lastRaw?.headers.get('location')).toBe(created.urls.location);
    });

    it('listSAMLProvidersInOrganizationById', async () => {
      const created = await createProvider('Azure');
      const list = await expectContract('listSAMLProvidersInOrganizationById', api.orgs.listSamlProvidersInOrganizationById(organizationId));
      expect(list.items.map((p: { id: string }) => p.id)).toContain(created.id);
    });

    it('getOrganizationSAMLProviderById', async () => {
      const created = await createProvider();
      const got = await expectContract('getOrganizationSAMLProviderById', api.orgs.getOrganizationSamlProviderById(organizationId, created.id));
      expect(got).toEqual(created);
    });

    it('updateOrganizationSAMLProvider', async () => {
      const created = await createProvider();
      const updated = await expectContract(
        'updateOrganizationSAMLProvider',
        api.orgs.updateOrganizationSamlProvider(organizationId, created.id, { label: 'Renamed', defaultRole: null }),
      );
      expect(updated).toMatchObject({ id: created.id, label: 'Renamed', defaultRole: null });
    });

    it('deleteOrganizationSAMLProvider', async () => {
      const created = await createProvider();
      await expectContract('deleteOrganizationSAMLProvider', api.orgs.deleteOrganizationSamlProvider(organizationId, created.id));
    });

    it('listSSOProviderLoginsInOrganization', async () => {
      const created = await createProvider('Login page');
      const logins = await expectContract('listSSOProviderLoginsInOrganization', api.orgs.listSsoProviderLoginsInOrganization(organizationId));
      expect(logins.items).toContainEqual({ id: created.id, label: 'Login page', startURL: created.service.startURL });
    });
  });

  describe('change requests and content', () => {
    /** A space with a change request holding a page that shows an uploaded image. */
    async function changeRequestWithContent() {
      const space = await createSpace('Content');
      const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Edits' });
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000030000000208060000', 'hex'), Buffer.alloc(16)]);
      const uploaded = await admin.gql(
        `mutation($s: ID!, $c: ID!, $i: UploadFileInput!) { uploadFile(spaceId: $s, changeRequestId: $c, input: $i) { file { id } } }`,
        { s: space.id, c: cr.id, i: { name: 'image.png', content: png.toString('base64') } },
      );
      const created = await admin.gql(
        `mutation($s: ID!, $c: ID!, $i: CreatePageInput!) { createPage(spaceId: $s, changeRequestId: $c, input: $i) { page { id } } }`,
        { s: space.id, c: cr.id, i: { title: 'Intro', markdown: 'Hello ![image](.gitbook/assets/image.png)' } },
      );
      return { space, cr, fileId: uploaded.data.uploadFile.file.id as string, pageId: created.data.createPage.page.id as string };
    }

    it('createChangeRequest, getChangeRequestById, listChangeRequestsForSpace, updateChangeRequestById', async () => {
      const space = await createSpace();
      const cr = await expectContract('createChangeRequest', api.spaces.createChangeRequest(space.id, { subject: 'Fix typos' }));
      expect(cr).toMatchObject({ object: 'change-request', number: 1, subject: 'Fix typos', status: 'open' });
      await expectContract('getChangeRequestById', api.spaces.getChangeRequestById(space.id, String(cr.number)));
      const list = await expectContract('listChangeRequestsForSpace', api.spaces.listChangeRequestsForSpace(space.id));
      expect(list.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
      const patched = await expectContract('updateChangeRequestById', api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'draft' }));
      expect(patched.status).toBe('draft');
    });

    it('content reads: getRevisionOfChangeRequestById, listPagesInChangeRequest, getPageInChangeRequestById, files and backlinks', async () => {
      const { space, cr, fileId, pageId } = await changeRequestWithContent();
      await expectContract('getRevisionOfChangeRequestById', api.spaces.getRevisionOfChangeRequestById(space.id, cr.id));
      const pages = await expectContract('listPagesInChangeRequest', api.spaces.listPagesInChangeRequest(space.id, cr.id));
      expect(pages.pages.map((p: { id: string }) => p.id)).toEqual([pageId]);
      await expectContract('getPageInChangeRequestById', api.spaces.getPageInChangeRequestById(space.id, cr.id, pageId, { format: 'markdown' as never }));
      const files = await expectContract('listFilesInChangeRequestById', api.spaces.listFilesInChangeRequestById(space.id, cr.id));
      expect(files.items.map((f: { id: string }) => f.id)).toEqual([fileId]);
      await expectContract('getFileInChangeRequestById', api.spaces.getFileInChangeRequestById(space.id, cr.id, fileId));
      const backlinks = await expectContract('listChangeRequestFileBacklinks', api.spaces.listChangeRequestFileBacklinks(space.id, cr.id, fileId));
      expect(backlinks.items.map((l: { page: { id: string } }) => l.page.id)).toEqual([pageId]);
    });

    it('updateChangeRequest and mergeChangeRequest', async () => {
      const { space, cr } = await changeRequestWithContent();
      const { data: other } = await api.spaces.createChangeRequest(space.id, {});
      await admin.gql(`mutation($s: ID!, $c: ID!) { createPage(spaceId: $s, changeRequestId: $c, input: { title: "Other" }) { revision { id } } }`, {
        s: space.id,
        c: other.id,
      });
      const merged = await expectContract('mergeChangeRequest', api.spaces.mergeChangeRequest(space.id, other.id));
      expect(merged.result).toBe('merge');
      const updated = await expectContract('updateChangeRequest', api.spaces.updateChangeRequest(space.id, cr.id));
      expect(updated.result).toBe('update');
      await expectContract('getRevisionOfChangeRequestById', api.spaces.getRevisionOfChangeRequestById(space.id, cr.id));
      // A change request started from a merge revision reads it with `mergedFrom`.
      const { data: fresh } = await api.spaces.createChangeRequest(space.id, {});
      const revision = await expectContract('getRevisionOfChangeRequestById', api.spaces.getRevisionOfChangeRequestById(space.id, fresh.id));
      expect(revision).toMatchObject({ type: 'merge', mergedFrom: { id: other.id } });
    });

    it('listPageLinksInChangeRequest and listSpaceLinks', async () => {
      const { space, cr, pageId } = await changeRequestWithContent();
      await admin.gql(
        `mutation($s: ID!, $c: ID!, $p: ID!) { updatePage(spaceId: $s, changeRequestId: $c, pageId: $p, input: { markdown: "![i](.gitbook/assets/image.png) [x](https://example.com) [y](missing.md)" }) { page { id } } }`,
        { s: space.id, c: cr.id, p: pageId },
      );
      const pageLinks = await expectContract('listPageLinksInChangeRequest', api.spaces.listPageLinksInChangeRequest(space.id, cr.id, pageId));
      expect(pageLinks.items.map((l: { status: string }) => l.status)).toEqual(['in-app', 'ok', 'broken']);
      await api.spaces.mergeChangeRequest(space.id, cr.id);
      const spaceLinks = await expectContract('listSpaceLinks', api.spaces.listSpaceLinks(space.id, { status: 'broken' as never }));
      expect(spaceLinks.stats).toEqual({ total: 3, broken: { total: 1 } });
    });

    it('getChangeRequestPDF', async () => {
      const { space, cr, pageId } = await changeRequestWithContent();
      const pdf = await expectContract('getChangeRequestPDF', api.spaces.getChangeRequestPdf(space.id, cr.id, { page: pageId, only: true }));
      expect(pdf.url).toMatch(/\/pdf\/.*signature=/);
    });

    it('importContentInChangeRequest', async () => {
      const site = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Imported</title><p>Hello</p>'));
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      try {
        const space = await createSpace('Import');
        const { data: cr } = await api.spaces.createChangeRequest(space.id, {});
        const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
        const imported = await expectContract(
          'importContentInChangeRequest',
          api.spaces.importContentInChangeRequest(space.id, cr.id, { url, source: 'website' as never }),
        );
        expect(imported).toMatchObject({ importedResources: 1, totalResources: 1 });
      } finally {
        site.close();
      }
    });

    it('searchOrganizationContent', async () => {
      const { space, cr } = await changeRequestWithContent();
      await api.spaces.mergeChangeRequest(space.id, cr.id);
      const found = await expectContract('searchOrganizationContent', api.orgs.searchOrganizationContent(organizationId, { query: 'hello' }));
      expect(found.items.map((s: { id: string }) => s.id)).toContain(space.id);
    });
  });

  describe('translation settings', () => {
    // The contract's Translation settings ({title, languages}) differ from the reference's translation
    // jobs ({source, language, instructions}); the contract wins, so bodies are checked against the
    // contract's shape (§2.12) instead of the reference schema, and the client's typed bodies are cast.
    const settingsShape = (title: string, languages: string[]) => ({
      object: 'translation-settings',
      id: expect.any(String),
      title,
      languages,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      permissions: { edit: true },
      urls: { location: expect.stringContaining(`/v1/orgs/${organizationId}/translations/`) },
    });

    async function createSettings(title = 'Europe') {
      const { data } = await api.orgs.createTranslation(organizationId, { title, languages: ['fr', 'de'] } as never);
      return data as any;
    }

    async function expectShape(operationId: string, call: Promise<unknown>) {
      const res = (await call) as ClientResponse;
      expect(res.status, `${operationId}: HTTP status`).toBe(expectedStatus(operationId));
      return res.status === 204 ? undefined : res.data;
    }

    it('createTranslation', async () => {
      const created = await expectShape('createTranslation', api.orgs.createTranslation(organizationId, { title: 'Europe', languages: ['fr', 'de'] } as never));
      expect(created).toEqual(settingsShape('Europe', ['fr', 'de']));
      expect(lastRaw?.headers.get('location')).toBe(created.urls.location);
    });

    it('listTranslations', async () => {
      const created = await createSettings('Listed');
      const list = await expectShape('listTranslations', api.orgs.listTranslations(organizationId));
      expect(list.items).toContainEqual(created);
      expect(list.count).toEqual(expect.any(Number));
    });

    it('getTranslation', async () => {
      const created = await createSettings();
      expect(await expectShape('getTranslation', api.orgs.getTranslation(organizationId, created.id))).toEqual(created);
    });

    it('updateTranslation', async () => {
      const created = await createSettings();
      const updated = await expectShape(
        'updateTranslation',
        api.orgs.updateTranslation(organizationId, created.id, { title: 'Asia', languages: ['ja'] } as never),
      );
      expect(updated).toEqual(settingsShape('Asia', ['ja']));
    });

    it('deleteTranslation', async () => {
      const created = await createSettings();
      await expectShape('deleteTranslation', api.orgs.deleteTranslation(organizationId, created.id));
    });
  });

  describe('OpenAPI specifications', () => {
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Contract', version: '9.9.9' }, paths: {} });

    async function createSpec(slug: string) {
      const { data } = await api.orgs.createOpenApiSpec(organizationId, { slug, source: { text } });
      return data;
    }

    it('createOpenAPISpec', async () => {
      const created = await expectContract('createOpenAPISpec', api.orgs.createOpenApiSpec(organizationId, { slug: 'contract-created', source: { text } }));
      expect(created).toMatchObject({ object: 'openapi-spec', slug: 'contract-created', processingState: 'pending' });
      expect(lastRaw?.headers.get('location')).toBe(created.urls.location);
    });

    it('listOpenAPISpecs', async () => {
      const created = await createSpec('contract-listed');
      const list = await expectContract('listOpenAPISpecs', api.orgs.listOpenApiSpecs(organizationId));
      expect(list.items.map((s: { id: string }) => s.id)).toContain(created.id);
    });

    it('getOpenAPISpecBySlug, once processed', async () => {
      await createSpec('contract-got');
      await server.runDueJobs();
      const spec = await expectContract('getOpenAPISpecBySlug', api.orgs.getOpenApiSpecBySlug(organizationId, 'contract-got'));
      expect(spec).toMatchObject({ slug: 'contract-got', processingState: 'complete', lastVersion: expect.stringMatching(/^[0-9A-Za-z]{20}$/) as unknown });
    });

    it('createOrUpdateOpenAPISpecBySlug: 201 when it creates, 200 when it updates', async () => {
      // operations.tsv gives "200/201": both are success statuses of this operation.
      const created = (await api.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, 'contract-put', { source: { text } })) as unknown as ClientResponse;
      expect(created.status).toBe(201);
      expect(formatErrors(validateResponse('createOrUpdateOpenAPISpecBySlug', 201, created.data))).toBe('');
      const updated = await expectContract(
        'createOrUpdateOpenAPISpecBySlug',
        api.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, 'contract-put', { source: { url: 'https://example.com/openapi.json' } }),
      );
      expect(updated).toMatchObject({ id: created.data.id, sourceURL: 'https://example.com/openapi.json', processingState: 'pending' });
    });

    it('deleteOpenAPISpecBySlug', async () => {
      await createSpec('contract-deleted');
      await expectContract('deleteOpenAPISpecBySlug', api.orgs.deleteOpenApiSpecBySlug(organizationId, 'contract-deleted'));
    });
  });

  describe('integrations', () => {
    // The client types enums as TypeScript enums; their string values are what travels.
    const body = (title = 'Contract'): PublishIntegration => ({
      organization: organizationId,
      title,
      description: 'Made by the contract test',
      scopes: ['space:content:read' as never],
      categories: ['content' as never],
      externalLinks: [{ url: 'https://example.com', label: 'Home' }],
      configurations: { account: { properties: { token: { type: 'string', title: 'Token' } }, required: ['token'] } } as never,
      script: 'export default {}',
      secrets: { TOKEN: 'never-shown' },
      contentSecurityPolicy: "default-src 'self'",
    });

    it('publishIntegration, twice (the version goes up)', async () => {
      const first = await expectContract('publishIntegration', api.integrations.publishIntegration('contract-published', body()));
      expect(first).toMatchObject({ object: 'integration', name: 'contract-published', version: 1, owner: { id: organizationId } });
      const second = await expectContract('publishIntegration', api.integrations.publishIntegration('contract-published', body('Contract 2')));
      expect(second).toMatchObject({ version: 2, title: 'Contract 2' });
      expect(JSON.stringify([first, second])).not.toContain('never-shown');
    });

    it('listIntegrations', async () => {
      await api.integrations.publishIntegration('contract-listed', body());
      const list = await expectContract('listIntegrations', api.integrations.listIntegrations({ search: 'contract-listed', owner: organizationId }));
      expect(list.items.map((i: { name: string }) => i.name)).toEqual(['contract-listed']);
    });

    it('getIntegrationByName', async () => {
      await api.integrations.publishIntegration('contract-got', body());
      const got = await expectContract('getIntegrationByName', api.integrations.getIntegrationByName('contract-got'));
      expect(got).toMatchObject({ name: 'contract-got', permissions: { admin: true, install: true } });
    });

    it('listIntegrationInstallations', async () => {
      await api.integrations.publishIntegration('contract-installed', body());
      await createSpace('Installed on');
      const installed = await admin.gql(
        `mutation($o: ID!) { installIntegration(organizationId: $o, integrationName: "contract-installed", input: {configuration: {token: "t"}, externalIds: ["acct-1"]}) { id } }`,
        { o: organizationId },
      );
      expect(installed.errors).toBeUndefined();
      const list = await expectContract(
        'listIntegrationInstallations',
        api.integrations.listIntegrationInstallations('contract-installed', { externalId: 'acct-1' }),
      );
      expect(list.items).toEqual([
        expect.objectContaining({ id: installed.data.installIntegration.id, status: 'active', space_selection: 'all', spaces: expect.any(Number) }),
      ]);
    });

    it('unpublishIntegration', async () => {
      await api.integrations.publishIntegration('contract-unpublished', body());
      await expectContract('unpublishIntegration', api.integrations.unpublishIntegration('contract-unpublished'));
    });
  });

  describe('comments', () => {
    it('space comments: list, post, get, update, delete; replies: list, post, get, update, delete', async () => {
      const space = await createSpace('Discussed');
      const posted = await expectContract('postCommentInSpace', api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Hello' } }));
      expect(posted).toMatchObject({ object: 'comment', status: 'open', body: { markdown: 'Hello' } });
      const list = await expectContract('listCommentsInSpace', api.spaces.listCommentsInSpace(space.id, { order: 'asc', status: 'open' }));
      expect(list.items.map((c: { id: string }) => c.id)).toEqual([posted.id]);
      await expectContract('getCommentInSpace', api.spaces.getCommentInSpace(space.id, posted.id, { format: 'document' }));
      const resolved = await expectContract(
        'updateCommentInSpace',
        api.spaces.updateCommentInSpace(space.id, posted.id, { resolved: true, addedReactions: ['👍'] }),
      );
      expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: admin.user.id }, reactions: [{ emoji: '👍', count: 1 }] });
      const reply = await expectContract('postCommentReplyInSpace', api.spaces.postCommentReplyInSpace(space.id, posted.id, { body: { markdown: 'Hi' } }));
      const replies = await expectContract('listCommentRepliesInSpace', api.spaces.listCommentRepliesInSpace(space.id, posted.id));
      expect(replies.items.map((r: { id: string }) => r.id)).toEqual([reply.id]);
      await expectContract('getCommentReplyInSpace', api.spaces.getCommentReplyInSpace(space.id, posted.id, reply.id));
      await expectContract('updateCommentReplyInSpace', api.spaces.updateCommentReplyInSpace(space.id, posted.id, reply.id, { addedReactions: ['🎉'] }));
      await expectContract('deleteCommentReplyInSpace', api.spaces.deleteCommentReplyInSpace(space.id, posted.id, reply.id));
      await expectContract('deleteCommentInSpace', api.spaces.deleteCommentInSpace(space.id, posted.id));
    });

    it('change-request comments: list, post, get, update, delete; replies: list, post, get, update, delete', async () => {
      const space = await createSpace('Reviewed');
      const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Edits' });
      const created = await admin.gql(
        `mutation($s: ID!, $c: ID!) { createPage(spaceId: $s, changeRequestId: $c, input: { title: "Intro", markdown: "Hello" }) { page { id } } }`,
        { s: space.id, c: cr.id },
      );
      const pageId = created.data.createPage.page.id as string;
      const posted = await expectContract(
        'postCommentInChangeRequest',
        api.spaces.postCommentInChangeRequest(space.id, cr.id, { page: pageId, body: { markdown: 'Why?' } }),
      );
      expect(posted.target).toMatchObject({ changeRequest: cr.id, page: { id: pageId, outdated: false } });
      const list = await expectContract('listCommentsInChangeRequest', api.spaces.listCommentsInChangeRequest(space.id, cr.id, { targetPage: pageId }));
      expect(list.items.map((c: { id: string }) => c.id)).toEqual([posted.id]);
      await expectContract('getCommentInChangeRequest', api.spaces.getCommentInChangeRequest(space.id, cr.id, posted.id));
      await expectContract(
        'updateCommentInChangeRequest',
        api.spaces.updateCommentInChangeRequest(space.id, cr.id, posted.id, { body: { markdown: 'Why not?' } }),
      );
      const reply = await expectContract(
        'postCommentReplyInChangeRequest',
        api.spaces.postCommentReplyInChangeRequest(space.id, cr.id, posted.id, { body: { markdown: 'Because' } }),
      );
      await expectContract('listCommentRepliesInChangeRequest', api.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, posted.id));
      await expectContract(
        'getCommentReplyInChangeRequest',
        api.spaces.getCommentReplyInChangeRequest(space.id, cr.id, posted.id, reply.id, { format: 'markdown' }),
      );
      await expectContract(
        'updateCommentReplyInChangeRequest',
        api.spaces.updateCommentReplyInChangeRequest(space.id, cr.id, posted.id, reply.id, { resolved: true }),
      );
      const { data: afterReply } = await api.spaces.getCommentInChangeRequest(space.id, cr.id, posted.id);
      expect(afterReply.status).toBe('resolved');
      await expectContract('deleteCommentReplyInChangeRequest', api.spaces.deleteCommentReplyInChangeRequest(space.id, cr.id, posted.id, reply.id));
      await expectContract('deleteCommentInChangeRequest', api.spaces.deleteCommentInChangeRequest(space.id, cr.id, posted.id));
    });
  });

  describe('the prepared reference', () => {
    it('rejects a body that does not conform, so the checks above are not vacuous', () => {
      const errors = validateResponse('getSpaceById', 200, { object: 'space', id: 's', emoji: 1, createdAt: 'yesterday', urls: { location: 'nowhere' } });
      const lines = formatErrors(errors);
      expect(lines).toContain("must have required property 'title'");
      expect(lines).toContain('/emoji must be string');
      expect(lines).toContain('/createdAt must match format "date-time"');
      expect(lines).toContain('/urls/location must match format "uri"');
      // The reference defect (`type` required but never declared on Space) is not reported.
      expect(lines).not.toContain("'type'");
    });

    it('expects no body where the reference declares none (204)', () => {
      expect(validateResponse('deleteSpaceById', 204, undefined)).toEqual([]);
      expect(validateResponse('deleteSpaceById', 204, { deleted: true })).not.toEqual([]);
    });
  });

  describe('errors', () => {
    it('an unknown space comes back through the client as the contract error body', async () => {
      const error = await api.spaces.getSpaceById('no-such-space').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(GitBookAPIError);
      expect((error as GitBookAPIError).code).toBe(404);
      const body = await lastRaw!.json();
      expect(body).toEqual({ error: { code: 404, message: expect.any(String) } });
      expect((error as GitBookAPIError).errorMessage).toBe(body.error.message);
    });

    it('an unknown organization answers the reference NotFoundError body', async () => {
      const error = await api.orgs.getOrganizationById('no-such-organization').catch((e: unknown) => e);
      expect((error as GitBookAPIError).code).toBe(404);
      const body = await lastRaw!.json();
      const errors = validateResponse('getOrganizationById', 404, body);
      expect(errors, formatErrors(errors)).toEqual([]);
    });
  });
});

describe('the route table', () => {
  const shared = fileURLToPath(new URL('../../shared/contract/operations.tsv', import.meta.url));
  it.runIf(existsSync(shared))('uses a copy of operations.tsv equal to the shared contract', () => {
    expect(readFileSync(new URL('./fixtures/operations.tsv', import.meta.url), 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });

  it("declares the contract's path, method and success status for every routed operation", () => {
    const rows = readFileSync(new URL('./fixtures/operations.tsv', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    for (const route of routes) {
      const row = rows.find((r) => r[3] === route.operationId);
      if (!row) continue; // reference operations beyond the contract
      expect([route.method, route.path], route.operationId).toEqual([row[1], row[2]]);
      expect(route.status, route.operationId).toBe(Number(row[4].split('/')[0]));
    }
  });
});
