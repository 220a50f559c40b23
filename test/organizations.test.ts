import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { Member } from '../src/domain/organizations/index.js';
import { newMember, newOrganization, newOrganizationWithRoles, newUser } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const ORGANIZATION_KEYS = [
  'object',
  'id',
  'title',
  'createdAt',
  'emailDomains',
  'type',
  'defaultRole',
  'sso',
  'ai',
  'inviteLinks',
  'plan',
  'urls',
  'trial',
  'permissions',
  // Required by the current client (0.202.0).
  'mergeRules',
];

describe('GET /v1/orgs', () => {
  it('requires a token', async () => {
    const res = await fetch(`${server.url}/v1/orgs`);
    expect(res.status).toBe(401);
  });

  it("lists only the caller's organizations, with every field of the contract", async () => {
    const alice = await newUser(server);
    const mine = await newOrganization(server, alice, { title: 'Alice Inc' });
    const bob = await newUser(server);
    await newOrganization(server, bob, { title: 'Bob Ltd' });
    const res = await alice.rest('GET', '/v1/orgs');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.next).toBeUndefined();
    const [org] = res.body.items;
    expect(Object.keys(org).sort()).toEqual([...ORGANIZATION_KEYS].sort());
    expect(org).toMatchObject({
      object: 'organization',
      id: mine.id,
      title: 'Alice Inc',
      emailDomains: [],
      type: 'business',
      plan: 'free',
      inviteLinks: true,
      urls: { location: `http://docs.test/v1/orgs/${mine.id}`, app: `http://docs.test/o/${mine.id}` },
      trial: { status: 'notapplicable' },
      permissions: { view: true, admin: true, createContent: true, listMembers: true },
    });
    expect(new Date(org.createdAt).toISOString()).toBe(org.createdAt);
  });

  it('pages with keyset cursors that stay correct while organizations are added', async () => {
    const alice = await newUser(server);
    for (let i = 0; i < 5; i++) {
      server.clock.advance(1000);
      await newOrganization(server, alice, { title: `Org ${i}` });
    }
    const first = await alice.rest('GET', '/v1/orgs?limit=2');
    expect(first.body.items.map((o: { title: string }) => o.title)).toEqual(['Org 0', 'Org 1']);
    expect(first.body.count).toBe(5);
    expect(first.body.next.page).toEqual(expect.any(String));

    server.clock.advance(1000);
    await newOrganization(server, alice, { title: 'Org 5' });

    const second = await alice.rest('GET', `/v1/orgs?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((o: { title: string }) => o.title)).toEqual(['Org 2', 'Org 3']);
    const third = await alice.rest('GET', `/v1/orgs?limit=2&page=${second.body.next.page}`);
    expect(third.body.items.map((o: { title: string }) => o.title)).toEqual(['Org 4', 'Org 5']);
    expect(third.body.next).toBeUndefined();
    expect(third.body.count).toBe(6);
  });
});

describe('GET /v1/orgs/{organizationId}', () => {
  it('answers members (guests included) and hides the organization from others', async () => {
    const { organization, admin, read, guest, outsider } = await newOrganizationWithRoles(server);
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}`)).status).toBe(200);
    const asReader = await read.rest('GET', `/v1/orgs/${organization.id}`);
    expect(asReader.status).toBe(200);
    expect(asReader.body.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true });
    const asGuest = await guest.rest('GET', `/v1/orgs/${organization.id}`);
    expect(asGuest.status).toBe(200);
    expect(asGuest.body.permissions).toMatchObject({ view: true, admin: false, listMembers: false });
    const asOutsider = await outsider.rest('GET', `/v1/orgs/${organization.id}`);
    expect(asOutsider.status).toBe(404);
    expect(asOutsider.body).toEqual({ error: { code: 404, message: 'Organization not found' } });
    expect((await admin.rest('GET', '/v1/orgs/doesNotExist')).status).toBe(404);
  });
});

describe('PATCH /v1/orgs/{organizationId}', () => {
  it('updates every field of the contract', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const res = await admin.rest('PATCH', `/v1/orgs/${organization.id}`, {
      title: 'Renamed',
      emailDomains: ['Example.com', 'example.org', 'example.com'],
      hostname: `acme-${organization.id.slice(0, 8).toLowerCase()}`,
      defaultRole: null,
      logo: 'https://example.com/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Renamed',
      emailDomains: ['example.com', 'example.org'],
      hostname: `acme-${organization.id.slice(0, 8).toLowerCase()}`,
      defaultRole: null,
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://example.com/logo.png' },
    });
    const again = await admin.rest('GET', `/v1/orgs/${organization.id}`);
    expect(again.body).toEqual(res.body);
    const cleared = await admin.rest('PATCH', `/v1/orgs/${organization.id}`, { logo: null, defaultRole: 'edit' });
    expect(cleared.body.urls.logo).toBeUndefined();
    expect(cleared.body.defaultRole).toBe('edit');
  });

  it("points its default content at one of its sites, refuses another organization's, and lets go when the site is deleted", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganizationWithRoles(server);
    const site = await admin.rest<{ id: string }>('POST', `/v1/orgs/${organization.id}/sites`, { title: 'Docs' });
    const foreign = await other.admin.rest<{ id: string }>('POST', `/v1/orgs/${other.organization.id}/sites`, { title: 'Elsewhere' });
    const pointer = { type: 'site', site: site.body.id };
    const set = await admin.rest<{ defaultContent?: unknown }>('PATCH', `/v1/orgs/${organization.id}`, { defaultContent: pointer });
    expect(set.status).toBe(200);
    expect(set.body.defaultContent).toEqual(pointer);
    const refused = await admin.rest('PATCH', `/v1/orgs/${organization.id}`, { defaultContent: { type: 'site', site: foreign.body.id } });
    expect(refused.status).toBe(400);
    expect((await admin.rest<{ defaultContent?: unknown }>('GET', `/v1/orgs/${organization.id}`)).body.defaultContent).toEqual(pointer);
    expect((await admin.rest('DELETE', `/v1/orgs/${organization.id}/sites/${site.body.id}`)).status).toBe(204);
    expect((await admin.rest<{ defaultContent?: unknown }>('GET', `/v1/orgs/${organization.id}`)).body.defaultContent).toBeUndefined();
  });

  it.each([
    [{ title: 'x' }, 'title: must be at least 2 characters'],
    [{ title: 'x'.repeat(256) }, 'title: must be at most 255 characters'],
    [{ hostname: 'ab' }, 'hostname: must be at least 3 characters'],
    [{ hostname: 'x'.repeat(33) }, 'hostname: must be at most 32 characters'],
    [{ hostname: 'Not_Valid' }, 'hostname: must be lowercase letters, digits and inner hyphens'],
    [{ emailDomains: ['not a domain'] }, 'emailDomains.0: must be a domain name such as example.com'],
    [{ defaultRole: 'owner' }, /^defaultRole: /],
    [{ logo: 'ftp://example.com/x.png' }, 'logo: must be an http(s) URL'],
    [{ sso: 'yes' }, /^sso: /],
    [{ defaultContent: { type: 'site', site: 'nope' } }, 'defaultContent.site: no site "nope" in this organization'],
  ])('rejects %j with 400 and changes nothing', async (body, message) => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const res = await admin.rest('PATCH', `/v1/orgs/${organization.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    if (typeof message === 'string') expect(res.body.error.message).toBe(message);
    else expect(res.body.error.message).toMatch(message);
    const after = await admin.rest('GET', `/v1/orgs/${organization.id}`);
    expect(after.body.title).toBe('Test organization');
  });

  it('keeps hostnames unique (409)', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin);
    const hostname = `host-${organization.id.slice(0, 10).toLowerCase()}`;
    expect((await admin.rest('PATCH', `/v1/orgs/${organization.id}`, { hostname })).status).toBe(200);
    const taken = await admin.rest('PATCH', `/v1/orgs/${other.id}`, { hostname });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/^hostname: /);
  });

  it('needs the admin role (403) and membership (404)', async () => {
    const { organization, create, guest, outsider } = await newOrganizationWithRoles(server);
    expect((await create.rest('PATCH', `/v1/orgs/${organization.id}`, { title: 'Nope' })).status).toBe(403);
    expect((await guest.rest('PATCH', `/v1/orgs/${organization.id}`, { title: 'Nope' })).status).toBe(403);
    expect((await outsider.rest('PATCH', `/v1/orgs/${organization.id}`, { title: 'Nope' })).status).toBe(404);
  });
});

describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
  it("lists the organizations of the caller's own domain, and otherwise only the caller's", async () => {
    const domain = `d${Date.now()}.example.com`;
    const owner = await newUser(server);
    const joinable = await newOrganization(server, owner, { title: 'Joinable', emailDomains: [domain] });
    const colleague = await newUser(server, { email: `someone@${domain}` });
    const own = await colleague.rest('GET', `/v1/email-domains/${domain}/orgs`);
    expect(own.status).toBe(200);
    expect(own.body.organizations.map((o: { id: string }) => o.id)).toEqual([joinable.id]);
    expect(own.body.organizations[0].permissions.view).toBe(false);

    const stranger = await newUser(server);
    expect((await stranger.rest('GET', `/v1/email-domains/${domain}/orgs`)).body).toEqual({ organizations: [] });
    expect((await owner.rest('GET', `/v1/email-domains/${domain}/orgs`)).body.organizations).toHaveLength(1);
    expect((await owner.rest('GET', '/v1/email-domains/not_a_domain/orgs')).status).toBe(400);
  });
});

describe('POST /v1/orgs/{organizationId}/ping', () => {
  it("records the caller's last-seen time and returns signed visitor claims", async () => {
    const { organization, edit, outsider } = await newOrganizationWithRoles(server);
    server.clock.advance(60_000);
    const res = await edit.rest('POST', `/v1/orgs/${organization.id}/ping`);
    expect(res.status).toBe(200);
    const claims = decodeJwt(res.body.serviceVisitorClaims);
    expect(claims).toMatchObject({ sub: edit.user.id, organization: organization.id, role: 'edit', email: edit.user.email });
    const member = await server.em().findOneOrFail(Member, { organization: organization.id, user: edit.user.id });
    expect(member.lastSeenAt?.toISOString()).toBe(server.clock.now().toISOString());
    expect((await outsider.rest('POST', `/v1/orgs/${organization.id}/ping`)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('creates an organization with the viewer as admin and walks into its content', async () => {
    const alice = await newUser(server);
    const created = await alice.gql('mutation { createOrganization(input: { title: "Fresh" }) { id title viewerRole permissions { admin } } }');
    expect(created.data.createOrganization).toMatchObject({ title: 'Fresh', viewerRole: 'admin', permissions: { admin: true } });
    const id = created.data.createOrganization.id;
    await alice.rest('POST', `/v1/orgs/${id}/spaces`, { title: 'Guide' });
    const tree = await alice.gql('query($id: ID!) { organization(id: $id) { title spaces { count items { title owningOrganization { id } } } } }', { id });
    expect(tree.data.organization).toEqual({ title: 'Fresh', spaces: { count: 1, items: [{ title: 'Guide', owningOrganization: { id } }] } });
    const bad = await alice.gql('mutation { createOrganization(input: { title: "x" }) { id } }');
    expect(bad.errors?.[0]).toMatchObject({ message: 'title: must be at least 2 characters', extensions: { code: 'BAD_REQUEST' } });
  });

  it('answers 404 and 403 codes like REST', async () => {
    const { organization, read, outsider } = await newOrganizationWithRoles(server);
    const hidden = await outsider.gql('query($id: ID!) { organization(id: $id) { id } }', { id: organization.id });
    expect(hidden.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const denied = await read.gql('mutation($id: ID!) { updateOrganization(id: $id, input: { title: "No" }) { id } }', { id: organization.id });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it("reports the viewer's role for guests as null", async () => {
    const { organization } = await newOrganizationWithRoles(server);
    const guest = await newMember(server, organization.id, null);
    const res = await guest.gql('query($id: ID!) { organization(id: $id) { viewerRole permissions { view admin } } }', { id: organization.id });
    expect(res.data.organization).toEqual({ viewerRole: null, permissions: { view: true, admin: false } });
  });
});
